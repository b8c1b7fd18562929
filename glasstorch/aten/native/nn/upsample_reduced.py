"""float16 / bfloat16 interpolation as torch's CPU kernels round it: linear, bilinear,
trilinear and bicubic (``upsample.py`` computes the taps).

Note [Reduced-precision resampling]
    torch interpolates float16 and bfloat16 in float32 and rounds each output once, but
    two kernels do it, and their results differ in the last bits:
    - the channels-last kernel (bilinear on a channels-last input of more than three
      channels, on any input whose output height plus width is at most 128, or of
      three channels when torch runs on one thread; trilinear on a channels-last input
      of more than three channels) keeps the weights in float32, multiplies the dims'
      weights into one per corner (depth first), and sums the corners;
    - the generic kernel (every other case) first rounds each dim's weights to the
      input's dtype (linear's second weight is one minus the rounded first, rounded
      again), then resamples the dims innermost first.
    The sums are those of torch's compiled loops, whose multiply-adds are fused (one
    rounding for ``a * b + c``): the generic kernel adds the taps in order, the first
    two as ``fma(t0, w0, t1 * w1)`` and each next as ``fma(t, w, sum)``. The
    channels-last kernel takes the channels sixteen at a time, summing from the last
    corner back: ``fma(t0, w0, fma(t1, w1, ... fma(t_prev, w_prev, t_last * w_last)))``;
    the channels left over are summed in order, as the generic kernel sums (float16
    starts with ``fma(t1, w1, t0 * w0)`` instead: its compiled loop differs). A fused
    multiply-add is computed here exactly in float64 and rounded to float32.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.layout import channels_last, channels_last_3d
from ....c10.tensor_impl import wrap_array
from ...dispatcher import ops
from ...parallel import get_num_threads

# the channels torch's channels-last kernel takes at a time in its vector loop (the
# float32 lanes of an AVX-512 register)
_VECTOR_WIDTH = 16
# output height plus width up to which 2-d bilinear takes the channels-last kernel
_SMALL_OUTPUT = 128


def uses_channels_last_kernel(input, kind: str, output_size) -> bool:
    """Whether torch resamples `input` with its channels-last kernel (bilinear and
    trilinear only; Note [Reduced-precision resampling])."""
    if kind != "linear" or input.dim() == 3:
        return False
    layout = channels_last if input.dim() == 4 else channels_last_3d
    wide_channels_last = input.is_contiguous(memory_format=layout) and input._size[1] > 3
    if input.dim() == 5:
        return wide_channels_last
    return (wide_channels_last or sum(output_size) <= _SMALL_OUTPUT
            or (get_num_threads() == 1 and input._size[1] == 3))


def _weight(values, shape, like):
    """One tap's float32 weights as a tensor of `shape` on `like`'s device."""
    array = np.asarray(values, dtype=np.float64).reshape(shape)
    return wrap_array(array, dtypes.float64).to(like.device, dtypes.float32)


def _fused(term, weight, total):
    """``term * weight + total`` rounded once to float32 (float64 holds the product
    of two float32 values exactly)."""
    return (term.double() * weight.double() + total.double()).float()


def _sum_in_order(terms: list, weights: list, second_fused: bool = False):
    """``fma(t0, w0, t1 * w1)`` (``fma(t1, w1, t0 * w0)`` when `second_fused`), then
    ``fma(t, w, sum)`` for each next tap."""
    if second_fused:
        total = _fused(terms[1], weights[1], terms[0] * weights[0])
    else:
        total = _fused(terms[0], weights[0], terms[1] * weights[1])
    for term, weight in zip(terms[2:], weights[2:]):
        total = _fused(term, weight, total)
    return total


def _sum_from_last(terms: list, weights: list):
    """The vector loop's order: the last two taps first, then back to the first."""
    total = _fused(terms[-2], weights[-2], terms[-1] * weights[-1])
    for term, weight in zip(reversed(terms[:-2]), reversed(weights[:-2])):
        total = _fused(term, weight, total)
    return total


def resample_generic(wide, dim_taps: list):
    """The generic kernel on float32 `wide`: the dims innermost first, the taps summed
    in order (their weights already rounded to the input's dtype)."""
    result, first = wide, wide.dim() - len(dim_taps)
    for k in reversed(range(len(dim_taps))):
        dim, terms, weights = first + k, [], []
        for positions, values in dim_taps[k]:
            index = wrap_array(np.asarray(positions, dtype=np.int64), dtypes.int64)
            terms.append(result.index_select(dim, index.to(wide.device)))
            weights.append(_weight(values, [-1] + [1] * (wide.dim() - 1 - dim), wide))
        result = _sum_in_order(terms, weights)
    return result


def resample_channels_last(wide, dim_taps: list, dtype):
    """The channels-last kernel on float32 `wide` (widened from `dtype`): one float32
    weight per corner, the corners summed in the vector loop's order, the channels past
    it in order."""
    first, terms, weights = wide.dim() - len(dim_taps), [], []
    for corner in np.ndindex(*(len(taps) for taps in dim_taps)):
        term, weight = wide, np.float32(1)
        for k, j in enumerate(corner):
            positions, values = dim_taps[k][j]
            index = wrap_array(np.asarray(positions, dtype=np.int64), dtypes.int64)
            term = term.index_select(first + k, index.to(wide.device))
            shape = [-1 if i == k else 1 for i in range(len(dim_taps))]
            weight = (weight * np.asarray(values, np.float32).reshape(shape)).astype(np.float32)
        terms.append(term)
        weights.append(_weight(weight, weight.shape, wide))
    channels, second_fused = wide._size[1], dtype is dtypes.float16
    vectored = channels - channels % _VECTOR_WIDTH
    if vectored == 0:
        return _sum_in_order(terms, weights, second_fused)
    if vectored == channels:
        return _sum_from_last(terms, weights)
    head = _sum_from_last([t.narrow(1, 0, vectored) for t in terms], weights)
    tail = _sum_in_order([t.narrow(1, vectored, channels - vectored) for t in terms], weights,
                         second_fused)
    return ops.aten.cat([head, tail], 1)
