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
      delta / k``; ``m2 += delta * (x - m1)``, fused for float16 alone), and the lanes
      merge into that in lane order, as scalars: ``m1 += c * delta`` fused, ``m2 +=
      m2_add + delta² c count_before`` with the last product fused with the inner
      addition.

    Which steps are fused was measured against torch. The result is ``(m1, m2 / N)``,
    in float32. Here the rows and the chunks are computed together, and the stack as
    the tree its merges make, one NumPy step per tree level. A fused multiply-add of
    float32 operands is exact in float64 and rounded once more to float32 (Note
    [Reduced-precision layer norm]).
"""
from __future__ import annotations

import numpy as np

from .normalization_reduced import fused, thread_chunks

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
    acc = halves[0].take(index[0])
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


# Note [Group norm statistics, channels last]
#     A channels-last float16 / bfloat16 group norm sums, per (sample, group), the values
#     and their squares in float32 and takes ``mean = sum * s``, ``var = max(sumsq * s -
#     mean², 0)`` (s = 1 / count; the product with s fused with the subtraction). The
#     sums' order depends on the plane's size:
#     - under 1024 positions, position after position into 8 lanes: the group's channels
#       16 at a time (lanes gather channels j and j + 8: ``acc += x0 + x1``, ``acc2 +=
#       x0² + x1²``, the first square fused), a last partial read zero-padded (x0 alone
#       when it fits one vector); the lanes then add in halves (0-3 with 4-7, then
#       pairs, then the last two);
#     - from 1024 positions, each thread sums its contiguous run of (sample, position)
#       pairs per channel (the square fused), and the group's total adds channel after
#       channel, each channel's threads in order.
#     A float16 / bfloat16 value's square is exact in float32, so a fused square-add is
#     the sum of the square: the sums run as NumPy's sequential accumulate.
_PLANE_THRESHOLD = 1024


def _halving_sum(lanes: np.ndarray) -> np.ndarray:
    """The last axis (8 lanes) added in halves, as a vector's horizontal sum."""
    width = lanes.shape[-1]
    while width > 1:
        width //= 2
        lanes = lanes[..., :width] + lanes[..., width:2 * width]
    return lanes[..., 0]


def _in_turn(terms: np.ndarray, axis: int) -> np.ndarray:
    """The float32 sum of `terms` along `axis`, one after the other from zero."""
    if terms.shape[axis] == 0:
        return np.zeros(np.delete(terms.shape, axis), _F32)
    return np.take(np.add.accumulate(terms, axis=axis), -1, axis=axis)


def _small_plane_sums(values: np.ndarray, group: int) -> tuple:
    """Sums and sums of squares of (N, positions, C) float32 values per (N, group)."""
    samples, positions, channels = values.shape
    per_group, read = channels // group, 2 * _LANES
    reads = -(-per_group // read)
    spread = np.zeros((samples, positions, group, reads, 2, _LANES), _F32)
    spread.reshape(samples, positions, group, -1)[..., :per_group] = values.reshape(
        samples, positions, group, per_group)
    squares = spread * spread
    terms = spread[..., 0, :] + spread[..., 1, :]                # x0 + x1
    terms2 = squares[..., 0, :] + squares[..., 1, :]             # x0² + x1²
    if 0 < per_group % read <= _LANES:                           # the last read: x0 alone
        terms[..., -1, :], terms2[..., -1, :] = spread[..., -1, 0, :], squares[..., -1, 0, :]
    # (N, group, position and read in turn, lanes)
    order = lambda t: t.transpose(0, 2, 1, 3, 4).reshape(samples, group, -1, _LANES)
    return (_halving_sum(_in_turn(order(terms), 2)),
            _halving_sum(_in_turn(order(terms2), 2)))


def _large_plane_sums(values: np.ndarray, group: int) -> tuple:
    """Sums and sums of squares per (N, group), each thread's run summed per channel."""
    samples, positions, channels = values.shape
    flat = values.reshape(samples * positions, channels)
    runs = thread_chunks(samples * positions)
    sums = np.zeros((len(runs), samples, channels), _F32)
    squares = np.zeros_like(sums)
    for thread, (start, stop) in enumerate(runs):
        for sample in range(start // positions, -(-stop // positions)):
            part = flat[max(start, sample * positions):min(stop, (sample + 1) * positions)]
            sums[thread, sample] = _in_turn(part, 0)
            squares[thread, sample] = _in_turn(part * part, 0)
    per_group = channels // group
    # the group's channels one after the other, each channel's threads in order
    order = lambda t: t.reshape(len(runs), samples, group, per_group).transpose(
        1, 2, 3, 0).reshape(samples, group, -1)
    return _in_turn(order(sums), 2), _in_turn(order(squares), 2)


def channels_last_moments(values: np.ndarray, group: int) -> tuple:
    """The float32 mean and biased variance per (N, group) of (N, positions, C) float32
    values of a channels-last group norm (Note [Group norm statistics, channels last])."""
    samples, positions, channels = values.shape
    with np.errstate(all="ignore"):
        if positions < _PLANE_THRESHOLD:
            total, total2 = _small_plane_sums(values, group)
        else:
            total, total2 = _large_plane_sums(values, group)
        s = _F32(1) / _F32(channels // group * positions)
        mean = total * s
        return mean, np.maximum(fused(total2, s, -(mean * mean)), _F32(0))
