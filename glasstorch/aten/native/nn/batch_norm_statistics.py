"""Batch statistics of float16 / bfloat16 inputs as torch's CPU kernel sums them.

Note [Reduced-precision batch statistics]
    torch sums a float16 / bfloat16 channel in float32, in the order of its vector
    loop: each sample's elements are read 32 at a time, widened into two rows of 16
    that are added into 16 float32 lanes, one after the other; the elements past the
    last whole 32 are added into a scalar sum. At the end the lanes are added in order
    into that scalar sum. The mean is that sum over the count; the squared deviations
    from that (float32) mean are summed the same way. Then:
    - float16, and bfloat16 with float32 parameters, keep both sums in float32: the
      variance is ``squares / count`` and the running statistics move in float32
      (``0.1 * batch + 0.9 * running`` for momentum 0.1);
    - bfloat16 with bfloat16 parameters keeps the mean and the squared deviations in
      bfloat16 and divides them in bfloat16 arithmetic (each operation rounded to
      bfloat16, the count itself too); the running mean moves as
      ``m * mean + (1 - m) * running`` in bfloat16 arithmetic, the running variance as
      ``m * unbiased + bf16((1 - m) * running)`` with one float32 rounding, ``m`` the
      momentum rounded to bfloat16.
    Either way the inverse standard deviation is ``1 / sqrt(variance + eps)`` computed
    in float64 from the float32 variance. (The float32 statistics of float16 and of
    float32 parameters are summed in an order not matched to the last bit yet: a
    float16 result in ten thousand may round the other way.)
"""
from __future__ import annotations

import numpy as np

_VECTOR = 32         # reduced-precision elements per vector load
_LANES = 16          # float32 lanes of the accumulator


def _in_order(blocks: np.ndarray) -> np.ndarray:
    """Sum over the first axis, one block after the other (NumPy adds an outer axis
    in order)."""
    if blocks.shape[0] == 0:
        return np.zeros(blocks.shape[1:], np.float32)
    return np.add.reduce(blocks, axis=0, dtype=np.float32)


def _vector_loop_sum(cube: np.ndarray) -> np.ndarray:
    """Per channel of a float32 ``(N, C, L)`` block, the sum in torch's vector-loop
    order (Note [Reduced-precision batch statistics])."""
    n, c, length = cube.shape
    whole = length - length % _VECTOR
    rows = cube[:, :, :whole].reshape(n, c, -1, _LANES).transpose(0, 2, 1, 3)
    lanes = _in_order(rows.reshape(-1, c, _LANES))
    rest = cube[:, :, whole:].transpose(0, 2, 1).reshape(-1, c)
    return _in_order(rest) + _in_order(np.ascontiguousarray(lanes.T))


def inverse_std(variance: np.ndarray, eps: float) -> np.ndarray:
    """``1 / sqrt(variance + eps)`` computed in float64 and rounded once to the
    variance's dtype, as torch's statistics kernel computes it."""
    exact = 1 / np.sqrt(variance.astype(np.float64) + eps)
    return exact.astype(variance.dtype)


def update_running(running: np.ndarray | None, batch: np.ndarray, momentum: float) -> None:
    """``running = (1 - momentum) * running + momentum * batch``, in place, in the
    batch statistics' dtype."""
    if running is not None:
        kind = batch.dtype.type
        running[...] = kind(momentum) * batch + kind(1 - momentum) * running.astype(batch.dtype)


def _in_bfloat16_arithmetic(input: np.ndarray, mean, squares, count: int, momentum: float,
                            running_mean, running_var) -> tuple:
    """bfloat16 statistics kept in bfloat16 (Note [Reduced-precision batch statistics])."""
    def rounded(values):
        return np.asarray(values, np.float32).astype(input.dtype).astype(np.float32)
    mean, squares = rounded(mean), rounded(squares)
    with np.errstate(all="ignore"):
        variance = rounded(squares / rounded(count))
        unbiased = rounded(squares / rounded(count - 1))
    step = rounded(momentum)
    keep = rounded(1 - step)
    if running_mean is not None:
        running_mean[...] = rounded(step * mean) + rounded(keep * rounded(running_mean))
    if running_var is not None:
        kept = rounded(keep * rounded(running_var)).astype(np.float64)
        running_var[...] = (step.astype(np.float64) * unbiased + kept).astype(np.float32)
    return mean, variance


def reduced_training_statistics(input: np.ndarray, eps: float, momentum: float, running_mean,
                                running_var, keep_dtype: bool) -> tuple:
    """The mean and inverse standard deviation (float32) per channel of a float16 /
    bfloat16 ``(N, C, *)`` input in training, the running statistics updated in place
    (Note [Reduced-precision batch statistics]); `keep_dtype`: the parameters share
    the input's dtype."""
    n, c = input.shape[0], input.shape[1]
    cube = np.ascontiguousarray(input.reshape(n, c, -1), dtype=np.float32)
    count = cube.shape[0] * cube.shape[2]
    with np.errstate(all="ignore"):
        mean = _vector_loop_sum(cube) / np.float32(count)
        deviations = cube - mean[None, :, None]
        squares = _vector_loop_sum(deviations * deviations)
        if keep_dtype and input.dtype.name == "bfloat16":
            mean, variance = _in_bfloat16_arithmetic(input, mean, squares, count, momentum,
                                                     running_mean, running_var)
        else:
            variance = squares / np.float32(count)
            update_running(running_mean, mean, momentum)
            update_running(running_var, squares / np.float32(count - 1), momentum)
        return mean, inverse_std(variance, eps)
