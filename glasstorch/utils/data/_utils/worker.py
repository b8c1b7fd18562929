"""What runs inside a DataLoader worker process, and what it knows about itself.

Note [Worker seeding]
~~~~~~~~~~~~~~~~~~~~~
Each time a loader starts iterating, it draws one ``base_seed`` (a 64-bit
``random_()`` from the loader's generator, or the default one), as torch does. Worker
``i`` seeds Python's `random` and glasstorch's default generator with
``base_seed + i``, and NumPy's global generator with four 32-bit words a
`numpy.random.SeedSequence` of ``[i, low 32 bits, high 32 bits, 0]`` makes: torch's
choice, so random augmentations in a dataset draw the same numbers in a glasstorch
worker as in a torch one, and differ between workers. The draw of ``base_seed`` also
advances the parent's generator, as in torch, so that the shuffle that follows it
matches torch's too.
"""
import os
import queue
import random
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

import glasstorch as torch

# How long (seconds) a blocked queue read waits before checking that its peer lives.
MP_STATUS_CHECK_INTERVAL = 5.0

_worker_info: "Optional[WorkerInfo]" = None


@dataclass(frozen=True)
class WorkerInfo:
    """Who a worker process is: its `id` in ``[0, num_workers)``, its `seed`, and its
    own copy of the `dataset`."""

    id: int
    num_workers: int
    seed: int
    dataset: Any
    rng: Any = None
    worker_method: Optional[str] = "multiprocessing"


def get_worker_info() -> Optional[WorkerInfo]:
    """In a DataLoader worker process, its `WorkerInfo`; in the main process, None.

    An `IterableDataset` uses it to yield only its worker's share of the stream, and a
    ``worker_init_fn`` to configure each worker's copy of the dataset.

    Returns:
        WorkerInfo or None.

    Example::

        >>> get_worker_info() is None      # in the main process
        True
    """
    return _worker_info


def numpy_seed(base_seed: int, worker_id: int) -> np.ndarray:
    """NumPy's seed for a worker: see Note [Worker seeding]."""
    entropy = [worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]
    return np.random.SeedSequence(entropy).generate_state(4)


def seed_worker(base_seed: int, worker_id: int) -> int:
    """Seed every generator of this process for worker `worker_id`; returns its seed."""
    seed = base_seed + worker_id
    random.seed(seed)
    torch.manual_seed(seed)
    np.random.seed(numpy_seed(base_seed, worker_id))
    return seed


class ExceptionWrapper:
    """An exception raised in a worker, carried to the main process with its traceback
    and raised there again (same type, the worker's traceback in the message)."""

    def __init__(self, exc_info=None, where: str = "in background") -> None:
        kind, value, tb = exc_info or sys.exc_info()
        self.exc_type = kind
        self.exc_msg = "".join(traceback.format_exception(kind, value, tb))
        self.where = where

    def reraise(self):
        # The exception is made by a helper, never held in a local of this frame: a local
        # would put it in a reference cycle with its own traceback, keeping the loader's
        # iterator (in the traceback), and so its workers, alive until the cycle collector runs.
        raise self._rebuilt()

    def _rebuilt(self) -> BaseException:
        message = (f"Caught {self.exc_type.__name__} {self.where}.\n"
                   f"Original {self.exc_msg}")
        if self.exc_type is KeyError:
            message = KeyErrorMessage(message)
        try:
            return self.exc_type(message)
        except Exception:
            return RuntimeError(message)


class KeyErrorMessage(str):
    """A KeyError prints its argument's repr; this string prints as itself."""

    def __repr__(self):
        return self


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    """A worker's copy of an iterable dataset is exhausted."""

    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    """A persistent worker starts a new epoch."""

    seed: Optional[int] = None


def _fetch_or_wrap(fetcher, index, worker_id: int, iterable: bool):
    """The batch at `index`, an end-of-stream marker, or the wrapped exception."""
    try:
        return fetcher.fetch(index)
    except StopIteration:
        if not iterable:
            return ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
        return _IterableDatasetStopIteration(worker_id)
    except Exception:
        return ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")


def _worker_loop(make_fetcher, dataset, index_queue, data_queue, done_event, base_seed: int,
                 init_fn, worker_id: int, num_workers: int, iterable: bool) -> None:
    """A worker process's life: seed, initialise, then answer ``(task, index)`` requests
    with ``(task, batch)`` until told to stop (None) or its parent dies."""
    try:
        _serve(make_fetcher, dataset, index_queue, data_queue, done_event, base_seed, init_fn,
               worker_id, num_workers, iterable)
    except KeyboardInterrupt:
        pass        # Ctrl-C reaches every process of the group: the main process reports it
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()


def _serve(make_fetcher, dataset, index_queue, data_queue, done_event, base_seed: int,
           init_fn, worker_id: int, num_workers: int, iterable: bool) -> None:
    global _worker_info
    torch.set_num_threads(1)
    seed = seed_worker(base_seed, worker_id)
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
    fetcher = failure = None
    try:
        if init_fn is not None:
            init_fn(worker_id)
        fetcher = make_fetcher(dataset)
    except Exception:
        failure = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
    parent, ended = os.getppid(), False
    while os.getppid() == parent:
        try:
            request = index_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
        except queue.Empty:
            continue
        if request is None:
            break
        if isinstance(request, _ResumeIteration):
            data_queue.put((request, None))
            fetcher, ended = make_fetcher(dataset), False
            continue
        if done_event.is_set() or ended:
            continue
        task, index = request
        if failure is not None:
            result, failure = failure, None
        else:
            result = _fetch_or_wrap(fetcher, index, worker_id, iterable)
        ended = isinstance(result, _IterableDatasetStopIteration)
        data_queue.put((task, result))
