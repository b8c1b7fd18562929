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

from .normalization_reduced import fused

_VECTOR_BYTES = 32          # what one load of torch's kernel reads
_LANES = 8                  # float32 lanes of that vector
_CHUNK = 16                 # vectors per Welford chunk
_F32 = np.float32


class _Moments:
    """Counts (per node) and the (rows, nodes, lanes) float32 means and squared
    deviations of partial moments."""
    __slots__ = ("count", "m1", "m2")

    def __init__(self, count: np.ndarray, m1: np.ndarray, m2: np.ndarray) -> None:
        self.count, self.m1, self.m2 = count, m1, m2

    def take(self, index) -> "_Moments":
        return _Moments(self.count[index], self.m1[:, index], self.m2[:, index])


def _merge_vectors(add: _Moments, acc: _Moments) -> _Moments:
    """`add` merged into `acc` (node by node) as the vector merge rounds it."""
    total = acc.count + add.count
    c = (add.count.astype(_F32) / np.maximum(total, 1).astype(_F32))[:, None]
    delta = add.m1 - acc.m1
    m1 = acc.m1 + c * delta
    m2 = fused(delta * delta * c, acc.count.astype(_F32)[:, None], acc.m2 + add.m2)
    return _Moments(total, m1, m2)


def _merge_scalars(add: _Moments, acc: _Moments) -> _Moments:
    """`add` merged into `acc` as the scalar merge rounds it."""
    total = acc.count + add.count
    c = (add.count.astype(_F32) / np.maximum(total, 1).astype(_F32))[:, None]
    delta = add.m1 - acc.m1
    m1 = fused(c, delta, acc.m1)
    m2 = acc.m2 + fused(delta * delta * c, acc.count.astype(_F32)[:, None], add.m2)
    return _Moments(total, m1, m2)


def _welford(vectors: np.ndarray) -> tuple:
    """Welford's update over axis 2 of (rows, chunks, steps, V) values."""
    steps = np.ascontiguousarray(np.moveaxis(vectors, 2, 0))   # each step contiguous
    m1 = np.zeros(steps.shape[1:], _F32)
    m2 = np.zeros_like(m1)
    delta, spread = np.empty_like(m1), np.empty_like(m1)
    for j, x in enumerate(steps):
        np.subtract(x, m1, out=delta)
        m1 = fused(delta, _F32(1) / _F32(j + 1), m1)
        np.subtract(x, m1, out=spread)
        m2 = fused(delta, spread, m2)
    return m1, m2


def _chunk_halves(body: np.ndarray) -> list:
    """Each chunk's moments over the (rows, n, V) vectors, one _Moments over the chunks
    per half of a vector (first values first)."""
    rows, vectors, width = body.shape
    whole = vectors // _CHUNK
    parts, counts = [], [_CHUNK] * whole
    if whole:
        parts.append(_welford(body[:, :whole * _CHUNK].reshape(rows, whole, _CHUNK, width)))
    if vectors % _CHUNK:
        parts.append(_welford(body[:, whole * _CHUNK:, None].swapaxes(1, 2)))
        counts.append(vectors % _CHUNK)
    m1 = np.concatenate([p[0] for p in parts], axis=1)
    m2 = np.concatenate([p[1] for p in parts], axis=1)
    return [_Moments(np.array(counts), m1[..., h:h + _LANES], m2[..., h:h + _LANES])
            for h in range(0, width, _LANES)]


def _in_sequence(halves: list, index) -> _Moments:
    """The halves of the chunks `index` picks merged one after the other (per node)."""
    first = halves[0].take(index[0])
    acc = first
    for position, chunk in enumerate(index):
        for h, half in enumerate(halves):
            if position or h:
                acc = _merge_vectors(half.take(chunk), acc)
    return acc


def _vector_moments(body: np.ndarray) -> _Moments:
    """The lanes' moments over the (rows, n, V) whole vectors: the stack's result,
    computed as its tree (the first level: two chunks' halves in sequence; above, the
    earlier block accumulating the later), then the blocks the stack still holds
    merged into its first level, the latest accumulating."""
    halves = _chunk_halves(body)
    chunks = halves[0].count.size
    depth = 1 if chunks <= 2 else (chunks - 1).bit_length()
    result = None
    if chunks % 2 or chunks == 1:
        result = _in_sequence(halves, [slice(chunks - 1, chunks)])
    if chunks < 2:
        return result
    pairs = chunks // 2
    level = _in_sequence(halves, [slice(0, 2 * pairs, 2), slice(1, 2 * pairs, 2)])
    blocks = {}
    for j in range(1, depth):
        nodes = level.count.size
        if j == depth - 1:
            if nodes == 2:                 # the top level holds two blocks: merged
                level = _merge_vectors(level.take(slice(1, 2)), level.take(slice(0, 1)))
            blocks[j] = level.take(slice(0, 1))
            break
        if (chunks >> j) & 1:
            blocks[j] = level.take(slice(nodes - 1, nodes))
        level = _merge_vectors(level.take(slice(1, nodes - nodes % 2, 2)),
                               level.take(slice(0, nodes - nodes % 2, 2)))
    if depth == 1:
        return level
    for j in sorted(blocks):
        result = blocks[j] if result is None else _merge_vectors(blocks[j], result)
    return result


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
            m2 = fused(delta, x - m1, m2) if fused_tail else m2 + delta * (x - m1)
        tail = _Moments(np.array([length - vectors * width]), m1[:, None], m2[:, None])
        if vectors:
            lanes = _vector_moments(values[:, :vectors * width].reshape(count, vectors, width))
            for lane in range(_LANES):
                lane_moments = _Moments(np.array([vectors * width // _LANES]),
                                        lanes.m1[:, :, lane], lanes.m2[:, :, lane])
                tail = _merge_scalars(lane_moments, tail)
        return tail.m1[:, 0], tail.m2[:, 0] / _F32(length)
