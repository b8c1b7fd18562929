"""Datasets: what a DataLoader reads from, and the ways to combine or split them.

A map-style `Dataset` answers ``dataset[index]`` (and usually ``len``); an
`IterableDataset` is read as a stream. The rest combine them: side by side
(`TensorDataset`, `StackDataset`), one after another (`ConcatDataset`, `ChainDataset`),
or a chosen part (`Subset`, `random_split`).
"""
import bisect
import itertools
import math
import warnings
from collections.abc import Iterable, Sequence
from typing import Generic, TypeVar, Union

import glasstorch as torch

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "StackDataset", "ConcatDataset",
           "ChainDataset", "Subset", "random_split"]

T_co = TypeVar("T_co", covariant=True)


class Dataset(Generic[T_co]):
    """A map-style dataset: samples found by key, ``dataset[index]``.

    Subclasses write `__getitem__`, and usually `__len__` (samplers and `DataLoader`'s
    length rely on it); `__getitems__`, when present, fetches a whole batch at once.
    ``a + b`` concatenates two datasets.

    Example::

        >>> class Squares(Dataset):
        ...     def __getitem__(self, i): return i * i
        ...     def __len__(self): return 5
        >>> (Squares() + Squares())[6]
        1
    """

    def __getitem__(self, index) -> T_co:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: "Dataset[T_co]") -> "ConcatDataset[T_co]":
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co], Iterable[T_co]):
    """A dataset read as a stream: subclasses write `__iter__`.

    With worker processes every worker iterates its own copy; `get_worker_info` tells a
    copy which worker it is in, so that it can yield its own share of the stream.
    ``a + b`` chains two iterable datasets.
    """

    def __add__(self, other: Dataset[T_co]) -> "ChainDataset":
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Samples are the rows of tensors that share their first dimension.

    Args:
        *tensors (Tensor): tensors of the same size along dimension 0.

    Example::

        >>> ds = TensorDataset(torch.arange(3), torch.zeros(3, 2))
        >>> ds[1]
        (tensor(1), tensor([0., 0.]))
    """

    def __init__(self, *tensors: "torch.Tensor") -> None:
        if any(tensors[0].size(0) != tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


def _common_length(datasets) -> int:
    length = len(datasets[0])
    if any(length != len(dataset) for dataset in datasets):
        raise ValueError("Size mismatch between datasets")
    return length


class StackDataset(Dataset):
    """Samples of several equally long datasets put together, as a tuple or a dict.

    Args:
        *args (Dataset): datasets whose samples form a tuple, or
        **kwargs (Dataset): datasets whose samples form a dict under these keys.

    Example::

        >>> ds = StackDataset(image=[1, 2], label=["a", "b"])
        >>> ds[1]
        {'image': 2, 'label': 'b'}
    """

    def __init__(self, *args: Dataset, **kwargs: Dataset) -> None:
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or"
                             "``dict``- (via ``kwargs``) like input/output, but both types are given.")
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        self._length = _common_length(args or list(kwargs.values()))
        self.datasets = args or kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {key: dataset[index] for key, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __getitems__(self, indices: list) -> list:
        named = isinstance(self.datasets, dict)
        keys = list(self.datasets) if named else range(len(self.datasets))
        columns = [_fetch_many(self.datasets[key], indices) for key in keys]
        if named:
            return [dict(zip(keys, row)) for row in zip(*columns)]
        return [tuple(row) for row in zip(*columns)]

    def __len__(self) -> int:
        return self._length


def _fetch_many(dataset, indices: list) -> list:
    """A batch of `dataset`'s samples, through its `__getitems__` when it has one."""
    if not callable(getattr(dataset, "__getitems__", None)):
        return [dataset[index] for index in indices]
    items = dataset.__getitems__(indices)
    if len(items) != len(indices):
        raise ValueError(f"Nested dataset's output size mismatch. "
                         f"Expected {len(indices)}, got {len(items)}")
    return items


class ConcatDataset(Dataset[T_co]):
    """Map-style datasets one after another, indexed as one.

    Args:
        datasets (iterable): the datasets (not iterable-style ones) to concatenate.

    Example::

        >>> ds = ConcatDataset([[0, 1], [2, 3, 4]])
        >>> len(ds), ds[3], ds.cumulative_sizes
        (5, 3, [2, 5])
    """

    @staticmethod
    def cumsum(sequence) -> list:
        """The running totals of the lengths of `sequence`'s datasets."""
        return list(itertools.accumulate(len(dataset) for dataset in sequence))

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        super().__init__()
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(dataset, IterableDataset) for dataset in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]

    @property
    def cummulative_sizes(self) -> list:
        warnings.warn("`cummulative_sizes` attribute is renamed to `cumulative_sizes`",
                      FutureWarning, stacklevel=2)
        return self.cumulative_sizes


class ChainDataset(IterableDataset):
    """Iterable datasets streamed one after another, chained lazily.

    Args:
        datasets (iterable): the iterable-style datasets to chain.
    """

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        super().__init__()
        self.datasets = datasets

    def _checked(self):
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield dataset

    def __iter__(self):
        for dataset in self._checked():
            yield from dataset

    def __len__(self) -> int:
        return sum(len(dataset) for dataset in self._checked())


class Subset(Dataset[T_co]):
    """The samples of `dataset` at `indices`, in that order.

    Args:
        dataset (Dataset): the whole dataset.
        indices (sequence): the indices chosen for the subset.

    Example::

        >>> Subset(["a", "b", "c"], [2, 0])[0]
        'c'
    """

    def __init__(self, dataset: Dataset[T_co], indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices
        cls = type(self)
        if cls.__getitem__ is not Subset.__getitem__ and cls.__getitems__ is Subset.__getitems__:
            raise NotImplementedError(
                f"{cls.__name__} overrides __getitem__ but not __getitems__. When subclassing "
                "Subset and overriding __getitem__, you must also override __getitems__ to ensure "
                "DataLoader works correctly with your custom logic. A simple implementation:\n\n"
                "def __getitems__(self, indices):\n    return [self.__getitem__(idx) for idx in indices]")

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices: list) -> list:
        chosen = [self.indices[index] for index in indices]
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__(chosen)
        return [self.dataset[index] for index in chosen]

    def __len__(self) -> int:
        return len(self.indices)


def _lengths_from_fractions(fractions: Sequence[float], total: int) -> list:
    """Split sizes for fractions summing to 1: floors, then the remainder one at a time
    to the first splits in turn."""
    lengths = []
    for i, fraction in enumerate(fractions):
        if fraction < 0 or fraction > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        lengths.append(math.floor(total * fraction))
    for i in range(total - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. "
                          f"This might result in an empty dataset.", stacklevel=3)
    return lengths


def random_split(dataset: Dataset, lengths: Sequence[Union[int, float]],
                 generator=torch.default_generator) -> list:
    """Split `dataset` at random into non-overlapping subsets of the given lengths.

    The order comes from one ``randperm`` of the whole length drawn from `generator`,
    cut into consecutive pieces, so a seeded generator gives torch's split.

    Args:
        dataset (Dataset): the dataset to split.
        lengths (sequence): the subsets' lengths, or fractions summing to 1 (the items
            a floor leaves over go one each to the first subsets).
        generator (Generator, optional): the generator of the permutation.

    Returns:
        list of `Subset`.

    Example::

        >>> train, val = random_split(range(10), [0.8, 0.2],
        ...                           generator=torch.Generator().manual_seed(42))
        >>> len(train), len(val)
        (8, 2)
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_from_fractions(lengths, len(dataset))
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = torch.randperm(sum(lengths), generator=generator).tolist()
    ends = itertools.accumulate(lengths)
    return [Subset(dataset, indices[end - length:end]) for end, length in zip(ends, lengths)]
