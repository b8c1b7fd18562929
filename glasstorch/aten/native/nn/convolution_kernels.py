"""The NumPy kernels of `convolution`: im2col windows and one GEMM per group.

Note [Convolution as GEMM]
    A convolution of an input ``(N, G*Cig, *spatial)`` with a weight ``(G*Cog, Cig,
    *kernel)`` sums, for each output position, a window of ``Cig * prod(kernel)`` input
    values against each output channel's weights. The windows are one `as_strided`
    view of the (zero-padded) input, shaped ``(G, Cig, *kernel, N, *out_spatial)``:
    reshaped to ``(G, Cig*K, N*P)`` (the one copy, im2col) each group is one matrix
    product with its ``(Cog, Cig*K)`` weights, whatever the batch size. A 1x1
    convolution with stride 1 needs no copy beyond the reshape NumPy makes.

    The transposed convolution is the adjoint: one GEMM per group spreads every input
    position over ``(Cog, *kernel)`` columns, and col2im adds each kernel offset's
    columns into a strided slice of the output (a loop over the few kernel offsets,
    never over positions). Both kernels compute float16/bfloat16 in float32 (opmath)
    and round once into the result.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided


def _compute(array: np.ndarray) -> np.ndarray:
    """float16/bfloat16 widened to float32; other dtypes as they are."""
    if array.dtype.kind == "V" or array.dtype.itemsize == 2:
        return array.astype(np.float32)
    return array


def _padded(input: np.ndarray, padding) -> np.ndarray:
    if not any(padding):
        return input
    return np.pad(input, [(0, 0), (0, 0)] + [(p, p) for p in padding])


def _windows(input: np.ndarray, groups: int, kernel, out_spatial, stride, dilation):
    """The im2col view ``(G, Cig, *kernel, N, *out_spatial)`` of a padded input."""
    n, channels = input.shape[:2]
    strides = input.strides
    shape = (groups, channels // groups) + tuple(kernel) + (n,) + tuple(out_spatial)
    steps = ((channels // groups) * strides[1], strides[1])
    steps += tuple(d * s for d, s in zip(dilation, strides[2:]))
    steps += (strides[0],) + tuple(t * s for t, s in zip(stride, strides[2:]))
    return as_strided(input, shape, steps, writeable=False)


def convolution_forward(input: np.ndarray, weight: np.ndarray, bias, stride, padding,
                        dilation, groups: int, out: np.ndarray) -> None:
    """Write the convolution of `input` by `weight` into `out` (Note [Convolution as
    GEMM]); `padding` is symmetric zero padding."""
    n = input.shape[0]
    kernel, out_spatial = weight.shape[2:], out.shape[2:]
    source = _padded(_compute(input), padding)
    columns = _windows(source, groups, kernel, out_spatial, stride, dilation)
    rows = columns.shape[1] * math.prod(kernel)
    columns = columns.reshape(groups, rows, n * math.prod(out_spatial))
    weights = _compute(weight).reshape(groups, weight.shape[0] // groups, rows)
    product = np.matmul(weights, columns)                    # (G, Cog, N*P)
    product = product.reshape((weight.shape[0], n) + tuple(out_spatial)).swapaxes(0, 1)
    if bias is not None:
        product += _compute(bias).reshape((-1,) + (1,) * len(out_spatial))
    out[...] = product


def transposed_forward(input: np.ndarray, weight: np.ndarray, bias, stride, padding,
                       dilation, groups: int, out: np.ndarray) -> None:
    """Write the transposed convolution of `input` by `weight` ``(G*Cig, Cog,
    *kernel)`` into `out` (col2im; Note [Convolution as GEMM])."""
    n, channels = input.shape[:2]
    in_spatial, kernel = input.shape[2:], weight.shape[2:]
    cog, k = weight.shape[1], math.prod(kernel)
    positions = math.prod(in_spatial)
    source = _compute(input).reshape((n, groups, channels // groups, positions))
    source = source.transpose(1, 2, 0, 3).reshape(groups, channels // groups, n * positions)
    weights = _compute(weight).reshape(groups, channels // groups, cog * k)
    columns = np.matmul(weights.transpose(0, 2, 1), source)           # (G, Cog*K, N*Pin)
    columns = columns.reshape((groups * cog,) + tuple(kernel) + (n,) + tuple(in_spatial))
    full = [p + o + pad for p, o, pad in zip(padding, out.shape[2:], padding)]
    full = [max(f, (i - 1) * s + d * (kk - 1) + 1)
            for f, i, s, d, kk in zip(full, in_spatial, stride, dilation, kernel)]
    buffer = np.zeros((n, groups * cog) + tuple(full), dtype=columns.dtype)
    for offset in itertools.product(*(range(kk) for kk in kernel)):
        target = tuple(slice(o * d, o * d + s * (i - 1) + 1, s)
                       for o, d, s, i in zip(offset, dilation, stride, in_spatial))
        buffer[(slice(None), slice(None)) + target] += \
            columns[(slice(None),) + offset].swapaxes(0, 1)
    crop = tuple(slice(p, p + o) for p, o in zip(padding, out.shape[2:]))
    result = buffer[(slice(None), slice(None)) + crop]
    if bias is not None:
        result += _compute(bias).reshape((-1,) + (1,) * len(in_spatial))
    out[...] = result
