"""float16 / bfloat16 layer normalization as torch's CPU kernels round it.

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
"""
from __future__ import annotations

import numpy as np

from ...parallel import get_num_threads


def fused(a, b, c) -> np.ndarray:
    """``a * b + c`` of float32 operands, rounded once to float32."""
    return (np.asarray(a, np.float64) * b + c).astype(np.float32)


def scale_shift(rows: np.ndarray, rstd: np.ndarray, mean: np.ndarray, weight, bias):
    """The float32 output rows: ``(x * rstd + shift) * weight + bias``, each step fused
    (`rstd` and `mean` per row, `weight` and `bias` per column or None)."""
    shift = (-rstd * mean).astype(np.float32)
    normalized = fused(rows.astype(np.float32), rstd[:, None], shift[:, None])
    if weight is None and bias is None:
        return normalized
    ones = np.float32(1) if weight is None else weight.astype(np.float32)
    return fused(normalized, ones, np.float32(0) if bias is None else bias.astype(np.float32))


def _chunks(rows: int) -> list:
    """The (start, stop) rows each thread takes, as ``parallel_for`` with grain 1."""
    threads = get_num_threads()
    if rows < 2 or threads == 1:
        return [(0, rows)]
    size = -(-rows // min(threads, rows))
    return [(start, min(rows, start + size)) for start in range(0, rows, size)]


def parameter_gradients(grads: np.ndarray, x: np.ndarray, mean: np.ndarray,
                        rstd: np.ndarray, want_weight: bool, want_bias: bool) -> tuple:
    """The weight's and bias's float32 gradients over the (rows, length) `grads` and
    `x` (Note [Reduced-precision layer norm]); None for those not wanted. The chunks
    advance together, one row of each per step."""
    stored = x.dtype
    rows, length = x.shape
    scale = rstd.astype(np.float32)
    shift = (-scale * mean.astype(np.float32)).astype(np.float32)
    chunks = _chunks(rows)
    weight_sums = np.zeros((len(chunks), length), np.float32)
    bias_sums = np.zeros((len(chunks), length), np.float32)
    for step in range(chunks[0][1] - chunks[0][0]):
        live = [k for k, (start, stop) in enumerate(chunks) if start + step < stop]
        at = [chunks[k][0] + step for k in live]
        g = grads[at].astype(np.float32)
        if want_weight:
            normalized = fused(scale[at, None], x[at].astype(np.float32), shift[at, None])
            weight_sums[live] = fused(g, normalized, weight_sums[live]).astype(stored)
        if want_bias:
            bias_sums[live] = (bias_sums[live] + g).astype(stored)
    return (_thread_total(weight_sums) if want_weight else None,
            _thread_total(bias_sums) if want_bias else None)


def _thread_total(sums: np.ndarray) -> np.ndarray:
    """The threads' buffers added in float32, one after the other."""
    return np.add.accumulate(sums, axis=0)[-1]

