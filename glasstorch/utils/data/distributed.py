"""DistributedSampler: each of several replicas (processes) reads its own share."""
import math
from collections.abc import Iterator
from typing import Optional

import glasstorch as torch

from .dataset import Dataset
from .sampler import Sampler

__all__ = ["DistributedSampler"]


def _from_process_group(value: Optional[int], ask: str) -> int:
    # not given: the default process group's (torch's error before init_process_group)
    if value is not None:
        return value
    if not torch.distributed.is_available():
        raise RuntimeError("Requires distributed package to be available")
    return getattr(torch.distributed, ask)()


class DistributedSampler(Sampler):
    """The indices replica `rank` of `num_replicas` reads: every `num_replicas`-th index
    of one (optionally shuffled) order, padded by repetition to equal shares.

    Call `set_epoch` before each epoch so that the shuffle differs between epochs (the
    order's seed is ``seed + epoch``, the same on every replica).

    Args:
        dataset (Dataset): the dataset to share out.
        num_replicas (int, optional): how many replicas read it (default: the world size).
        rank (int, optional): which replica this is, in ``[0, num_replicas - 1]``
            (default: this process's rank in the default process group).
        shuffle (bool): shuffle the indices (default ``True``).
        seed (int): the shuffle's seed, the same on every replica.
        drop_last (bool): trim the tail to equal shares instead of padding.

    Example::

        >>> list(DistributedSampler(range(5), num_replicas=2, rank=1, shuffle=False))
        [1, 3, 0]
    """

    def __init__(self, dataset: Dataset, num_replicas: Optional[int] = None,
                 rank: Optional[int] = None, shuffle: bool = True, seed: int = 0,
                 drop_last: bool = False) -> None:
        num_replicas = _from_process_group(num_replicas, "get_world_size")
        rank = _from_process_group(rank, "get_rank")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval "
                             f"[0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        if drop_last and len(dataset) % num_replicas != 0:
            self.num_samples = math.ceil((len(dataset) - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(len(dataset) / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator:
        if self.shuffle:
            generator = torch.Generator()
            generator.manual_seed(self.seed + self.epoch)
            indices = torch.randperm(len(self.dataset), generator=generator).tolist()
        else:
            indices = list(range(len(self.dataset)))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            padding = self.total_size - len(indices)
            if padding > 0:
                indices += (indices * math.ceil(padding / len(indices)))[:padding]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Set the epoch, which (with `seed`) decides the next shuffle."""
        self.epoch = epoch
