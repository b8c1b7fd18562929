"""float16 / bfloat16 layer and group normalization as torch's CPU kernels round them.

Note [Reduced-precision layer norm]
    torch normalizes float16 and bfloat16 rows in float32, but rounds in places of its
    own, and those places decide the last bits:
    - the output is ``(x * rstd + shift) * weight + bias`` with ``shift = -rstd *
      mean``, both steps fused multiply-adds in float32 (torch's compiled loop
      contracts them), rounded once to the input's dtype;
    - the weight's and bias's gradients are summed over the rows in a buffer of the
      input's dtype, one per thread: each row adds ``grad * (rstd * x + shift)`` (two
      fused multiply-adds) or ``grad`` in float32 and rounds the running sum back to
      that dtype; the threads take contiguous chunks of rows as ``parallel_for``
      shares them (the thread count matters), and their buffers are added in float32
      at the end (rounded to the parameters' dtype).
    A fused multiply-add is computed exactly in float64 and rounded to float32.

Note [Reduced-precision group norm gradients]
    torch's group norm backward first sums, per sample and channel, ``ds = Σ grad * x``
    and ``db = Σ grad`` in float32: a contiguous input 16 values at a time into 8
    lanes (torch 2.13's kernel reads 32 bytes at a time, even on an AVX-512 CPU;
    ``ds`` as fused multiply-adds, the two halves of a read one after the other), the
    lanes added in order, then the values past the last whole read one by one; a
    channels-last input position after position. The weight's gradient then adds
    ``(ds - db * mean) * rstd`` over the samples in order, both steps fused, and
    the bias's adds ``db``; each is rounded once to the parameters' dtype.
"""
from __future__ import annotations

import numpy as np

from ...parallel import chunks

_BLOCK = 65536           # terms computed at a time: cache-sized
_LANES = 8               # float32 lanes of the 32-byte vectors torch's kernel uses
_READ = 2 * _LANES       # float16 / bfloat16 values one vector load reads


def fused(a, b, c) -> np.ndarray:
    """``a * b + c`` of float32 operands, torch's fused step nearly: the product is exact
    in float64, the sum is rounded there and again to float32 as it is stored. Where the
    float64 sum lands on a float32 tie the two roundings can differ from torch's one
    (rare); `fma_float32` mends those, at over twice this cost on the many small steps
    of the statistics, so these kernels do without."""
    product = np.multiply(a, b, dtype=np.float64)
    if np.ndim(c) > product.ndim or any(n > m for n, m in zip(
            np.shape(c)[::-1], product.shape[::-1])):        # c widens the result
        return np.add(product, c).astype(np.float32)
    return np.add(product, c, out=np.empty(product.shape, np.float32), casting="unsafe")


def scale_shift(rows: np.ndarray, rstd: np.ndarray, mean: np.ndarray, weight, bias):
    """The float32 output rows: ``(x * rstd + shift) * weight + bias``, each step fused
    (`rstd` and `mean` per row, `weight` and `bias` per column or None)."""
    shift = (-rstd * mean).astype(np.float32)
    normalized = fused(rows.astype(np.float32), rstd[:, None], shift[:, None])
    if weight is None and bias is None:
        return normalized
    ones = np.float32(1) if weight is None else weight.astype(np.float32)
    return fused(normalized, ones, np.float32(0) if bias is None else bias.astype(np.float32))


def thread_chunks(rows: int) -> list:
    """The (start, stop) rows each thread takes, as ``parallel_for`` with grain 1."""
    return chunks(0, rows, 1) or [(0, rows)]


def parameter_gradients(grads: np.ndarray, x: np.ndarray, mean: np.ndarray,
                        rstd: np.ndarray, want_weight: bool, want_bias: bool) -> tuple:
    """The weight's and bias's float32 gradients over the (rows, length) `grads` and
    `x` (Note [Reduced-precision layer norm]); None for those not wanted. The chunks
    advance together, one row of each per step (a chunk shorter than the first adds
    zeros at its end, which change no sum); the rows' terms are computed a block of
    steps at a time, both sums' terms side by side in float64 (a product of two float32
    values is exact there), so that a step is one addition and its two roundings."""
    stored, (rows, length) = x.dtype, x.shape
    scale = rstd.astype(np.float32)
    shift = (-scale * mean.astype(np.float32)).astype(np.float32)
    chunks = thread_chunks(rows)
    steps = chunks[0][1]
    sums = np.zeros((2, len(chunks), length), stored)       # weight's, bias's
    wide = np.empty(sums.shape, np.float32)
    direct = stored != np.float16
    block = max(1, _BLOCK // (len(chunks) * length))
    for begin in range(0, steps, block):
        # (step, chunk) -> row; the rows past a short chunk's end read as zeros
        at = np.arange(begin, min(begin + block, steps))[:, None] + steps * np.arange(
            len(chunks))
        inside = (at < rows)[..., None]
        at = np.minimum(at, rows - 1)
        terms = np.empty((at.shape[0], 2, len(chunks), length))
        g = np.where(inside, grads[at].astype(np.float32), np.float32(0))
        terms[:, 1] = g
        if want_weight:
            normalized = fused(scale[at, None], x[at].astype(np.float32), shift[at, None])
            np.multiply(terms[:, 1], normalized, out=terms[:, 0])
        for term in terms:
            # the sum rounded to float32, then to the stored dtype (ml_dtypes' bfloat16
            # is made from a float64 through float32: one call does both)
            if direct:
                np.add(term, sums, out=sums, casting="unsafe")
            else:
                np.add(term, sums, out=wide, casting="unsafe")
                np.copyto(sums, wide, casting="unsafe")
    return (_thread_total(sums[0]) if want_weight else None,
            _thread_total(sums[1]) if want_bias else None)


def _thread_total(sums: np.ndarray) -> np.ndarray:
    """The threads' buffers added in float32, one after the other."""
    return np.add.accumulate(sums.astype(np.float32), axis=0)[-1]


def _channel_sums(grads: np.ndarray, x: np.ndarray, channels_last: bool) -> tuple:
    """``Σ grad * x`` and ``Σ grad`` over each (sample, channel) row of the float32
    (rows, positions) arrays, in torch's order (Note [Reduced-precision group norm
    gradients])."""
    rows, length = x.shape
    ds, db = np.zeros(rows, np.float32), np.zeros(rows, np.float32)
    whole = 0 if channels_last else length // _READ * _READ
    if whole:
        lanes_ds = np.zeros((rows, _LANES), np.float32)
        lanes_db = np.zeros((rows, _LANES), np.float32)
        for start in range(0, whole, _LANES):
            part = slice(start, start + _LANES)
            lanes_ds = fused(grads[:, part], x[:, part], lanes_ds)
            lanes_db = (lanes_db + grads[:, part]).astype(np.float32)
        for lane in range(_LANES):
            ds = (ds + lanes_ds[:, lane]).astype(np.float32)
            db = (db + lanes_db[:, lane]).astype(np.float32)
    for j in range(whole, length):
        ds = fused(grads[:, j], x[:, j], ds)
        db = (db + grads[:, j]).astype(np.float32)
    return ds, db


def group_parameter_gradients(grads, x, mean, rstd, group: int, channels_last: bool) -> tuple:
    """The float32 gradients of group norm's weight and bias from the (N, C, HxW)
    float16 / bfloat16 `grads` and `x` and the (N, group) statistics (Note
    [Reduced-precision group norm gradients])."""
    samples, channels, positions = x.shape
    ds, db = _channel_sums(grads.reshape(-1, positions).astype(np.float32),
                           x.reshape(-1, positions).astype(np.float32), channels_last)
    ds, db = ds.reshape(samples, channels), db.reshape(samples, channels)
    per_group = channels // group
    mean = np.repeat(mean.reshape(samples, group).astype(np.float32), per_group, axis=1)
    rstd = np.repeat(rstd.reshape(samples, group).astype(np.float32), per_group, axis=1)
    weight, bias = np.zeros(channels, np.float32), np.zeros(channels, np.float32)
    for n in range(samples):
        weight = fused(fused(-db[n], mean[n], ds[n]), rstd[n], weight)
        bias = (bias + db[n]).astype(np.float32)
    return weight, bias
