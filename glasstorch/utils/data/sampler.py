"""Samplers: the order in which a DataLoader visits a map-style dataset's indices.

Every random sampler draws from a `Generator` with the same calls torch's makes
(``randperm``, ``randint`` in blocks of 32, ``multinomial``), and glasstorch's generator
reproduces torch's streams, so a seeded loader shuffles exactly as torch does.
"""
import itertools
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Generic, Optional, TypeVar, Union

import glasstorch as torch

__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler",
           "SubsetRandomSampler", "WeightedRandomSampler"]

T_co = TypeVar("T_co", covariant=True)

# RandomSampler with replacement draws its indices this many at a time, as torch does
# (the block size decides which numbers the generator's stream gives).
_REPLACEMENT_BLOCK = 32


class Sampler(Generic[T_co]):
    """Base class of samplers: `__iter__` yields indices (or lists of them, for a
    batch sampler); `__len__`, when written, says how many."""

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """The indices ``0 .. len(data_source) - 1`` in order.

    Args:
        data_source (Sized): the dataset whose length is sampled.
    """

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


def _own_generator(generator):
    """`generator`, or (when None) a fresh one seeded by a draw from the default
    generator: each epoch gets a new order that `manual_seed` still decides."""
    if generator is not None:
        return generator
    seed = int(torch.empty((), dtype=torch.int64).random_().item())
    fresh = torch.Generator()
    fresh.manual_seed(seed)
    return fresh


class RandomSampler(Sampler[int]):
    """Indices in random order: a permutation, or draws with replacement.

    Args:
        data_source (Sized): the dataset whose length is sampled.
        replacement (bool): draw each index independently (default ``False``: shuffle).
        num_samples (int, optional): how many indices to yield (default: the length);
            without replacement, more than the length chains several permutations.
        generator (Generator, optional): the generator to draw from.

    Example::

        >>> list(RandomSampler(range(5), generator=torch.Generator().manual_seed(0)))
        [4, 0, 1, 3, 2]
    """

    def __init__(self, data_source: Sized, replacement: bool = False,
                 num_samples: Optional[int] = None, generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, "
                            f"but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, "
                             f"but got num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = _own_generator(self.generator)
        if self.replacement:
            blocks, rest = divmod(self.num_samples, _REPLACEMENT_BLOCK)
            for size in [_REPLACEMENT_BLOCK] * blocks + [rest]:
                yield from torch.randint(high=n, size=(size,), dtype=torch.int64,
                                         generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from torch.randperm(n, generator=generator).tolist()
            yield from torch.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given indices, in a random order.

    Args:
        indices (sequence): the indices to yield.
        generator (Generator, optional): the generator to draw from.
    """

    def __init__(self, indices: Sequence[int], generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in torch.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """Indices ``0 .. len(weights) - 1`` drawn with probabilities proportional to `weights`.

    Args:
        weights (sequence): the (unnormalised) weight of each index.
        num_samples (int): how many indices to draw.
        replacement (bool): draw with replacement (default), or each index at most once.
        generator (Generator, optional): the generator to draw from.

    Example::

        >>> sampler = WeightedRandomSampler([0.1, 0.9], 4, generator=torch.Generator())
        >>> len(sampler)
        4
    """

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator=None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, "
                             f"but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, "
                             f"but got replacement={replacement}")
        weights_tensor = torch.as_tensor(weights, dtype=torch.double)
        if len(weights_tensor.shape) != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have "
                             f"shape {tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        drawn = torch.multinomial(self.weights, self.num_samples, self.replacement,
                                  generator=self.generator)
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list]):
    """Groups another sampler's indices into lists of `batch_size`.

    Args:
        sampler (Sampler or iterable): the indices to group.
        batch_size (int): the size of a batch.
        drop_last (bool): leave out a last batch shorter than `batch_size`.

    Example::

        >>> list(BatchSampler(range(5), batch_size=2, drop_last=False))
        [[0, 1], [2, 3], [4]]
    """

    def __init__(self, sampler: Union[Sampler[int], Iterable[int]], batch_size: int,
                 drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, "
                             f"but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list]:
        indices = iter(self.sampler)
        batch = list(itertools.islice(indices, self.batch_size))
        while batch and (len(batch) == self.batch_size or not self.drop_last):
            yield batch
            batch = list(itertools.islice(indices, self.batch_size))

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
