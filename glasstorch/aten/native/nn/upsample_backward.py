"""The gradients of interpolation: upsample_linear1d_backward, upsample_bilinear2d_backward,
upsample_trilinear3d_backward and upsample_bicubic2d_backward (``upsample.py`` computes
the taps).

Note [Resampling gradients in torch's order]
    Each output's gradient is spread back over the input positions its taps read, and
    an input position sums what every output reading it sends. torch's CPU kernels add
    those terms one at a time, walking the outputs in row-major order and, within an
    output, its taps in a fixed order; float16 / bfloat16 sum in a float32 buffer per
    channel and round once at the end, float32 sums in place. The rounding of each
    addition makes that order part of the result, so it is kept here:
    - linear (1-3 dims): the corners with the outer dim's taps outermost, each corner's
      weight the product of the dims' float32 weights, outer dim first; each term is
      added with one rounding, ``fma(weight, grad, sum)`` (the kernel is compiled with
      FMA contraction); channels-last gradients are summed in the same order;
    - bicubic: the width's four taps outermost, the height's inside them; each term is
      ``(grad * y_weight) * x_weight`` and is added with its own rounding, and the
      weights and source positions are computed without fused steps (this kernel is
      compiled for the baseline CPU).
    The terms are sorted by the input position they reach, keeping their order; the
    k-th terms of all positions are then added in one vectorized step, k = 0, 1, ...
    (one position takes at most one term per step). A fused multiply-add is computed
    exactly in float64 and rounded to float32; float64 gradients add ``weight * grad``
    in float64.
"""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from ....c10.layout import channels_last, channels_last_3d
from ...registry import TensorMeta, op
from ..creation.copy import memory_format_strides
from ..pointwise.unary import refuse
from . import upsample

_AXES = ("D", "H", "W")
_NOT_FLOATING = frozenset(np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16,
                                                np.int32, np.int64, np.complex64,
                                                np.complex128))


def _terms(input_size, output_size, dim_taps: list, width_outer: bool) -> tuple:
    """Every term as (input position, output position, factors), in the kernel's order:
    outputs row-major, then the corners (the first dim's taps outermost, or the last
    dim's when `width_outer`). Positions are flat over the spatial dims."""
    grid = np.indices(output_size).reshape(len(output_size), -1)
    counts = [len(taps) for taps in dim_taps]
    corners = list(itertools.product(*(range(n) for n in counts)))
    if width_outer:
        corners = [c[::-1] for c in itertools.product(*(range(n) for n in counts[::-1]))]
    targets, factors = [], []
    for corner in corners:
        flat = np.zeros(grid.shape[1], np.int64)
        for d, j in enumerate(corner):
            flat = flat * input_size[d] + np.asarray(dim_taps[d][j][0])[grid[d]]
        targets.append(flat)
        factors.append([np.asarray(dim_taps[d][j][1])[grid[d]] for d, j in enumerate(corner)])
    per_corner = len(corners)
    target = np.stack(targets, 1).reshape(-1)
    source = np.repeat(np.arange(grid.shape[1]), per_corner)
    stacked = [np.stack([f[i] for f in factors], 1).reshape(-1) for i in range(len(counts))]
    return target, source, stacked


def _rounds(target: np.ndarray) -> list:
    """The terms' indices grouped by rank: the k-th group holds each input position's
    k-th term (Note [Resampling gradients in torch's order])."""
    order = np.argsort(target, kind="stable")
    ordered = target[order]
    starts = np.r_[0, np.flatnonzero(np.diff(ordered)) + 1]
    rank = np.arange(len(ordered)) - np.repeat(starts, np.diff(np.r_[starts, len(ordered)]))
    by_rank = np.argsort(rank, kind="stable")
    bounds = np.searchsorted(rank[by_rank], np.arange(rank.max() + 2))
    return [order[by_rank[a:b]] for a, b in zip(bounds[:-1], bounds[1:])]


@functools.lru_cache(maxsize=32)
def _schedule(kind: str, input_size: tuple, output_size: tuple, scales: tuple,
              align_corners: bool, real) -> list:
    """The rounds of terms of one geometry, each ``(input positions, output positions,
    factors)`` with the factors as columns (the same for every call of that geometry)."""
    if kind == "linear":
        taps = [upsample.linear_taps(n, m, s, align_corners, real)
                for n, m, s in zip(input_size, output_size, scales)]
        target, source, factors = _terms(input_size, output_size, taps, width_outer=False)
        # one weight per corner: the dims' weights multiplied outer dim first, rounded
        weight = factors[0].astype(real)
        for factor in factors[1:]:
            weight = (weight * factor.astype(real)).astype(real)
        factors = [weight]
    else:
        taps = [upsample.cubic_taps(n, m, s, align_corners, real, fused=False)
                for n, m, s in zip(input_size, output_size, scales)]
        target, source, factors = _terms(input_size, output_size, taps, width_outer=True)
        factors = [f.astype(real) for f in factors]
    return [(target[chosen], source[chosen], [f[chosen, None] for f in factors])
            for chosen in _rounds(target)]


def _accumulate(grads: np.ndarray, input_numel: int, schedule: list, fused: bool,
                real) -> np.ndarray:
    """Sum the terms into one column per channel plane (`grads`: outputs x planes; the
    planes last, so that each term moves one contiguous row)."""
    total = np.zeros((input_numel, grads.shape[1]), real)
    for positions, sources, factors in schedule:
        values = grads[sources]
        if fused and real is np.float32:
            # the assignment rounds the float64 sum once, to float32
            total[positions] = values.astype(np.float64) * factors[0] + total[positions]
            continue
        for factor in factors:
            values = values * factor
        total[positions] += values
    return total


def _check(grad_output, output_size, input_size, k: int) -> None:
    """torch's checks: the sizes (as the forward checks them), then grad_output's."""
    if len(output_size) != k:
        raise RuntimeError(f"It is expected output_size equals to {k}, but got size "
                           f"{len(output_size)}")
    if len(input_size) != k + 2:
        raise RuntimeError(f"It is expected input_size equals to {k + 2}, but got size "
                           f"{len(input_size)}")
    spatial = tuple(input_size[2:])
    if min(spatial) <= 0 or min(output_size) <= 0:
        axes = _AXES[3 - k:]
        inputs = ", ".join(f"{a}: {n}" for a, n in zip(axes, spatial))
        outputs = ", ".join(f"{a}: {n}" for a, n in zip(axes, output_size))
        joint = " and" if k == 1 else ""      # the 1-d check words it apart
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({inputs}){joint} output ({outputs})")
    expected = tuple(input_size[:2]) + tuple(output_size)
    if k == 1:
        _check_dim_sizes(grad_output, expected)
        return
    if grad_output.dim() != k + 2:
        raise RuntimeError(f"Expected grad_output to be a tensor of dimension {k + 2} but "
                           f"got: dimension {grad_output.dim()}")
    for i, (want, got) in enumerate(zip(expected, grad_output._size)):
        if want != got:
            raise RuntimeError(f"Expected grad_output to have the same shape as output; "
                               f"output.size({i}) = {want} but got grad_output.size({i}) = "
                               f"{got}")


def _check_dim_sizes(grad_output, expected: tuple) -> None:
    """The 1-d operator's check: the rank and each size, one dim at a time."""
    rank = len(expected)
    for i, want in enumerate(expected):
        got = grad_output._size[i] if i < grad_output.dim() else None
        if grad_output.dim() != rank or got != want:
            raise RuntimeError(f"Expected a tensor of dimension {rank} and tensor.size[{i}] == "
                               f"{want} but got: dimension {grad_output.dim()} and "
                               f"tensor.size[{i}] = {got}")


def _declare(forward: str, k: int, kind: str):
    """`forward`'s backward operator (and its .grad_input overload)."""
    name = f"{forward}_backward"
    scale_names = upsample._SCALES[k]
    scales_text = ", ".join(f"float? {s}=None" for s in scale_names)
    layout = {2: channels_last, 3: channels_last_3d}.get(k) if kind == "linear" else None

    def meta(grad_output, output_size, input_size, align_corners, *scales):
        _check(grad_output, output_size, input_size, k)
        stride = None
        if layout is not None and not grad_output.is_contiguous() and \
                grad_output.is_contiguous(memory_format=layout):
            stride = memory_format_strides(tuple(input_size), layout)
        return TensorMeta(tuple(input_size), grad_output._dtype, stride)

    def kernel(grad_output, output_size, input_size, align_corners, *scales, out):
        # torch names its channels-last loop apart (the result follows grad_output's layout)
        refuse(grad_output, name + ("" if out.flags.c_contiguous else "_channels_last"),
               _NOT_FLOATING)
        real = np.float64 if grad_output.dtype == np.float64 else np.float32
        schedule = _schedule(kind, tuple(input_size[2:]), tuple(output_size), tuple(scales),
                             bool(align_corners), real)
        planes = np.ascontiguousarray(
            grad_output.reshape(-1, math.prod(output_size)).T.astype(real))
        total = _accumulate(planes, math.prod(input_size[2:]), schedule,
                            fused=kind == "linear", real=real)
        np.copyto(out, total.T.reshape(out.shape), casting="unsafe")
    meta.__name__ = f"{name}_meta"
    kernel.__name__ = name
    kernel.__doc__ = (f"The gradient of `{forward}`'s input: each output's gradient spread "
                      f"over the inputs it read (Note [Resampling gradients in torch's "
                      f"order]).")
    corners = ", ".join(["grad", "output_size", "align_corners", *scale_names])
    return op(f"{name}(Tensor grad_output, SymInt[{k}] output_size, SymInt[{k + 2}] "
              f"input_size, bool align_corners, {scales_text}) -> Tensor", meta=meta,
              out=True, out_overload="grad_input", out_names=("grad_input",), function=False,
              grad={"grad_output": f"{forward}({corners})"})(kernel)


upsample_linear1d_backward = _declare("upsample_linear1d", 1, "linear")
upsample_bilinear2d_backward = _declare("upsample_bilinear2d", 2, "linear")
upsample_trilinear3d_backward = _declare("upsample_trilinear3d", 3, "linear")
upsample_bicubic2d_backward = _declare("upsample_bicubic2d", 2, "cubic")
