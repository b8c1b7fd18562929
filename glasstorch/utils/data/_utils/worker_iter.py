"""A pass over a DataLoader whose batches are fetched by worker processes.

Each worker has its own queue of requests ``(task number, batch indices)``; all answer
on one result queue. The loader keeps ``prefetch_factor`` requests per worker in
flight, handing them round-robin, and (with ``in_order``, the default) gives the
batches back in task order, holding early arrivals until their turn: so the batches
equal those of ``num_workers=0`` for a map-style dataset. Worker seeding: Note [Worker
seeding] in worker.py.
"""
import itertools
import multiprocessing
import os
import queue
import weakref

from . import sharing, worker  # noqa: F401  (importing sharing registers how tensors travel)
from .loader_iter import _BaseDataLoaderIter, _DatasetKind


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader) -> None:
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        context = loader.multiprocessing_context or multiprocessing.get_context()
        self._worker_result_queue = context.Queue()
        self._workers_done_event = context.Event()
        self._index_queues, self._workers = [], []
        # Note [Stopping workers]: the finalizer, not __del__, stops them
        self._shutdown_workers = weakref.finalize(
            self, _stop_workers, os.getpid(), self._workers, self._index_queues,
            self._workers_done_event)
        make_fetcher = self._fetcher_factory()
        iterable = self._dataset_kind == _DatasetKind.Iterable
        for worker_id in range(self._num_workers):
            index_queue = context.Queue()
            index_queue.cancel_join_thread()
            process = context.Process(target=worker._worker_loop, daemon=True, args=(
                make_fetcher, self._dataset, index_queue, self._worker_result_queue,
                self._workers_done_event, self._base_seed, loader.worker_init_fn, worker_id,
                self._num_workers, iterable))
            process.start()
            self._index_queues.append(index_queue)
            self._workers.append(process)
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter: bool = False) -> None:
        super()._reset(loader, first_iter)
        self._send_idx = 0              # the next task number to hand out
        self._rcvd_idx = 0              # the next task number to give back (in order)
        self._task_info = {}            # task -> (worker,) while out, (worker, data) held
        self._workers_status = [True] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            for index_queue in self._index_queues:
                index_queue.put(worker._ResumeIteration())
            waiting = self._num_workers
            while waiting:          # batches of the previous epoch still in flight are dropped
                task, _ = self._get_data()
                if isinstance(task, worker._ResumeIteration):
                    waiting -= 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_put_index(self) -> None:
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_id]:
                break
        else:
            return      # every worker's stream has ended
        self._index_queues[worker_id].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_id,)
        self._send_idx += 1

    def _get_data(self):
        """The next ``(task, data)`` from any worker; refuses a timeout or a dead worker."""
        wait = self._timeout if self._timeout > 0 else worker.MP_STATUS_CHECK_INTERVAL
        while True:
            try:
                return self._worker_result_queue.get(timeout=wait)
            except queue.Empty:
                dead = [w for i, w in enumerate(self._workers)
                        if self._workers_status[i] and not w.is_alive()]
                if dead:
                    pids = ", ".join(str(w.pid) for w in dead)
                    raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") from None
                if self._timeout > 0:
                    raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds") from None

    def _next_held(self):
        """Skip the tasks of ended workers; the next task to give back, or None at the end."""
        while self._rcvd_idx < self._send_idx:
            info = self._task_info.get(self._rcvd_idx)
            if info and (len(info) == 2 or self._workers_status[info[0]]):
                return info
            self._task_info.pop(self._rcvd_idx, None)
            self._rcvd_idx += 1
        return None

    def _next_data(self):
        while True:
            info = self._next_held()
            if info is None:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            if len(info) == 2:
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
                return self._process_data(info[1])
            task, data = self._get_data()
            if isinstance(data, worker._IterableDatasetStopIteration):
                self._workers_status[data.worker_id] = False
                self._try_put_index()
                continue
            if task == self._rcvd_idx:
                del self._task_info[task]
                self._rcvd_idx += 1
                return self._process_data(data)
            if not self._in_order:          # given back on arrival; its turn is skipped
                del self._task_info[task]
                return self._process_data(data)
            self._task_info[task] += (data,)

    def _process_data(self, data):
        self._try_put_index()
        if isinstance(data, worker.ExceptionWrapper):
            data.reraise()
        return data


def _stop_workers(owner: int, workers: list, index_queues: list, done_event) -> None:
    """Tell every worker to stop, wait briefly, then end those that do not.

    Note [Stopping workers]
    ~~~~~~~~~~~~~~~~~~~~~~~
    The iterator stops its workers when its pass ends or when it dies. It does so through
    a `weakref.finalize` holding the workers and their queues, not in ``__del__``: an
    iterator caught in a reference cycle (an exception kept with its traceback) dies in
    the cycle collector, which would close the queues it owns, by their own finalizers,
    before any ``__del__`` could send the workers their stop message; the finalizer keeps
    the queues alive until the message is sent. Only the process that started the
    workers stops them: a worker forked later holds a copy of the iterator, and its
    collector must not write to (and, dying, leave locked) the queues the owner uses.
    """
    if os.getpid() != owner:
        return
    done_event.set()
    for index_queue in index_queues:
        index_queue.put(None)
    for process in workers:
        process.join(timeout=worker.MP_STATUS_CHECK_INTERVAL)
    for index_queue in index_queues:
        index_queue.cancel_join_thread()
        index_queue.close()
    for process in workers:
        if process.is_alive():
            process.terminate()
