"""ProcessGroup (a set of ranks over one MPI communicator) and Work (the handle of a
collective started with ``async_op=True``).

# Note [Background reductions]
#
# MPI moves a nonblocking collective's data only while the process is inside an MPI
# call, and backward spends its time in NumPy kernels, so an Iallreduce started at a
# gradient bucket would mostly wait for the end of backward. DDP's bucket reductions
# run instead as blocking calls on one background thread per group, on a duplicate of
# the group's communicator (so they never interleave with the main thread's
# collectives): mpi4py and NumPy both release the GIL, so communication really
# overlaps the rest of backward. The thread runs the buckets in the order they were
# started, the same on every rank.
"""
from __future__ import annotations

from concurrent.futures import Future as _ThreadFuture
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import glasstorch as torch

from . import mpi_engine


class ProcessGroup:
    """The ranks `ranks` (global ranks, in group order) and the MPI communicator they
    share; ``rank()`` is this process's place in the group.

    Args:
        comm: the mpi4py communicator of the members.
        ranks: the members' global ranks; the i-th has rank i in the group.
        backend: the backend's name the group was made with ("gloo" or "mpi").
        group_name: the group's name.
    """

    def __init__(self, comm: Any, ranks: list, backend: str, group_name: str) -> None:
        self.comm, self.ranks, self.backend, self.group_name = comm, list(ranks), backend, \
            group_name
        self.bound_device_id = None
        self._background: Any = None

    def start_background(self) -> None:
        """Make the communicator and thread `start_in_background` uses (collective: every
        member calls it at the same point). Note [Background reductions]."""
        if self._background is None:
            self._background = (self.comm.Dup(), ThreadPoolExecutor(1, "glasstorch-mpi"))

    def close(self) -> None:
        """Free the group's communicators and stop its background thread."""
        if self._background is not None:
            comm, thread = self._background
            thread.shutdown()
            comm.Free()
        self.comm.Free()

    def start_in_background(self, call: str, *args: Any, finish: Callable | None = None,
                            result: list | None = None) -> "Work":
        """Run the blocking MPI call `call` on the group's background thread."""
        comm, thread = self._background
        return Work([], finish, result, thread.submit(getattr(comm, call), *args))

    def rank(self) -> int:
        """This process's rank in the group."""
        return self.comm.rank

    def size(self) -> int:
        """How many processes the group holds."""
        return self.comm.size

    def name(self) -> str:
        """The backend's name."""
        return self.backend

    @property
    def group_desc(self) -> str:
        return self.group_name

    def start(self, call: str, *args: Any, async_op: bool, finish: Callable | None = None,
              result: list | None = None) -> "Work":
        """Run the communicator's MPI call `call` (``"Allreduce"``, ...), blocking or
        (``async_op``) nonblocking, as a Work whose `wait` runs `finish` once done."""
        if async_op:
            nonblocking = getattr(self.comm, "I" + call.lower())
            return Work([nonblocking(*args)], finish, result)
        getattr(self.comm, call)(*args)
        return Work([], finish, result)


class Work:
    """A started collective: `wait` blocks until it is done and its results are in the
    output tensors.

    Example::

        >>> work = dist.all_reduce(tensor, async_op=True)
        >>> work.wait()
        True
    """

    def __init__(self, requests: list, finish: Callable | None = None,
                 result: list | None = None, running: _ThreadFuture | None = None) -> None:
        self._requests, self._finish, self._result = requests, finish, result or []
        self._running = running

    def wait(self, timeout: Any = None) -> bool:
        """Block until the collective is done; returns True."""
        if self._requests:
            mpi_engine.mpi().Request.Waitall(self._requests)
            self._requests = []
        if self._running is not None:
            self._running.result()
        self._complete()
        return True

    def _complete(self) -> None:
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()

    def is_completed(self) -> bool:
        """Whether the collective is done (without blocking)."""
        if self._requests and not mpi_engine.mpi().Request.Testall(self._requests) or \
                self._running is not None and not self._running.done():
            return False
        self._requests = []
        self._complete()
        return True

    def is_success(self) -> bool:
        """Whether the collective completed without error."""
        return self.is_completed()

    def exception(self) -> None:
        """The error the collective raised: none (MPI errors raise at the call)."""
        return None

    def result(self) -> list:
        """The collective's output tensors."""
        self.wait()
        return self._result

    def synchronize(self) -> None:
        self.wait()

    def get_future(self) -> Any:
        """A Future of the output tensors (complete: the collective is waited for)."""
        future = torch.futures.Future()
        future.set_result(self.result())
        return future


def done(result: list | None = None) -> Work:
    """A Work with nothing left to do (a collective a process sits out)."""
    return Work([], None, result)
