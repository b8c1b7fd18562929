"""Row means and variances in the order of torch's CPU kernels (layer and group norm).

Note [Welford moments in torch's order]
    torch's layer norm and contiguous group norm take each row's mean and biased variance
    with Welford's update in vector lanes (`RowwiseMoments`), and the rounding of that
    order decides the statistics' last bits. torch 2.13's kernel reads 32 bytes at a
    time (8 float32 lanes; 16 float16 / bfloat16 values, widened to two vectors of 8)
    even where it reports AVX-512. A row of N values is read as ``n = N // V`` vectors
    (V values each) in chunks of 16 vectors:

    - in a chunk each lane runs Welford's update: ``delta = x - m1``, ``m1 += delta *
      (1 / (j + 1))``, ``m2 += delta * (x - m1)``, both fused multiply-adds; a widened
      vector's two halves have accumulators of their own;
    - partial moments (count, m1, m2) merge into an accumulating one as ``c = count_add /
      count``, ``delta = m1_add - m1``, ``m1 += c * delta`` and ``m2 = (m2 + m2_add) +
      delta² c count_before`` (the last product fused with that sum);
    - a chunk's halves merge one after the other into the stack's first level, and the
      stack adds chunks as a binary counter adds ones: every two chunks carry up, a
      carried block merging into the level above (which accumulates). At the end the
      levels above the first merge into it, the first accumulating;
    - the values past the last whole vector run Welford's update one by one (``m1 +=
      delta / k``, ``m2 += delta * (x - m1)``, not fused), and the lanes merge into
      that in lane order, as scalars: ``m1 += c * delta`` fused, ``m2 += m2_add +
      delta² c count_before`` with the last product fused with the inner addition.

    The result is ``(m1, m2 / N)``, in float32. The rows are computed together, one
    NumPy step per vector step and per merge. A fused multiply-add of float32 operands
    is exact in float64 and rounded once more to float32 (Note [Reduced-precision layer
    norm]).
"""
from __future__ import annotations

import numpy as np

_VECTOR_BYTES = 32          # what one load of torch's kernel reads
_LANES = 8                  # float32 lanes of that vector
_CHUNK = 16                 # vectors per Welford chunk
_F32 = np.float32


def _fma(a, b, c) -> np.ndarray:
    """``a * b + c`` of float32 operands, rounded once (through float64) to float32."""
    return (np.asarray(a, np.float64) * b + c).astype(_F32)


class _Moments:
    """A count and the (rows, lanes) float32 means and squared deviations."""
    __slots__ = ("count", "m1", "m2")

    def __init__(self, count: int, m1: np.ndarray, m2: np.ndarray) -> None:
        self.count, self.m1, self.m2 = count, m1, m2


def _empty(rows: int, lanes: int) -> _Moments:
    return _Moments(0, np.zeros((rows, lanes), _F32), np.zeros((rows, lanes), _F32))


def _merge_vectors(add: _Moments, acc: _Moments) -> _Moments:
    """`add` merged into `acc` as the vector merge rounds it."""
    total = acc.count + add.count
    c = _F32(0) if total == 0 else _F32(add.count) / _F32(total)
    delta = add.m1 - acc.m1
    m1 = acc.m1 + c * delta
    m2 = _fma(delta * delta * c, _F32(acc.count), acc.m2 + add.m2)
    return _Moments(total, m1, m2)


def _merge_scalars(add: _Moments, acc: _Moments) -> _Moments:
    """`add` merged into `acc` as the scalar merge rounds it."""
    total = acc.count + add.count
    c = _F32(0) if total == 0 else _F32(add.count) / _F32(total)
    delta = add.m1 - acc.m1
    m1 = _fma(c, delta, acc.m1)
    m2 = acc.m2 + _fma(delta * delta * c, _F32(acc.count), add.m2)
    return _Moments(total, m1, m2)


def _chunk(vectors: np.ndarray) -> list:
    """Welford's update over the (rows, steps, V) vectors of a chunk: the moments of
    each half of the vector (first values first)."""
    m1 = np.zeros((vectors.shape[0], vectors.shape[2]), _F32)
    m2 = np.zeros_like(m1)
    for j in range(vectors.shape[1]):
        x = vectors[:, j]
        delta = x - m1
        m1 = _fma(delta, _F32(1) / _F32(j + 1), m1)
        m2 = _fma(delta, x - m1, m2)
    steps = vectors.shape[1]
    return [_Moments(steps, m1[:, h:h + _LANES], m2[:, h:h + _LANES])
            for h in range(0, vectors.shape[2], _LANES)]


def _vector_moments(body: np.ndarray) -> _Moments:
    """The lanes' moments over the (rows, n, V) whole vectors, through the stack."""
    rows, vectors, _ = body.shape
    chunks = -(-vectors // _CHUNK)
    depth = 1 if chunks <= 2 else (chunks - 1).bit_length()
    stack = [_empty(rows, _LANES) for _ in range(depth)]
    for i in range(chunks):
        for half in _chunk(body[:, i * _CHUNK:(i + 1) * _CHUNK]):
            stack[0] = _merge_vectors(half, stack[0])
        mask, level = i + 1, 1
        while level < depth and mask & 1 == 0:
            stack[level] = _merge_vectors(stack[level - 1], stack[level])
            stack[level - 1] = _empty(rows, _LANES)
            mask >>= 1
            level += 1
    for level in range(1, depth):
        stack[0] = _merge_vectors(stack[level], stack[0])
    return stack[0]


def row_moments(rows: np.ndarray) -> tuple:
    """The float32 mean and biased variance of each row of the (R, N) float16,
    bfloat16 or float32 `rows` (N > 0), in torch's order (Note [Welford moments in
    torch's order])."""
    count, length = rows.shape
    width = _VECTOR_BYTES // rows.dtype.itemsize
    vectors = length // width
    values = rows.astype(_F32, copy=False)
    fused_tail = rows.dtype == np.float16
    with np.errstate(all="ignore"):
        m1, m2 = np.zeros(count, _F32), np.zeros(count, _F32)
        for k, j in enumerate(range(vectors * width, length), start=1):
            x = values[:, j]
            delta = x - m1
            m1 = m1 + delta / _F32(k)
            m2 = _fma(delta, x - m1, m2) if fused_tail else m2 + delta * (x - m1)
        tail = _Moments(length - vectors * width, m1[:, None], m2[:, None])
        lanes = _vector_moments(values[:, :vectors * width].reshape(count, vectors, width)) \
            if vectors else _empty(count, _LANES)
        per_lane = vectors * width // _LANES
        for lane in range(_LANES):
            tail = _merge_scalars(_Moments(per_lane, lanes.m1[:, lane:lane + 1],
                                           lanes.m2[:, lane:lane + 1]), tail)
        return tail.m1[:, 0], tail.m2[:, 0] / _F32(length)
