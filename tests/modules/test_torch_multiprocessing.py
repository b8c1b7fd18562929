"""torch.multiprocessing: spawn, failures raised in the parent, tensors through queues."""
import multiprocessing
import os

import pytest

import glasstorch as gt
import glasstorch.multiprocessing as mp


def square_into_queue(index, queue):
    queue.put((index, gt.full((2,), float(index)) ** 2))


def fail_on_one(index):
    if index == 1:
        raise ValueError("child one fails")


def exit_with_three(index):
    raise SystemExit(3)


def test_names_as_torch():
    torch = pytest.importorskip("torch")
    assert sorted(mp.__all__) == sorted(torch.multiprocessing.__all__)
    assert mp.Process is multiprocessing.Process
    assert mp.get_sharing_strategy() == torch.multiprocessing.get_sharing_strategy()
    assert mp.get_all_sharing_strategies() == torch.multiprocessing.get_all_sharing_strategies()
    with pytest.raises(AssertionError) as theirs:
        torch.multiprocessing.set_sharing_strategy("bad")
    with pytest.raises(AssertionError) as ours:
        mp.set_sharing_strategy("bad")
    assert str(ours.value) == str(theirs.value)
    mp.set_sharing_strategy("file_system")
    assert mp.get_sharing_strategy() == "file_system"
    mp.set_sharing_strategy("file_descriptor")


def test_spawn_runs_each_index_and_tensors_travel():
    queue = multiprocessing.get_context("spawn").SimpleQueue()
    mp.spawn(square_into_queue, args=(queue,), nprocs=2)
    results = dict(queue.get() for _ in range(2))
    assert results[0].tolist() == [0.0, 0.0] and results[1].tolist() == [1.0, 1.0]


def test_failures_raised_in_the_parent():
    with pytest.raises(mp.ProcessRaisedException, match="child one fails") as raised:
        mp.spawn(fail_on_one, nprocs=2)
    assert raised.value.error_index == 1
    assert "-- Process 1 terminated with the following error:" in str(raised.value)
    with pytest.raises(mp.ProcessExitedException,
                       match="process 0 terminated with exit code 3") as exited:
        mp.start_processes(exit_with_three, nprocs=1, start_method="fork")
    assert exited.value.exit_code == 3


def test_join_false_returns_the_context():
    context = mp.start_processes(fail_on_one, nprocs=1, join=False, start_method="fork")
    assert isinstance(context, mp.ProcessContext) and len(context.pids()) == 1
    while not context.join():
        pass


def test_error_files_are_removed():
    context = mp.start_processes(fail_on_one, nprocs=2, join=False, start_method="fork")
    with pytest.raises(mp.ProcessRaisedException):
        while not context.join():
            pass
    assert not any(os.path.exists(path) for path in context.error_files)
