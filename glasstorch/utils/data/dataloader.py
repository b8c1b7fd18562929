"""DataLoader: a dataset read in (shuffled, collated) batches, by this process or workers."""
import math
import multiprocessing
import os
import warnings
from typing import Any, Callable, Generic, Iterable, Optional, TypeVar, Union

from . import _utils
from ._utils.loader_iter import _BaseDataLoaderIter, _DatasetKind, _SingleProcessDataLoaderIter  # noqa: F401
from ._utils.worker_iter import _MultiProcessingDataLoaderIter
from .dataset import Dataset, IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info", "default_collate", "default_convert"]

default_collate = _utils.collate.default_collate
default_convert = _utils.collate.default_convert
get_worker_info = _utils.worker.get_worker_info

T_co = TypeVar("T_co", covariant=True)

# Attributes that decide the batches: fixed once the loader exists, as torch's are.
_FROZEN = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")


class _InfiniteConstantSampler(Sampler):
    """An iterable dataset's 'sampler': the fetcher only counts what it yields."""

    def __iter__(self):
        while True:
            yield None


def _check_worker_options(num_workers: int, timeout: float, prefetch_factor, persistent_workers):
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; "
                         "use num_workers=0 to disable multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                         "let num_workers > 0 to enable multiprocessing, otherwise set "
                         "prefetch_factor to None.")
    if num_workers > 0 and prefetch_factor is None:
        return 2
    if prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")
    return prefetch_factor


def _check_iterable_options(shuffle, sampler, batch_sampler) -> None:
    if shuffle not in {False, None}:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle "
                         f"option, but got shuffle={shuffle}")
    if sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler "
                         f"option, but got sampler={sampler}")
    if batch_sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler "
                         f"option, but got batch_sampler={batch_sampler}")


def _worker_warning(num_workers: int) -> Optional[str]:
    """torch's warning when more workers are asked for than the CPUs this process may use."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if cpus is not None and num_workers <= cpus:
        return None
    if cpus is None:
        suggestion = "DataLoader is not able to compute a suggested max number of worker in current system."
    else:
        checked = "" if hasattr(os, "sched_getaffinity") else " (`cpuset` is not taken into account)"
        suggestion = (f"Our suggested max number of worker in current system is {cpus}{checked}, "
                      f"which is smaller than what this DataLoader is going to create.")
    return (f"This DataLoader will create {num_workers} worker processes in total. {suggestion} "
            f"Please be aware that excessive worker creation might get DataLoader running slow "
            f"or even freeze, lower the worker number to avoid potential slowness/freeze if "
            f"necessary.")


class DataLoader(Generic[T_co]):
    """Iterate over a dataset in batches: sampled, collated, fetched here or in workers.

    A map-style dataset is visited in the order of `sampler` (``shuffle=True``: a
    `RandomSampler` over `generator`), grouped by `batch_sampler` (by default
    `batch_size` indices at a time) and each group collated by `collate_fn`. An
    iterable dataset is read as a stream in groups of `batch_size`. With
    ``num_workers > 0``, worker processes fetch the batches (each seeded as torch seeds
    its workers) and the loader yields them in order.

    Args:
        dataset (Dataset): the data.
        batch_size (int, optional): samples per batch (default 1); None turns batching off.
        shuffle (bool, optional): reshuffle at every epoch.
        sampler (Sampler or iterable, optional): the order of the indices.
        batch_sampler (Sampler or iterable, optional): yields whole batches of indices;
            excludes `batch_size`, `shuffle`, `sampler` and `drop_last`.
        num_workers (int): worker processes (0: load in this process).
        collate_fn (callable, optional): list of samples -> batch (`default_collate`).
        pin_memory (bool): accepted; glasstorch has no accelerator memory to pin.
        drop_last (bool): leave out a last, incomplete batch.
        timeout (float): seconds to wait for a worker's batch (0: forever).
        worker_init_fn (callable, optional): called with the worker id in each worker.
        multiprocessing_context (str or context, optional): how workers start.
        generator (Generator, optional): draws the shuffle and the workers' base seed.
        prefetch_factor (int, optional): batches in flight per worker (default 2).
        persistent_workers (bool): keep the workers between epochs.
        pin_memory_device (str): deprecated, accepted.
        in_order (bool): yield worker batches in order (default) or as they arrive.

    Example::

        >>> ds = TensorDataset(torch.arange(6))
        >>> [b[0].tolist() for b in DataLoader(ds, batch_size=4)]
        [[0, 1, 2, 3], [4, 5]]
    """

    __initialized = False

    def __init__(self, dataset: Dataset, batch_size: Optional[int] = 1,
                 shuffle: Optional[bool] = None, sampler: Union[Sampler, Iterable, None] = None,
                 batch_sampler: Union[Sampler, Iterable, None] = None, num_workers: int = 0,
                 collate_fn: Optional[Callable] = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Optional[Callable] = None, multiprocessing_context=None,
                 generator=None, *, prefetch_factor: Optional[int] = None,
                 persistent_workers: bool = False, pin_memory_device: str = "",
                 in_order: bool = True) -> None:
        prefetch_factor = _check_worker_options(num_workers, timeout, prefetch_factor,
                                                persistent_workers)
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            _check_iterable_options(shuffle, sampler, batch_sampler)
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map
        batch_size, drop_last = self._check_batching(shuffle, sampler, batch_sampler,
                                                     batch_size, drop_last)
        if sampler is None:
            sampler = self._default_sampler(dataset, shuffle, generator)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()

    @staticmethod
    def _check_batching(shuffle, sampler, batch_sampler, batch_size, drop_last):
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            return None, False
        if batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        return batch_size, drop_last

    def _default_sampler(self, dataset, shuffle, generator):
        if self._dataset_kind == _DatasetKind.Iterable:
            return _InfiniteConstantSampler()
        if shuffle:
            return RandomSampler(dataset, generator=generator)
        return SequentialSampler(dataset)

    @property
    def multiprocessing_context(self):
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context) -> None:
        if context is not None and self.num_workers <= 0:
            raise ValueError(f"multiprocessing_context can only be used with multi-process "
                             f"loading (num_workers > 0), but got num_workers={self.num_workers}")
        if isinstance(context, str):
            methods = multiprocessing.get_all_start_methods()
            if context not in methods:
                raise ValueError(f"multiprocessing_context option should specify a valid start "
                                 f"method in {methods!r}, but got "
                                 f"multiprocessing_context={context!r}")
            context = multiprocessing.get_context(context)
        if context is not None and not isinstance(context, multiprocessing.context.BaseContext):
            raise TypeError(f"multiprocessing_context option should be a valid context object or "
                            f"a string specifying the start method, but got "
                            f"multiprocessing_context={context}")
        self.__multiprocessing_context = context

    def __setattr__(self, attr: str, value: Any) -> None:
        if self.__initialized and attr in _FROZEN:
            raise ValueError(f"{attr} attribute should not be set after "
                             f"{self.__class__.__name__} is initialized")
        super().__setattr__(attr, value)

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    def __iter__(self):
        if not (self.persistent_workers and self.num_workers > 0):
            return self._get_iterator()
        if self._iterator is None:
            self._iterator = self._get_iterator()
        else:
            self._iterator._reset(self)
        return self._iterator

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self) -> int:
        if self._dataset_kind == _DatasetKind.Map:
            return len(self._index_sampler)
        length = self._IterableDataset_len_called = len(self.dataset)
        if self.batch_size is None:
            return length
        if self.drop_last:
            return length // self.batch_size
        return math.ceil(length / self.batch_size)

    def check_worker_number_rationality(self) -> None:
        """Warn when more workers are asked for than this process has CPUs."""
        if self.num_workers:
            message = _worker_warning(self.num_workers)
            if message is not None:
                warnings.warn(message, stacklevel=2)
