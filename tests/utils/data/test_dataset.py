"""Datasets and random_split: behaviour, errors, and random_split's subsets equal to
torch's for given seeds (one randperm of the whole length, cut in order)."""
import warnings

import pytest

import glasstorch as gt
from glasstorch.utils.data import (ChainDataset, ConcatDataset, Dataset, IterableDataset,
                                   StackDataset, Subset, TensorDataset, random_split)
from data_compare import plain


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return i * i

    def __len__(self):
        return self.n


class Count(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


def test_dataset_base_refuses_and_adds():
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset should implement"):
        Dataset()[0]
    both = Squares(2) + Squares(3)
    assert isinstance(both, ConcatDataset) and [both[i] for i in range(5)] == [0, 1, 0, 1, 4]
    chained = Count(2) + Count(3)
    assert isinstance(chained, ChainDataset) and list(chained) == [0, 1, 0, 1, 2]
    assert len(chained) == 5


def test_tensor_dataset():
    ds = TensorDataset(gt.arange(4), gt.arange(8).view(4, 2))
    assert len(ds) == 4
    assert plain(ds[1]) == plain((gt.tensor(1), gt.tensor([2, 3])))
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(gt.zeros(3), gt.zeros(4))


class Batched(Dataset):
    """A dataset with __getitems__, which records the batches asked of it."""

    def __init__(self):
        self.asked = []

    def __getitem__(self, i):
        return -i

    def __getitems__(self, indices):
        self.asked.append(list(indices))
        return [10 * i for i in indices]

    def __len__(self):
        return 5


def test_stack_dataset_tuple_and_dict():
    assert StackDataset([1, 2], "ab")[1] == (2, "b")
    assert StackDataset(x=[1, 2], y="ab")[0] == {"x": 1, "y": "a"}
    inner = Batched()
    stacked = StackDataset(Squares(5), inner)
    assert stacked.__getitems__([1, 3]) == [(1, 10), (9, 30)] and inner.asked == [[1, 3]]
    named = StackDataset(a=Squares(5), b=Batched())
    assert named.__getitems__([2]) == [{"a": 4, "b": 20}]
    assert len(stacked) == 5


def test_stack_dataset_errors():
    with pytest.raises(ValueError, match="At least one dataset should be passed"):
        StackDataset()
    with pytest.raises(ValueError, match="but both types are given"):
        StackDataset([1], x=[1])
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        StackDataset([1], [1, 2])

    class Short(Batched):
        def __getitems__(self, indices):
            return [0]
    with pytest.raises(ValueError, match="Nested dataset's output size mismatch. Expected 2, got 1"):
        StackDataset(Short()).__getitems__([0, 1])


def test_concat_dataset_indexing_and_errors():
    ds = ConcatDataset([Squares(2), [7, 8, 9]])
    assert ds.cumulative_sizes == [2, 5] and len(ds) == 5
    assert [ds[i] for i in range(5)] == [0, 1, 7, 8, 9] and ds[-1] == 9 and ds[-5] == 0
    with pytest.raises(ValueError, match="absolute value of index should not exceed dataset length"):
        ds[-6]
    with pytest.raises(AssertionError, match="datasets should not be an empty iterable"):
        ConcatDataset([])
    with pytest.raises(AssertionError, match="ConcatDataset does not support IterableDataset"):
        ConcatDataset([Count(2)])
    with pytest.warns(FutureWarning, match="renamed to `cumulative_sizes`"):
        assert ds.cummulative_sizes == [2, 5]


def test_chain_dataset_refuses_map_style():
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(ChainDataset([Count(1), Squares(2)]))
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        len(ChainDataset([Squares(2)]))


def test_subset():
    inner = Batched()
    part = Subset(inner, [4, 0, 2])
    assert len(part) == 3 and part[0] == -4 and part.__getitems__([0, 2]) == [40, 20]
    assert inner.asked == [[4, 2]]
    assert Subset(Squares(5), [3, 1]).__getitems__([1, 0]) == [1, 9]

    class OnlyItem(Subset):
        def __getitem__(self, i):
            return 0
    with pytest.raises(NotImplementedError, match="overrides __getitem__ but not __getitems__"):
        OnlyItem(Squares(3), [0])


def test_subset_list_index_asks_the_dataset_once():
    ds = TensorDataset(gt.arange(10) * 3)
    assert Subset(ds, [9, 8, 7])[[0, 2]][0].tolist() == [27, 21]


def split_indices(lib, lengths, seed, n):
    generator = lib.Generator().manual_seed(seed)
    return [subset.indices for subset in
            lib.utils.data.random_split(range(n), lengths, generator=generator)]


@pytest.mark.parametrize("seed", [0, 1, 42, 2024])
@pytest.mark.parametrize("lengths,n", [([3, 7], 10), ([0.8, 0.2], 10), ([0.5, 0.3, 0.2], 11),
                                       ([0.33, 0.33, 0.34], 7), ([5], 5)])
def test_random_split_equals_torch(lengths, n, seed):
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    assert split_indices(gt, lengths, seed, n) == split_indices(torch, lengths, seed, n)


def test_random_split_default_generator_equals_torch():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    results = []
    for lib in (gt, torch):
        lib.manual_seed(5)
        results.append([s.indices for s in lib.utils.data.random_split(range(9), [4, 5])]
                       + [lib.rand(1).item()])
    assert results[0] == results[1]


def test_random_split_errors_and_warnings():
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(range(5), [2, 2])
    with pytest.raises(ValueError, match="Fraction at index 1 is not between 0 and 1"):
        random_split(range(5), [0.5, 1.5, -1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = random_split(range(2), [0.9, 0.05, 0.05])
    assert [len(p) for p in parts] == [2, 0, 0]
    assert [str(w.message) for w in caught] == [
        f"Length of split at index {i} is 0. This might result in an empty dataset."
        for i in (1, 2)]
    assert caught[0].filename == __file__
