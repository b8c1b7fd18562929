"""The iterator one pass over a DataLoader makes, in the loader's own process.

`_BaseDataLoaderIter` holds what every pass does (start the sampler, draw the workers'
base seed, count what it yields); `_SingleProcessDataLoaderIter` fetches each batch
itself. The worker-process iterator (`worker_iter.py`) shares the base.
"""
import functools
import warnings

import glasstorch as torch

from . import fetch


class _DatasetKind:
    """Whether a loader reads a map-style (by index) or an iterable (stream) dataset."""

    Map = 0
    Iterable = 1

    @staticmethod
    def create_fetcher(kind, dataset, auto_collation: bool, collate_fn, drop_last: bool):
        fetcher = fetch._MapDatasetFetcher if kind == _DatasetKind.Map else fetch._IterableDatasetFetcher
        return fetcher(dataset, auto_collation, collate_fn, drop_last)


class _BaseDataLoaderIter:
    def __init__(self, loader) -> None:
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn(f"pin_memory_device is deprecated, the current accelerator will be "
                          f"used as the device,ignore pin_memory_device="
                          f"'{loader.pin_memory_device}'.", stacklevel=3)
        if loader.pin_memory:
            # glasstorch has no accelerator, so there is no pinned memory to use
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=3)
        self._pin_memory = False
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        # The sampler's generator body runs at the first batch, after this seed draw: the
        # order of draws from a shared generator is torch's (Note [Worker seeding]).
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter: bool = False) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def _fetcher_factory(self):
        """A picklable callable making this pass's fetcher over a dataset."""
        return functools.partial(_DatasetKind.create_fetcher, self._dataset_kind,
                                 auto_collation=self._auto_collation,
                                 collate_fn=self._collate_fn, drop_last=self._drop_last)

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        reported = self._IterableDataset_len_called
        if (self._dataset_kind == _DatasetKind.Iterable and reported is not None
                and self._num_yielded > reported):
            warnings.warn(self._overrun_message(reported), stacklevel=2)
        return data

    def _overrun_message(self, reported: int) -> str:
        message = (f"Length of IterableDataset {self._dataset} was reported to be {reported}"
                   f"(when accessing len(dataloader)), but {self._num_yielded} samples have "
                   f"been fetched. ")
        if self._num_workers > 0:
            message += ("For multiprocessing data-loading, this could be caused by not properly "
                        "configuring the IterableDataset replica at each worker. Please see "
                        "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset "
                        "for examples.")
        return message

    def __len__(self) -> int:
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    """Fetches and collates each batch in the loader's own process."""

    def __init__(self, loader) -> None:
        super().__init__(loader)
        if self._timeout != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        self._dataset_fetcher = self._fetcher_factory()(self._dataset)

    def _next_data(self):
        return self._dataset_fetcher.fetch(self._next_index())
