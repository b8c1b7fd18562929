"""Intra-op parallelism: ATen's `parallel_for` over a small thread pool.

NumPy's kernels are single-threaded but release the GIL, so a large elementwise
kernel split into chunks runs on every core. Work under `GRAIN_SIZE` elements stays
on the calling thread: for small tensors the hand-off would cost more than the work.
`torch.set_num_threads(n)` sets how many threads (the caller plus n - 1 workers) a
kernel may use.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

GRAIN_SIZE = 32768          # elements per task, as ATen's internal::GRAIN_SIZE


class _Pool:
    """The worker threads and the configured thread count (one per process, as torch's)."""

    def __init__(self) -> None:
        self.threads = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                           else os.cpu_count() or 1)
        self.executor = None

    def workers(self) -> ThreadPoolExecutor:
        if self.executor is None:
            self.executor = ThreadPoolExecutor(max_workers=max(self.threads - 1, 1),
                                               thread_name_prefix="glasstorch")
        return self.executor


_pool = _Pool()


def get_num_threads() -> int:
    """The number of threads used for intra-op parallelism.

    Example::

        >>> torch.get_num_threads() >= 1
        True
    """
    return _pool.threads


def set_num_threads(n: int) -> None:
    """Use `n` threads (the calling one included) for large kernels.

    Raises:
        RuntimeError: when `n` is not positive, as torch does.
    """
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    if n != _pool.threads and _pool.executor is not None:
        _pool.executor.shutdown(wait=True)
        _pool.executor = None
    _pool.threads = n


def chunk_bounds(length: int, numel: int) -> list:
    """Split ``range(length)`` of an outer dimension into contiguous (start, stop) chunks.

    As many chunks as threads, but no more than `numel` holds `GRAIN_SIZE` elements.
    """
    chunks = min(_pool.threads, max(numel // GRAIN_SIZE, 1), length)
    step = -(-length // chunks)
    return [(start, min(start + step, length)) for start in range(0, length, step)]


def parallel_for(length: int, numel: int, body) -> None:
    """Run ``body(start, stop)`` over chunks of ``range(length)``, in parallel when large.

    Args:
        length: the size of the dimension being split.
        numel: the total number of elements the work touches.
        body: called once per chunk; must only write its own chunk.
    """
    if numel < 2 * GRAIN_SIZE or _pool.threads == 1 or length < 2:
        body(0, length)
        return
    bounds = chunk_bounds(length, numel)
    futures = [_pool.workers().submit(body, start, stop) for start, stop in bounds[1:]]
    body(*bounds[0])                    # the calling thread takes the first chunk
    for future in futures:
        future.result()
