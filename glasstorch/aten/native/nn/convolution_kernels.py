"""The NumPy kernels of `convolution`: im2col windows and one GEMM per group.

Note [Convolution as GEMM]
    A convolution of an input ``(N, G*Cig, *spatial)`` with a weight ``(G*Cog, Cig,
    *kernel)`` sums, for each output position, a window of ``Cig * prod(kernel)`` input
    values against each output channel's weights. An image's windows are one `as_strided`
    view of its zero-padded copy, ``(G, Cig, *kernel, *out_spatial)``: reshaped to ``(G,
    Cig*K, P)`` (im2col, the one large copy) each group is one matrix product with its
    ``(Cog, Cig*K)`` weights, written straight into the image's block of the result.
    Image by image, the columns are still in cache when the product reads them, and the
    images are shared over the pool's threads (OpenBLAS itself on one thread: Note [One
    owner for the cores]). The columns are channel-major, as torch's CPU kernel orders
    them, so each output sums its terms in the order torch's GEMM does. A convolution with more kernel than output positions (the one that
    computes a weight's gradient) reads its windows from a channels-innermost copy
    instead, ``(G, N*P, K*Cig)``, where the copy moves runs of contiguous channels
    rather than a few output positions at a time.

    The transposed convolution is the adjoint: one GEMM per group spreads every input
    position over ``(*kernel, Cog)`` columns, and col2im adds each kernel offset's
    columns into a strided slice of a channels-last buffer (a loop over the few kernel
    offsets, never over positions). Both kernels compute float16/bfloat16 in float32 (opmath)
    and round once into the result, except the transposed one in float16: torch's slow
    kernel rounds each column to float16 and adds them (and the bias) in float16.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...parallel import parallel_for
from ..linalg.blas_threads import matmul_into   # OpenBLAS on one thread: the pool owns the cores


def _compute(array: np.ndarray) -> np.ndarray:
    """float16/bfloat16 widened to float32; other dtypes as they are."""
    if array.dtype.kind == "V" or array.dtype.itemsize == 2:
        return array.astype(np.float32)
    return array


def _channels_last(input: np.ndarray, padding) -> np.ndarray:
    """A zero-padded copy of `input` with its channels innermost: ``(N, *padded, C)``
    (windows then read runs of contiguous channels)."""
    spatial = [size + 2 * p for size, p in zip(input.shape[2:], padding)]
    result = np.zeros([input.shape[0]] + spatial + [input.shape[1]], dtype=input.dtype)
    inner = tuple(slice(p, p + size) for p, size in zip(padding, input.shape[2:]))
    result[(slice(None),) + inner] = np.moveaxis(input, 1, -1)
    return result


def _windows(source: np.ndarray, groups: int, kernel, out_spatial, stride, dilation):
    """The im2col view ``(G, N, *out_spatial, *kernel, Cig)`` of a channels-innermost
    padded input."""
    strides = source.strides
    channel = strides[-1]
    shape = ((groups, source.shape[0]) + tuple(out_spatial) + tuple(kernel)
             + (source.shape[-1] // groups,))
    steps = ((source.shape[-1] // groups) * channel, strides[0])
    steps += tuple(t * s for t, s in zip(stride, strides[1:-1]))
    steps += tuple(d * s for d, s in zip(dilation, strides[1:-1])) + (channel,)
    return as_strided(source, shape, steps, writeable=False)


def _to_channels_first(result: np.ndarray) -> np.ndarray:
    """``(N, *spatial, C)`` seen as ``(N, C, *spatial)``."""
    return np.moveaxis(result, -1, 1)


def convolution_forward(input: np.ndarray, weight: np.ndarray, bias, stride, padding,
                        dilation, groups: int, out: np.ndarray) -> None:
    """Write the convolution of `input` by `weight` into `out` (Note [Convolution as
    GEMM]); `padding` is symmetric zero padding."""
    input, weight = _compute(input), _compute(weight)
    bias = None if bias is None else _compute(bias)
    if math.prod(out.shape[2:]) >= math.prod(weight.shape[2:]):
        direct = out.flags.c_contiguous and out.dtype == weight.dtype
        target = out if direct else np.empty(out.shape, weight.dtype)
        _channels_first_forward(input, weight, bias, stride, padding, dilation, groups, target)
        if not direct:
            out[...] = target
        return
    product = _channels_last_forward(input, weight, stride, padding, dilation, groups,
                                     out.shape[2:])
    if bias is not None:
        product += bias.reshape((-1,) + (1,) * (out.ndim - 2))
    out[...] = product


def _channels_first_forward(input, weight, bias, stride, padding, dilation, groups: int,
                            out: np.ndarray) -> None:
    """Into the row-major ``(N, C_out, *out_spatial)`` array `out`, image by image: an
    image's columns ``(G, Cig*K, P)``, channel-major as torch's own im2col orders them
    (so each sum runs in its order), stay in cache for their product, which lands in
    the image's own block of `out`; the images are shared over the pool's threads."""
    n, kernel = input.shape[0], weight.shape[2:]
    rows = weight.shape[1] * math.prod(kernel)
    weights = weight.reshape(groups, weight.shape[0] // groups, rows)
    blocks = out.reshape(n, groups, weight.shape[0] // groups, math.prod(out.shape[2:]))
    biases = None if bias is None else bias.reshape(groups, -1, 1)

    def images(start: int, stop: int) -> None:
        for i in range(start, stop):
            columns = _image_columns(input[i], groups, kernel, stride, padding, dilation,
                                     out.shape[2:])
            np.matmul(weights, columns, out=blocks[i])
            if biases is not None:
                blocks[i] += biases
    parallel_for(0, n, 1, images)


def _group_products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for one matrix product per group, ``(G, n, k) @ (G, k, p)``, cut over
    the pool's threads when large (by groups, or by rows when there is one group)."""
    out = np.empty((a.shape[0], a.shape[1], b.shape[2]), np.result_type(a, b))
    if a.shape[0] == 1:
        matmul_into(out[0], a[0], b[0])
    else:
        matmul_into(out, a, b)
    return out


def _image_columns(image: np.ndarray, groups: int, kernel, stride, padding, dilation,
                   out_spatial) -> np.ndarray:
    """One image's im2col columns ``(G, Cig*K, P)``: its zero-padded windows, copied."""
    source = _padded(image[None], padding)[0]
    strides = source.strides
    shape = (groups, source.shape[0] // groups) + tuple(kernel) + tuple(out_spatial)
    steps = ((source.shape[0] // groups) * strides[0], strides[0])
    steps += tuple(d * s for d, s in zip(dilation, strides[1:]))
    steps += tuple(t * s for t, s in zip(stride, strides[1:]))
    windows = as_strided(source, shape, steps, writeable=False)
    return windows.reshape(groups, -1, math.prod(out_spatial))


def _padded(input: np.ndarray, padding) -> np.ndarray:
    if not any(padding):
        return input
    result = np.zeros(input.shape[:2] + tuple(s + 2 * p for s, p in
                                              zip(input.shape[2:], padding)), input.dtype)
    result[(Ellipsis,) + tuple(slice(p, p + s) for p, s in
                               zip(padding, input.shape[2:]))] = input
    return result


def _channels_last_forward(input, weight, stride, padding, dilation, groups: int,
                           out_spatial) -> np.ndarray:
    """Columns ``(G, N*P, K*Cig)`` read from a channels-innermost copy: for few output
    positions and a large kernel (a weight's gradient), where channel-major columns
    would be gathered a few elements at a time."""
    n = input.shape[0]
    kernel = weight.shape[2:]
    cog, cig = weight.shape[0] // groups, weight.shape[1]
    source = _channels_last(input, padding)
    columns = _windows(source, groups, kernel, out_spatial, stride, dilation)
    columns = columns.reshape(groups, n * math.prod(out_spatial), math.prod(kernel) * cig)
    weights = weight.reshape((groups, cog, cig, math.prod(kernel)))
    weights = weights.transpose(0, 3, 2, 1).reshape(groups, -1, cog)   # (G, K*Cig, Cog)
    product = _group_products(columns, weights)                        # (G, N*P, Cog)
    product = np.moveaxis(product.reshape((groups, n) + tuple(out_spatial) + (cog,)), 0, -2)
    return _to_channels_first(product.reshape((n,) + tuple(out_spatial) + (groups * cog,)))


def transposed_forward(input: np.ndarray, weight: np.ndarray, bias, stride, padding,
                       dilation, groups: int, out: np.ndarray) -> None:
    """Write the transposed convolution of `input` by `weight` ``(G*Cig, Cog,
    *kernel)`` into `out` (col2im; Note [Convolution as GEMM])."""
    n, channels = input.shape[:2]
    in_spatial, kernel = input.shape[2:], weight.shape[2:]
    cig, cog, k = channels // groups, weight.shape[1], math.prod(kernel)
    source = np.moveaxis(_compute(input), 1, -1).reshape(n * math.prod(in_spatial), groups, cig)
    weights = _compute(weight).reshape(groups, cig, cog, k).transpose(0, 1, 3, 2)
    columns = _group_products(source.transpose(1, 0, 2), weights.reshape(groups, cig, k * cog))
    columns = columns.reshape((groups, n) + tuple(in_spatial) + tuple(kernel) + (cog,))
    # float16 takes torch's slow kernel, which rounds the columns and each sum to float16
    kept = np.float16 if input.dtype == np.float16 else columns.dtype
    columns = columns.astype(kept, copy=False)
    full = [max(p + o + p, (i - 1) * s + d * (kk - 1) + 1) for p, o, i, s, d, kk in
            zip(padding, out.shape[2:], in_spatial, stride, dilation, kernel)]
    buffer = np.zeros([n] + full + [groups, cog], dtype=kept)
    spatial = (slice(None),) * len(in_spatial)
    for offset in itertools.product(*(range(kk) for kk in kernel)):
        target = tuple(slice(o * d, o * d + s * (i - 1) + 1, s)
                       for o, d, s, i in zip(offset, dilation, stride, in_spatial))
        buffer[(slice(None),) + target] += np.moveaxis(
            columns[(slice(None), slice(None)) + spatial + offset], 0, -2)
    crop = tuple(slice(p, p + o) for p, o in zip(padding, out.shape[2:]))
    result = buffer[(slice(None),) + crop].reshape([n] + list(out.shape[2:]) + [groups * cog])
    if bias is not None:
        result = result + (bias.astype(kept) if kept == np.float16 else _compute(bias))
    out[...] = _to_channels_first(result)
