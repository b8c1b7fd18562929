"""Intra-op parallelism: ATen's `parallel_for` over a small thread pool.

NumPy's kernels are single-threaded but release the GIL, so a large elementwise
kernel split into chunks runs on every core. `torch.set_num_threads(n)` sets how many
threads (the caller plus n - 1 workers) a kernel may use; until then the environment
decides, as for torch (Note [Default thread counts] in `thread_counts.py`).

Note [Splitting an elementwise kernel]
A chunk is a slab of the result along its outermost dimension in memory (the largest
stride), so each thread writes its own stretch of memory. Inputs are sliced alongside
(an input broadcast along that dimension is passed whole: NumPy broadcasts it again),
never copied. When every array has the result's layout and it is dense, all of them
are flattened first, so a (1, 4M) or (3, N) result splits as evenly as a 1-D one.
When an input's layout disagrees with the result's (``a.t() + b``), NumPy's loop
strides across memory for one of them and misses the cache; the work is then cut into
narrow bands (`BAND_SIZE` elements) along the result's outermost dimension, which fit
in the cache: that is faster even on one thread. Elementwise work under `SPLIT_SIZE`
elements stays on the calling thread: waking a pool thread measured ~100 us on an idle
2-core VM (a 65536-element add: 33 us on one thread, 130 us split; 262144 elements: 189
us on one thread, 133 us split), more than the split saves below that size.
"""
from __future__ import annotations

import functools
import itertools
import os
import queue
import threading

import numpy as np

from . import thread_counts
from .quiet import mute_this_thread

GRAIN_SIZE = 32768          # elements per task at least, as ATen's internal::GRAIN_SIZE
BAND_SIZE = 131072          # elements per band when layouts disagree (fits L2 thrice)
SPLIT_SIZE = 262144         # elementwise results at least this large are split


class _Pool:
    """The worker threads and the configured thread count (one per process, as torch's).

    Workers wait on one task queue; a task is ``(body, start, stop, done)`` and the
    worker puts the body's exception (or None) on the caller's `done` queue. Queues
    of the C `SimpleQueue` kind make a hand-off cost a few microseconds
    (`concurrent.futures` costs three times as much).
    """

    def __init__(self) -> None:
        self.region = threading.local()        # .active: inside a parallel_for body
        self.interop_threads = thread_counts.inter_op_default()
        self.interop_fixed = False             # set once, as torch's inter-op pool
        self.forget_workers()

    @functools.cached_property
    def threads(self) -> int:
        """The intra-op thread count: the environment's until `set_num_threads` (decided
        on first use, so `import glasstorch` reads no topology files)."""
        return thread_counts.intra_op_default()

    def submit(self, body, start: int, stop: int, done: queue.SimpleQueue) -> None:
        with self.lock:
            while len(self.workers) < self.threads - 1:
                worker = threading.Thread(target=_work, args=(self.tasks,), daemon=True,
                                          name=f"glasstorch-{len(self.workers)}")
                worker.start()
                self.workers.append(worker)
        self.tasks.put((body, start, stop, done))

    def forget_workers(self) -> None:
        """A fresh, empty pool (after fork the child has none of the parent's threads)."""
        self.tasks = queue.SimpleQueue()
        self.workers = []
        self.lock = threading.Lock()
        self.region = threading.local()


def _work(tasks: queue.SimpleQueue) -> None:
    """A worker's life (a daemon thread: it ends with the process): run bodies."""
    mute_this_thread()
    _pool.region.active = True               # a worker only ever runs bodies
    while True:
        body, start, stop, done = tasks.get()
        try:
            body(start, stop)
        except BaseException as error:     # handed to the caller, which re-raises it
            done.put(error)
        else:
            done.put(None)
        # Drop the body before waiting for the next one: it closes over the kernel's
        # arrays, which would otherwise stay alive (memory held) until the next task.
        del body, done


_pool = _Pool()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_pool.forget_workers)


def get_num_threads() -> int:
    """The number of threads used for intra-op parallelism on CPU.

    Returns:
        int: the calling thread plus the pool's workers.

    Example::

        >>> torch.get_num_threads() >= 1
        True
    """
    return _pool.threads


def set_num_threads(n: int, /) -> None:
    """Use `n` threads (the calling one included) for intra-op parallelism on CPU.

    Args:
        n (int): a positive number of threads.

    Raises:
        RuntimeError: when `n` is not an int or not positive.
        ValueError: when `n` does not fit a C int.

    Example::

        >>> torch.set_num_threads(1)       # every kernel on the calling thread
    """
    _pool.threads = _thread_count("set_num_threads", n)   # workers start when needed


def init_num_threads() -> None:
    """Settle the intra-op thread count for the calling thread, as torch's does.

    glasstorch's count is one per process: this decides it from the environment if
    nothing has yet (Note [Default thread counts]), and otherwise changes nothing.

    Example::

        >>> torch.init_num_threads()
    """
    _pool.threads


def get_num_interop_threads() -> int:
    """The number of threads torch's inter-op pool has (or will have) on CPU.

    Returns:
        int: one per logical CPU of the machine unless `set_num_interop_threads` said.

    Example::

        >>> torch.get_num_interop_threads() >= 1
        True
    """
    return _pool.interop_threads


def set_num_interop_threads(n: int, /) -> None:
    """Use `n` threads for inter-op parallelism on CPU; allowed once per process.

    Args:
        n (int): a positive number of threads.

    Raises:
        RuntimeError: when `n` is not a positive int, or the count was set before.
        ValueError: when `n` does not fit a C int.

    Example::

        >>> torch.set_num_interop_threads(2)     # before any other call to it
    """
    n = _thread_count("set_num_interop_threads", n)
    if _pool.interop_fixed:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work "
                           "has started or set_num_interop_threads called")
    _pool.interop_threads = n
    _pool.interop_fixed = True


def _thread_count(function: str, n) -> int:
    """`n` as a thread count, refused with torch's errors for `function`."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise RuntimeError(f"{function} expects an int, but got {_type_name(n)}")
    n = int(n)
    if not -2 ** 31 <= n < 2 ** 31:
        width = "long" if -2 ** 63 <= n < 2 ** 63 else "long long"    # C int, then int64
        raise ValueError(f"Overflow when unpacking {width}")
    if n <= 0:
        raise RuntimeError(f"{function} expects a positive integer")
    return n


def _type_name(value) -> str:
    """The type's name as CPython's C API spells it (what torch's messages show)."""
    kind = type(value)
    if kind.__module__ == "builtins" or kind.__flags__ & (1 << 9):     # heap type
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"


def in_parallel_region() -> bool:
    """Whether the calling thread is running a `parallel_for` body (as ATen's)."""
    return getattr(_pool.region, "active", False)


def chunks(begin: int, end: int, grain_size: int) -> list:
    """The (start, stop) chunks `parallel_for` cuts a range of several into: one per
    thread, none shorter than `grain_size`."""
    step = max(grain_size, -(-(end - begin) // _pool.threads))
    return [(start, min(start + step, end)) for start in range(begin, end, step)]


def parallel_for(begin: int, end: int, grain_size: int, body) -> None:
    """Run ``body(start, stop)`` over contiguous chunks of ``range(begin, end)``.

    As ATen's `at::parallel_for`: nothing for an empty range; the whole range on the
    calling thread when it is no longer than `grain_size`, with one thread, or inside
    another body (nested calls); else one chunk per thread, none shorter than
    `grain_size`, the calling thread taking the first.

    Args:
        begin, end: the range of iterations.
        grain_size: the fewest iterations worth a chunk of their own.
        body: called once per chunk; must only write what its chunk owns.
    """
    count = end - begin
    if count <= 0:
        return
    if count <= grain_size or count == 1 or _pool.threads == 1 or in_parallel_region():
        body(begin, end)
        return
    bounds = chunks(begin, end, grain_size)
    done = queue.SimpleQueue()
    for start, stop in bounds[1:]:
        _pool.submit(body, start, stop, done)
    _pool.region.active = True
    try:
        body(*bounds[0])                   # the calling thread takes the first chunk
    finally:
        _pool.region.active = False
        errors = [done.get() for _ in bounds[1:]]       # wait for every chunk
    for error in errors:
        if error is not None:
            raise error


def parallel_elementwise(kernel, values: list, operands: tuple, out: np.ndarray) -> None:
    """``kernel(*values, out=out)``, split over the pool when `out` is large.

    See Note [Splitting an elementwise kernel].

    Args:
        kernel: an elementwise kernel writing `out`.
        values: its arguments; those at `operands` may be arrays broadcasting to `out`.
        operands: the positions of the elementwise operands in `values`.
        out: the array written.
    """
    if out.size < SPLIT_SIZE or out.ndim == 0:
        kernel(*values, out=out)
        return
    arrays = [i for i in operands if isinstance(values[i], np.ndarray) and values[i].ndim]
    if _same_dense_layout(out, [values[i] for i in arrays]):
        if _pool.threads == 1:
            kernel(*values, out=out)
            return
        values = list(values)
        for i in arrays:
            values[i] = values[i].reshape(-1, order="A")
        out = out.reshape(-1, order="A")
    dim = _outermost(out)
    length = out.shape[dim]
    row = out.size // length
    agree = _layouts_agree(out, [values[i] for i in arrays])
    if agree and _pool.threads == 1:
        kernel(*values, out=out)
        return
    band = length if agree else max(1, BAND_SIZE // row)    # rows a kernel call takes

    def body(start: int, stop: int) -> None:
        for first in range(start, stop, band):
            last = min(first + band, stop)
            part = list(values)
            for i in arrays:
                part[i] = _slab(part[i], dim - out.ndim, first, last)
            kernel(*part, out=_slab(out, dim - out.ndim, first, last))
    grain = -(-GRAIN_SIZE // row) if agree else band * -(-GRAIN_SIZE // (row * band))
    parallel_for(0, length, grain, body)


def _same_dense_layout(out: np.ndarray, arrays: list) -> bool:
    """Whether `out` is dense (C or F order) and every array has its shape and strides."""
    flags = out.flags
    if not (flags.c_contiguous or flags.f_contiguous):
        return False
    strides = tuple(s // out.itemsize for s in out.strides)
    return all(a.shape == out.shape and tuple(s // a.itemsize for s in a.strides) == strides
               for a in arrays)


def _outermost(a: np.ndarray) -> int:
    """The dimension of `a` with the largest stride among those longer than 1."""
    return max((d for d in range(a.ndim) if a.shape[d] > 1), key=lambda d: abs(a.strides[d]),
               default=0)


def _innermost(a: np.ndarray):
    """The dimension (counted from the end, as broadcasting aligns) of `a` with the
    smallest non-zero stride among those longer than 1; None if there is none."""
    dims = [d for d in range(a.ndim) if a.shape[d] > 1 and a.strides[d]]
    if not dims:
        return None
    return min(dims, key=lambda d: abs(a.strides[d])) - a.ndim


def _layouts_agree(out: np.ndarray, arrays: list) -> bool:
    """Whether every array walks memory fastest along the same dimension as `out`."""
    inner = _innermost(out)
    return all(_innermost(a) in (None, inner) for a in arrays)


def _slab(a: np.ndarray, dim: int, start: int, stop: int) -> np.ndarray:
    """``a[start:stop]`` along `dim` (counted from the end); `a` whole when it is
    broadcast along it (shorter, or of length 1 there)."""
    if -dim > a.ndim or a.shape[dim] == 1:
        return a
    index = [slice(None)] * a.ndim
    index[dim] = slice(start, stop)
    return a[tuple(index)]


def parallel_share(count: int, body) -> None:
    """Run ``body(i)`` for every ``i`` in ``range(count)``, the items taken one at a time
    by the calling thread and the pool's workers as each comes free.

    Note [Sharing items as they come]
        `parallel_for` gives each thread a fixed chunk and waits for all of them, so a
        worker that wakes late (its core busy with another process) delays the result
        by its whole chunk. Here the calling thread starts at once and keeps taking
        items while the workers wake; it then waits only for the items a worker has
        begun. A worker that wakes after the last item was taken does nothing, and is
        not waited for. The split into items is the caller's, so the results do not
        depend on which thread took which item.

    Args:
        count: the number of items.
        body: called once per item; must only write what its item owns.
    """
    if count <= 1 or _pool.threads == 1 or in_parallel_region():
        for item in range(count):
            body(item)
        return
    take = itertools.count().__next__          # one C call: atomic under the GIL
    finished = queue.SimpleQueue()             # an error or None per item a worker did

    def share(_start: int = 0, _stop: int = 0, report=finished.put) -> None:
        while (item := take()) < count:
            try:
                body(item)
            except BaseException as error:     # handed to the caller, which re-raises it
                report(error)
            else:
                report(None)

    for _ in range(min(_pool.threads, count) - 1):
        _pool.submit(share, 0, 0, queue.SimpleQueue())      # nobody waits for its end
    mine: list = []                            # the calling thread's items' reports
    _pool.region.active = True
    try:
        share(report=mine.append)
    finally:
        _pool.region.active = False
    for error in mine + [finished.get() for _ in range(count - len(mine))]:
        if error is not None:
            raise error
