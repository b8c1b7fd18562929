"""Batch normalization's kernels over blocks of channels: the float32 / float64 training
statistics, the affine map, and the backward's sums and input gradient.

Note [Batch norm in channel blocks]
    The input is read as ``(N, C, L)`` (a view for contiguous and channels-last
    layouts alike) and cut into blocks of whole channels of about `BLOCK` elements;
    `parallel_for` shares the blocks among the pool's threads (NumPy releases the GIL).
    A block is gathered into contiguous rows, one per channel (NumPy's loops then run
    along whole rows), and done whole while it is in the cache: its statistics and then
    its normalization (forward), or its two sums and then its input gradient
    (backward), written back once.

    The arithmetic is that of torch's contiguous CPU kernels. A channel's sum, then the
    sum of its squared deviations from the mean, accumulate in float64 (torch's
    accumulation type for float32), each deviation and square rounded to the input's
    dtype; the mean is the float64 sum over the count, rounded once. (NumPy's pairwise
    float64 sums differ from torch's sequential ones far below float32's last bit; torch
    sums channels-last and ``(N, C)`` inputs in float32 per thread instead, so those may
    differ from it in the last bit.) The affine map ``y = x * a + b``, with
    ``a = invstd * weight`` and ``b = bias - mean * a``, is made of fused multiply-adds in
    float32 (emulated in float64, where the product is exact), as torch's compiled
    kernel contracts them; float64 rounds twice.

    The backward in training is torch's formula: with the float64 sums
    ``s = sum(g)`` and ``dotp = sum((x - mean) * g)``, ``k = dotp * invstd² / count`` and
    ``grad_input = (g - s / count - (x - mean) * k) * invstd * weight``; out of
    training ``grad_input = g * invstd * weight``. ``grad_weight = dotp * invstd`` and
    ``grad_bias = s``.
"""
from __future__ import annotations

import numpy as np

from ...parallel import GRAIN_SIZE, parallel_for
from .batch_norm_statistics import inverse_std

BLOCK = 65536        # elements per block of channels: its temporaries fit a core's L2


def as_cube(array: np.ndarray, written: bool = False) -> np.ndarray:
    """``(N, C, *)`` as ``(N, C, L)``: a view when `written` (the contiguous and
    channels-last layouts of results always allow one)."""
    shape = (array.shape[0], array.shape[1], -1)
    return array.reshape(shape, copy=False if written else None)


def in_channel_blocks(cube: np.ndarray, body) -> None:
    """``body(first, last)`` over blocks of whole channels of `cube`, shared among the
    pool's threads (Note [Batch norm in channel blocks])."""
    per_channel = max(cube.shape[0] * cube.shape[2], 1)
    per_block = max(1, BLOCK // per_channel)

    def chunk(start: int, stop: int) -> None:
        for first in range(start, stop, per_block):
            body(first, min(first + per_block, stop))
    parallel_for(0, cube.shape[1], max(1, GRAIN_SIZE // per_channel), chunk)


def _parameter(tensor, fill: float, channels: int, dtype: np.dtype) -> np.ndarray:
    if tensor is None:
        return np.full(channels, fill, dtype)
    return tensor.reshape(-1).astype(dtype, copy=False)


def _rows(cube: np.ndarray, first: int, last: int, dtype=None) -> np.ndarray:
    """Channels ``first:last`` of `cube` as contiguous rows ``(c, N * L)``, in `dtype`:
    always a copy, which the kernels may overwrite (a batch of one is already rows)."""
    part = cube[:, first:last].transpose(1, 0, 2)
    return part.astype(dtype or cube.dtype, order="C").reshape(last - first, -1)


def _write_rows(rows: np.ndarray, out: np.ndarray, first: int, last: int) -> None:
    """`rows` ``(c, N * L)`` into channels ``first:last`` of the ``(N, C, L)`` `out`."""
    cube = rows.reshape(last - first, out.shape[0], out.shape[2]).transpose(1, 0, 2)
    np.copyto(out[:, first:last], cube, casting="unsafe")


def affine(wide: np.ndarray, mean, invstd, weight, bias, dtype: np.dtype) -> np.ndarray:
    """``x * a + b`` per channel of a block's rows, ``a = invstd * weight``, ``b = bias -
    mean * a`` (Note [Batch norm in channel blocks]), to be written to `dtype`. `wide` is
    the block in float64, a copy this overwrites: for float32 statistics, where products
    of float32 numbers are exact, ``x * a + b`` rounded once to float32 is a fused
    multiply-add (float64 rounds twice)."""
    alpha = invstd * weight
    if mean.dtype == np.float32:
        beta = ((-mean).astype(np.float64) * alpha + bias).astype(np.float32)
    else:
        beta = bias - mean * alpha
    wide *= alpha[:, None]
    wide += beta[:, None]
    if mean.dtype == np.float32 and dtype != np.float32:   # float16 / bfloat16
        return wide.astype(np.float32)                     # rounded to float32 first
    return wide


def normalize(cube: np.ndarray, out: np.ndarray, mean: np.ndarray, invstd: np.ndarray,
              weight, bias) -> None:
    """``out = (cube - mean) * invstd * weight + bias`` per channel, computed as
    `affine` does, block by block; `mean` and `invstd` in the compute dtype."""
    compute = mean.dtype
    channels = cube.shape[1]
    weight = _parameter(weight, 1, channels, compute)
    bias = _parameter(bias, 0, channels, compute)

    def block(first: int, last: int) -> None:
        wide = _rows(cube, first, last, np.float64)
        _write_rows(affine(wide, mean[first:last], invstd[first:last], weight[first:last],
                           bias[first:last], out.dtype), out, first, last)
    in_channel_blocks(cube, block)


def training_forward(cube: np.ndarray, out: np.ndarray, weight, bias, eps: float) -> tuple:
    """Normalize a float32 / float64 ``(N, C, L)`` batch with its own statistics into
    `out`; returns the mean, the sum of squared deviations and the inverse standard
    deviation per channel (Note [Batch norm in channel blocks])."""
    dtype = cube.dtype
    channels, count = cube.shape[1], cube.shape[0] * cube.shape[2]
    mean, squares, invstd = (np.empty(channels, dtype) for _ in range(3))
    weight = _parameter(weight, 1, channels, dtype)
    bias = _parameter(bias, 0, channels, dtype)

    def block(first: int, last: int) -> None:
        rows = _rows(cube, first, last)
        wide = rows.astype(np.float64)
        with np.errstate(all="ignore"):
            mean[first:last] = np.add.reduce(wide, axis=1) / count
            deviations = rows - mean[first:last, None]
            np.multiply(deviations, deviations, out=deviations)
            squares[first:last] = np.add.reduce(deviations, axis=1, dtype=np.float64)
            invstd[first:last] = inverse_std(squares[first:last] / dtype.type(count), eps)
        _write_rows(affine(wide, mean[first:last], invstd[first:last], weight[first:last],
                           bias[first:last], out.dtype), out, first, last)
    in_channel_blocks(cube, block)
    return mean, squares, invstd


def update_running_statistics(running_mean, running_var, mean: np.ndarray,
                              squares: np.ndarray, count: int, momentum: float) -> None:
    """torch's update of the running statistics, in place: ``m * batch + (1 - m) *
    running`` in the statistics' dtype, the variance's (unbiased) sum taken in float64."""
    kind = mean.dtype.type
    step = kind(momentum)
    keep = kind(1) - step
    if running_mean is not None:
        running_mean[...] = step * mean + keep * running_mean
    if running_var is not None:
        with np.errstate(all="ignore"):
            unbiased = squares / kind(count - 1)
        kept = (keep * running_var).astype(np.float64)
        running_var[...] = np.float64(step) * unbiased.astype(np.float64) + kept


def backward(grad: np.ndarray, cube: np.ndarray, grad_input, mean: np.ndarray,
             invstd: np.ndarray, weight, train: bool) -> tuple:
    """The input's gradient of an ``(N, C, L)`` batch into `grad_input` (unless None),
    and per channel the float64 sums of the gradient and of ``(x - mean) * grad``
    (Note [Batch norm in channel blocks]); `mean` and `invstd` in the compute dtype."""
    compute = mean.dtype
    channels, count = cube.shape[1], cube.shape[0] * cube.shape[2]
    sums, dots = np.empty(channels), np.empty(channels)
    weight = _parameter(weight, 1, channels, compute)

    def block(first: int, last: int) -> None:
        g = _rows(grad, first, last, compute)
        centered = _rows(cube, first, last, compute)
        centered -= mean[first:last, None]
        sums[first:last] = np.add.reduce(g, axis=1, dtype=np.float64)
        dots[first:last] = np.add.reduce(centered * g, axis=1, dtype=np.float64)
        if grad_input is not None:
            _input_gradient(g, centered, sums[first:last], dots[first:last],
                            invstd[first:last], weight[first:last], count if train else None)
            _write_rows(g, grad_input, first, last)
    with np.errstate(all="ignore"):
        in_channel_blocks(cube, block)
    return sums, dots


def _input_gradient(grad, centered, sums, dots, invstd, weight, count) -> None:
    """A block's input gradient, in place of its rows `grad`, in torch's order of
    operations: in training (`count` given) ``(g - s / count - (x - mean) * k) * invstd
    * weight`` with ``k = dotp * invstd * invstd / count``; else ``g * invstd * weight``.
    `centered` is overwritten."""
    if count is not None:
        k = dots.astype(grad.dtype) * invstd
        k *= invstd
        k /= grad.dtype.type(count)
        centered *= k[:, None]
        grad -= (sums / count).astype(grad.dtype)[:, None]
        grad -= centered
    grad *= invstd[:, None]
    grad *= weight[:, None]
