"""DataLoader in one process: batches and shuffle orders identical to torch's for
several seeds (with and without a generator, over epochs), iterable datasets, length
rules, and torch's refusals and warnings for bad option combinations."""
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import glasstorch as gt
from glasstorch.utils.data import (BatchSampler, DataLoader, Dataset, IterableDataset,
                                   SequentialSampler, TensorDataset)
from data_compare import batches

SEEDS = [0, 1, 99]


class Stream(IterableDataset):
    def __init__(self, n, reported=None):
        self.n, self.reported = n, reported

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n if self.reported is None else self.reported


# name -> DataLoader keyword arguments over a TensorDataset of 10 rows
OPTIONS = {
    "plain": dict(batch_size=3),
    "shuffle": dict(batch_size=3, shuffle=True),
    "shuffle_drop_last": dict(batch_size=4, shuffle=True, drop_last=True),
    "no_batching": dict(batch_size=None, shuffle=True),
    "one_by_one": dict(shuffle=True),
    "collate_fn": dict(batch_size=4, shuffle=True, collate_fn=lambda rows: [r[0].item() for r in rows]),
}


def epochs(lib, options, seed, own_generator):
    """Two epochs of a loader, then one draw showing where the default stream is."""
    lib.manual_seed(seed)
    dataset = lib.utils.data.TensorDataset(lib.arange(10), lib.arange(10) * 0.5)
    generator = lib.Generator().manual_seed(seed + 10) if own_generator else None
    loader = lib.utils.data.DataLoader(dataset, generator=generator, **options)
    return [batches(loader), batches(loader), lib.rand(1).item()]


@pytest.mark.parametrize("own_generator", [False, True])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_batches_equal_torch(name, seed, own_generator):
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    ours = epochs(gt, OPTIONS[name], seed, own_generator)
    assert ours == epochs(torch, OPTIONS[name], seed, own_generator)


@pytest.mark.parametrize("seed", SEEDS)
def test_dict_samples_and_samplers_equal_torch(seed):
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401

    def run(lib):
        lib.manual_seed(seed)
        data = lib.utils.data
        weighted = data.WeightedRandomSampler([1.0, 2.0, 3.0, 4.0] * 3, 12)
        rows = [{"x": lib.full((2,), float(i)), "id": i, "tag": f"#{i}"} for i in range(12)]
        by_sampler = data.DataLoader(rows, batch_size=5, sampler=weighted)
        by_batches = data.DataLoader(rows, batch_sampler=data.BatchSampler(
            data.RandomSampler(rows), 4, drop_last=False))
        return [batches(by_sampler), batches(by_batches)]
    assert run(gt) == run(torch)


def test_iterable_dataset_batches():
    loader = DataLoader(Stream(7), batch_size=3)
    assert [b.tolist() for b in loader] == [[0, 1, 2], [3, 4, 5], [6]] and len(loader) == 3
    dropping = DataLoader(Stream(7), batch_size=3, drop_last=True)
    assert [b.tolist() for b in dropping] == [[0, 1, 2], [3, 4, 5]] and len(dropping) == 2
    unbatched = DataLoader(Stream(2), batch_size=None)
    assert list(unbatched) == [0, 1] and len(unbatched) == 2


def test_iterable_dataset_longer_than_reported_warns():
    loader = DataLoader(Stream(3, reported=2), batch_size=None)
    assert len(loader) == 2
    with pytest.warns(UserWarning, match=r"was reported to be 2\(when accessing len\(dataloader\)\), "
                                         r"but 3 samples have been fetched"):
        assert list(loader) == [0, 1, 2]


def test_lengths():
    dataset = TensorDataset(gt.arange(10))
    assert len(DataLoader(dataset, batch_size=3)) == 4
    assert len(DataLoader(dataset, batch_size=3, drop_last=True)) == 3
    assert len(DataLoader(dataset, batch_size=None)) == 10
    assert len(DataLoader(dataset, batch_sampler=BatchSampler(range(5), 2, False))) == 3

    class NoLength(IterableDataset):
        def __iter__(self):
            return iter([])
    with pytest.raises(TypeError):
        len(DataLoader(NoLength()))


def test_no_batching_converts_numpy():
    import numpy as np
    loader = DataLoader([np.arange(2), np.arange(2) + 1], batch_size=None)
    assert [b.tolist() for b in loader] == [[0, 1], [1, 2]]


class Indexed(Dataset):
    def __getitem__(self, index):
        return index

    def __len__(self):
        return 4


@pytest.mark.parametrize("options,message", [
    (dict(num_workers=-1), "num_workers option should be non-negative"),
    (dict(timeout=-1), "timeout option should be non-negative"),
    (dict(prefetch_factor=2), "prefetch_factor option could only be specified in multiprocessing"),
    (dict(num_workers=1, prefetch_factor=-1), "prefetch_factor option should be non-negative"),
    (dict(persistent_workers=True), "persistent_workers option needs num_workers > 0"),
    (dict(sampler=[0, 1], shuffle=True), "sampler option is mutually exclusive with shuffle"),
    (dict(batch_sampler=[[0]], batch_size=2), "batch_sampler option is mutually exclusive with"),
    (dict(batch_sampler=[[0]], drop_last=True), "batch_sampler option is mutually exclusive with"),
    (dict(batch_size=None, drop_last=True), "batch_size=None option disables auto-batching"),
    (dict(multiprocessing_context="spawn"), "multiprocessing_context can only be used with "
                                            "multi-process loading"),
    (dict(num_workers=1, multiprocessing_context="teleport"),
     "multiprocessing_context option should specify a valid start method"),
])
def test_option_refusals(options, message):
    with pytest.raises(ValueError, match=message):
        DataLoader(Indexed(), **options)


def test_option_refusals_for_iterable_datasets():
    for options, name in ((dict(shuffle=True), "shuffle=True"), (dict(sampler=[0]), "sampler=[0]"),
                          (dict(batch_sampler=[[0]]), "batch_sampler=[[0]]")):
        with pytest.raises(ValueError, match=rf"IterableDataset: expected unspecified "
                                             rf"\w+ option, but got {name}".replace("[", r"\[")):
            DataLoader(Stream(2), **options)
    with pytest.raises(TypeError, match="multiprocessing_context option should be a valid context"):
        DataLoader(Indexed(), num_workers=1, multiprocessing_context=3)


def test_refusals_equal_torch():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    for options in (dict(num_workers=-1), dict(prefetch_factor=2), dict(batch_size=None, drop_last=True),
                    dict(batch_sampler=[[0]], shuffle=True), dict(persistent_workers=True)):
        messages = []
        for lib in (gt, torch):
            with pytest.raises(ValueError) as caught:
                lib.utils.data.DataLoader(list(range(3)), **options)
            messages.append(str(caught.value))
        assert messages[0] == messages[1]


def test_timeout_needs_workers():
    with pytest.raises(AssertionError, match="_SingleProcessDataLoaderIter requires timeout == 0"):
        iter(DataLoader(Indexed(), timeout=1))


def test_frozen_attributes():
    loader = DataLoader(Indexed(), batch_size=2)
    for name in ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers"):
        with pytest.raises(ValueError, match=f"{name} attribute should not be set after DataLoader is initialized"):
            setattr(loader, name, None)
    loader.num_workers = 0          # not frozen
    assert isinstance(loader.sampler, SequentialSampler) and loader.prefetch_factor is None


def test_pin_memory_accepted_with_torchs_warning():
    with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no accelerator is found"):
        assert [b.tolist() for b in DataLoader(Indexed(), batch_size=2, pin_memory=True)] == [[0, 1], [2, 3]]


def test_too_many_workers_warns():
    with pytest.warns(UserWarning, match="This DataLoader will create 4096 worker processes in total"):
        DataLoader(Indexed(), num_workers=4096)


def test_namespace_names_equal_torchs():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    import glasstorch.utils.data as ours
    public = {name for name in dir(torch.utils.data) if not name.startswith("__")}
    assert public <= set(dir(ours))
    assert set(ours.__all__) == set(torch.utils.data.__all__)
    assert gt.utils.data is ours


@pytest.mark.parametrize("name", ["IterDataPipe", "MapDataPipe", "DataChunk", "functional_datapipe",
                                  "runtime_validation", "argument_validation"])
def test_datapipes_names_refuse_clearly(name):
    import glasstorch.utils.data as data
    with pytest.raises(NotImplementedError, match=f"glasstorch does not implement torch.utils.data.{name} yet"):
        getattr(data, name)(lambda: None)
    with pytest.raises(AttributeError, match="does not implement torch.utils.data.datapipes.iter yet"):
        data.datapipes.iter


def test_subclassing_datapipe_classes_imports():
    from glasstorch.utils.data import IterDataPipe

    class Mine(IterDataPipe):
        pass
    with pytest.raises(NotImplementedError):
        Mine()


def test_loader_warns_nothing_by_default():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(list(DataLoader(Indexed(), batch_size=3, shuffle=True))) == 2


def test_loaded_on_first_use():
    code = ("import sys, glasstorch as torch\n"
            "assert 'glasstorch.utils.data' not in sys.modules\n"
            "assert 'data' in dir(torch.utils)\n"
            "print(torch.utils.data.DataLoader.__module__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).parents[3])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "glasstorch.utils.data.dataloader"


def test_backward_compatibility_worker_init_fn_is_deprecated():
    from glasstorch.utils.data.backward_compatibility import worker_init_fn
    with pytest.warns(FutureWarning, match="`backward_compatibility.worker_init_fn` is deprecated"):
        assert worker_init_fn(0) is None
