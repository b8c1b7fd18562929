"""DataLoader with worker processes: the same batches as num_workers=0, torch's
per-worker seeding (random draws inside workers equal torch's), iterable-dataset
sharding through get_worker_info, persistent workers, errors carried back. Kept few:
each loader starts processes."""
import gc
import multiprocessing
import random
import time

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.utils.data import DataLoader, Dataset, TensorDataset, get_worker_info
from data_compare import batches


class Noisy(Dataset):
    """Samples drawing from every generator a worker seeds, and naming their worker."""

    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return 6

    def __getitem__(self, index):
        info = self.lib.utils.data.get_worker_info()
        return {"index": index, "torch": self.lib.rand(2), "numpy": np.random.rand(),
                "python": random.random(), "worker": -1 if info is None else info.id,
                "seed_offset": -1 if info is None else info.seed - info.id}


def shard(lib):
    """An iterable dataset of 0..9 (of `lib`), each worker yielding every
    num_workers-th item from its id."""
    class Shard(lib.utils.data.IterableDataset):
        def __iter__(self):
            info = lib.utils.data.get_worker_info()
            start, step = (0, 1) if info is None else (info.id, info.num_workers)
            return iter(range(start, 10, step))
    return Shard()


def noisy_epochs(lib):
    lib.manual_seed(11)
    loader = lib.utils.data.DataLoader(Noisy(lib), batch_size=2, shuffle=True, num_workers=2)
    return [batches(loader), lib.rand(1).item()]


def test_worker_seeding_and_shuffle_equal_torch():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    ours = noisy_epochs(gt)
    assert ours == noisy_epochs(torch)
    workers = [batch[1]["worker"] for batch in ours[0]]
    assert workers == [("tensor", "int64", (2,), [w, w]) for w in (0, 1, 0)]


def epochs(lib, **options):
    dataset = lib.utils.data.TensorDataset(lib.arange(11), lib.arange(11) * 2.0)
    generator = lib.Generator().manual_seed(4)
    loader = lib.utils.data.DataLoader(dataset, batch_size=3, shuffle=True, generator=generator,
                                       **options)
    return [batches(loader) for _ in range(2)]


def test_workers_give_the_batches_of_one_process():
    alone = epochs(gt)
    assert epochs(gt, num_workers=2, prefetch_factor=1) == alone
    arrivals = epochs(gt, num_workers=2, in_order=False)
    assert [sorted(map(str, epoch)) for epoch in arrivals] == [sorted(map(str, epoch)) for epoch in alone]
    assert get_worker_info() is None


def test_persistent_workers_equal_torch():
    # persistent workers draw no new base seed for the second epoch, so its shuffle
    # differs from that of one process: torch's does too
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    ours = epochs(gt, num_workers=2, persistent_workers=True)
    assert ours == epochs(torch, num_workers=2, persistent_workers=True)
    assert ours[0] == epochs(gt)[0] and ours[1] != epochs(gt)[1]


def test_iterable_sharding_and_init_fn_equal_torch():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401

    def run(lib):
        loader = lib.utils.data.DataLoader(shard(lib), batch_size=3, num_workers=2,
                                           worker_init_fn=lambda worker_id: np.random.seed(worker_id))
        return batches(loader)
    ours = run(gt)
    assert ours == run(torch)
    assert sorted(x for batch in ours for x in batch[3]) == list(range(10))


def failing_init(worker_id):
    raise ValueError(f"no data for worker {worker_id}")


def test_worker_error_is_raised_with_its_type():
    loader = DataLoader(TensorDataset(gt.arange(4)), num_workers=1, worker_init_fn=failing_init)
    with pytest.raises(ValueError, match="Caught ValueError in DataLoader worker process 0.\n"
                                         "Original Traceback"):
        list(loader)


def test_workers_stop_cleanly_when_a_loader_dies_in_a_cycle():
    # Note [Stopping workers]: the cycle collector must not close the queues first
    before = set(multiprocessing.active_children())
    loader = DataLoader(TensorDataset(gt.arange(4)), num_workers=1, worker_init_fn=failing_init)
    try:
        list(loader)
    except ValueError as error:
        kept = [error]
        kept.append(kept)           # the exception, its traceback and the iterator in a cycle
    (started,) = set(multiprocessing.active_children()) - before
    del kept
    gc.collect()
    started.join(timeout=10)
    assert started.exitcode == 0    # it read its stop message: not terminated


def test_timeout():
    loader = DataLoader(TensorDataset(gt.arange(4)), num_workers=1, timeout=0.05,
                        worker_init_fn=lambda worker_id: time.sleep(2))
    with pytest.raises(RuntimeError, match="DataLoader timed out after 0.05 seconds"):
        list(loader)


def test_spawned_workers():
    dataset = TensorDataset(gt.arange(5))
    loader = DataLoader(dataset, batch_size=2, num_workers=1, multiprocessing_context="spawn")
    assert batches(loader) == batches(DataLoader(dataset, batch_size=2))


def test_views_travel_compact():
    rows = TensorDataset(gt.arange(100_000).view(50_000, 2))
    first = next(iter(DataLoader(rows, batch_size=None, num_workers=1)))[0]
    assert first.tolist() == [0, 1] and first.untyped_storage().nbytes() == 16
