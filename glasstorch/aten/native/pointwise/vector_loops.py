"""Which elements torch's vectorized CPU loop leaves to its scalar loop.

Note [Scalar tails of torch's vectorized loops]
    A few torch kernels give another result in their vectorized loop than in their
    scalar one (hardswish_backward at NaN: NaN from the vector blends, the gradient
    from the scalar comparisons). Over dense operands TensorIterator's loop runs
    vectors two at a time (2 x 64 bytes on an AVX-512 CPU: 32 floats, 16 doubles, 64
    halves) and hands the scalar loop the rest of each parallel chunk: the last
    ``length % (128 / itemsize)`` elements of each. The chunks are ATen's
    `parallel_for`'s: one for fewer than GRAIN_SIZE elements or one thread, else as
    many as the threads (at most one per GRAIN_SIZE elements), of equal length but the
    last. A kernel called on one of glasstorch's own chunks (inside the pool's
    parallel region) sees one of those chunks whole (the pool cuts alike for up to
    eight threads); called on the whole tensor, it cuts as ATen does.
"""
from __future__ import annotations

import numpy as np

from ...parallel import GRAIN_SIZE, get_num_threads, in_parallel_region

_VECTOR_PAIR_BYTES = 128


def scalar_tail_positions(size: int, itemsize: int) -> np.ndarray:
    """The flat positions, among `size` dense elements of `itemsize` bytes, that
    torch's scalar loop computes (Note [Scalar tails of torch's vectorized loops]).

    Args:
        size: the elements the kernel is called on.
        itemsize: the bytes of one element in the tensor's own dtype.

    Returns:
        ndarray: increasing int64 positions (few: under 128 / itemsize per chunk).
    """
    step = _VECTOR_PAIR_BYTES // itemsize
    threads = 1 if in_parallel_region() else get_num_threads()
    chunks = 1 if size < GRAIN_SIZE else min(threads, -(-size // GRAIN_SIZE))
    length = -(-size // chunks) if size else 0
    tails = []
    for start in range(0, size, max(length, 1)):
        stop = min(start + length, size)
        tails.append(np.arange(stop - (stop - start) % step, stop))
    return np.concatenate(tails) if tails else np.zeros(0, np.int64)
