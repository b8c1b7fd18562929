"""Samplers: the indices of every random sampler equal torch's for several seeds (the
same draws from the same generator streams), lengths, and torch's refusals."""
import pytest

import glasstorch as gt
from glasstorch.utils.data import (BatchSampler, DistributedSampler, RandomSampler, Sampler,
                                   SequentialSampler, SubsetRandomSampler, WeightedRandomSampler)

SEEDS = [0, 3, 1234]
WEIGHTS = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]

# name -> (make the sampler from a library and a generator or None)
SAMPLERS = {
    "shuffle": lambda lib, g: lib.utils.data.RandomSampler(range(10), generator=g),
    "shuffle_more": lambda lib, g: lib.utils.data.RandomSampler(range(7), num_samples=17, generator=g),
    "shuffle_fewer": lambda lib, g: lib.utils.data.RandomSampler(range(7), num_samples=3, generator=g),
    "replacement": lambda lib, g: lib.utils.data.RandomSampler(range(9), True, 70, generator=g),
    "subset": lambda lib, g: lib.utils.data.SubsetRandomSampler([5, 9, 2, 8], generator=g),
    "weighted": lambda lib, g: lib.utils.data.WeightedRandomSampler(WEIGHTS, 9, generator=g),
    "weighted_once": lambda lib, g: lib.utils.data.WeightedRandomSampler(WEIGHTS, 5, False, g),
    "distributed": lambda lib, g: lib.utils.data.DistributedSampler(range(11), 3, 2, seed=7),
}


def two_epochs(lib, name, seed, own_generator):
    """Two passes over the sampler, then one draw showing where the default stream is."""
    lib.manual_seed(seed)
    generator = lib.Generator().manual_seed(seed + 1) if own_generator else None
    sampler = SAMPLERS[name](lib, generator)
    return [list(sampler), list(sampler), lib.randint(1000, (1,)).item()]


@pytest.mark.parametrize("own_generator", [False, True])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_sampler_equals_torch(name, seed, own_generator):
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    assert two_epochs(gt, name, seed, own_generator) == two_epochs(torch, name, seed, own_generator)


def test_sequential_and_lengths():
    assert list(SequentialSampler("abc")) == [0, 1, 2] and len(SequentialSampler("abc")) == 3
    assert len(RandomSampler(range(4))) == 4 and len(RandomSampler(range(4), True, 9)) == 9
    assert len(SubsetRandomSampler([1, 2])) == 2
    assert len(WeightedRandomSampler([1.0, 2.0], 5)) == 5
    assert set(RandomSampler(range(6))) == set(range(6))
    with pytest.raises(NotImplementedError):
        iter(Sampler())


def test_batch_sampler():
    assert list(BatchSampler(range(7), 3, False)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(BatchSampler(range(7), 3, True)) == [[0, 1, 2], [3, 4, 5]]
    assert list(BatchSampler(range(6), 3, True)) == [[0, 1, 2], [3, 4, 5]]
    assert len(BatchSampler(range(7), 3, False)) == 3 and len(BatchSampler(range(7), 3, True)) == 2
    assert list(BatchSampler(iter(range(2)), 5, False)) == [[0, 1]]


@pytest.mark.parametrize("make,error,message", [
    (lambda: RandomSampler(range(3), replacement=1), TypeError,
     "replacement should be a boolean value, but got replacement=1"),
    (lambda: RandomSampler(range(3), num_samples=0), ValueError,
     "num_samples should be a positive integer value, but got num_samples=0"),
    (lambda: RandomSampler([]), ValueError,
     "num_samples should be a positive integer value, but got num_samples=0"),
    (lambda: WeightedRandomSampler([1.0], True), ValueError,
     "num_samples should be a positive integer value, but got num_samples=True"),
    (lambda: WeightedRandomSampler([1.0], 2, replacement=None), ValueError,
     "replacement should be a boolean value, but got replacement=None"),
    (lambda: WeightedRandomSampler([[1.0, 2.0]], 2), ValueError,
     r"weights should be a 1d sequence but given weights have shape \(1, 2\)"),
    (lambda: BatchSampler(range(3), 0, False), ValueError,
     "batch_size should be a positive integer value, but got batch_size=0"),
    (lambda: BatchSampler(range(3), 2, 0), ValueError,
     "drop_last should be a boolean value, but got drop_last=0"),
    (lambda: DistributedSampler(range(3), 2, 2), ValueError,
     r"Invalid rank 2, rank should be in the interval \[0, 1\]"),
    (lambda: DistributedSampler(range(3)), ValueError,
     "Default process group has not been initialized"),
])
def test_refusals(make, error, message):
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize("n,replicas,drop_last,shuffle", [
    (11, 3, False, True), (11, 3, True, True), (12, 4, True, False), (2, 5, False, False),
    (10, 3, False, False), (0, 2, False, False)])
def test_distributed_sampler_equals_torch(n, replicas, drop_last, shuffle):
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401

    def shares(lib):
        samplers = [lib.utils.data.DistributedSampler(range(n), replicas, rank, shuffle=shuffle,
                                                      seed=3, drop_last=drop_last)
                    for rank in range(replicas)]
        epochs = []
        for epoch in range(2):
            for sampler in samplers:
                sampler.set_epoch(epoch)
            epochs.append([(list(s), len(s), s.total_size) for s in samplers])
        return epochs
    assert shares(gt) == shares(torch)
