"""torch.nn.parallel's multi-GPU pieces (comm, scatter_gather, parallel_apply, replicate)
and torch.cuda.comm on a machine without GPUs, against torch: the same answers for what
needs no GPU and the same errors for what does."""
import collections
import importlib
import warnings

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")
Pair = collections.namedtuple("Pair", "a b")


def _outcome(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("value", repr(call()))
        except Exception as e:          # noqa: BLE001 (the test compares any error)
            result = (type(e).__name__, str(e))
    return result, [(w.category, str(w.message)) for w in caught]


def _same(call, module):
    name = f"nn.parallel.{module}"
    ours = importlib.import_module(f"glasstorch.{name}")
    theirs = importlib.import_module(f"torch.{name}")
    assert _outcome(lambda: call(ours, gt)) == _outcome(lambda: call(theirs, torch))


COMM_CALLS = [
    lambda c, t: c.broadcast(t.ones(2)),
    lambda c, t: c.broadcast(t.ones(2), [0], out=[t.ones(2)]),
    lambda c, t: c.broadcast(t.ones(2), [0]),
    lambda c, t: c.broadcast(t.ones(2), ["cpu"]),
    lambda c, t: c.broadcast(t.ones(2), [None]),
    lambda c, t: c.broadcast(t.ones(2), out=[t.ones(2)]),
    lambda c, t: c.broadcast_coalesced([t.ones(2)], [0]),
    lambda c, t: c.reduce_add([t.ones(2), t.ones(2)]),
    lambda c, t: c.reduce_add([]),
    lambda c, t: c.reduce_add_coalesced([[t.ones(2)], [t.ones(2)]]),
    lambda c, t: c.reduce_add_coalesced([]),
    lambda c, t: c.scatter(t.ones(2), [0]),
    lambda c, t: c.scatter(t.ones(2), [0], out=[t.ones(2)]),
    lambda c, t: c.scatter(t.ones(2), chunk_sizes=[2], out=[t.ones(2)]),
    lambda c, t: c.scatter(t.ones(2), out=[t.ones(2)]),
    lambda c, t: c.gather([t.ones(2)]),
    lambda c, t: c.gather([t.ones(2)], destination=-1),
    lambda c, t: c.gather([t.ones(2)], destination=0, out=t.ones(2)),
    lambda c, t: c.gather([t.ones(2)], out=t.ones(2)),
]


@pytest.mark.parametrize("call", COMM_CALLS)
def test_comm(call):
    _same(call, "comm")


def test_cuda_comm_is_nn_parallel_comm():
    import glasstorch.cuda.comm as cuda_comm
    import glasstorch.nn.parallel.comm as comm
    assert cuda_comm.__all__ == importlib.import_module("torch.cuda.comm").__all__
    assert all(getattr(cuda_comm, name) is getattr(comm, name) for name in comm.__all__)


SCATTER_GATHER_CALLS = [
    lambda m, t: m.scatter(t.ones(4), [0]),
    lambda m, t: m.scatter(t.ones(4), ["cpu"]),
    lambda m, t: m.scatter((1, "a"), [0, 1]),
    lambda m, t: m.scatter([3, [4]], [0, 1]),
    lambda m, t: m.scatter({"k": 2, "j": (5,)}, [0, 1]),
    lambda m, t: m.scatter(Pair(1, 2), [0, 1]),
    lambda m, t: m.scatter(((), [], {}), [0, 1]),
    lambda m, t: m.scatter(None, [0, 1, 2]),
    lambda m, t: m.scatter_kwargs((1,), {"a": 2}, [0, 1]),
    lambda m, t: m.scatter_kwargs((1,), None, [0, 1]),
    lambda m, t: m.scatter_kwargs((), {"a": 2}, [0, 1, 2]),
    lambda m, t: m.scatter_kwargs((), None, [0]),
    lambda m, t: m.gather([t.ones(2), t.ones(2)], -1),
    lambda m, t: m.gather([{"a": t.ones(2)}], 0),
    lambda m, t: m.gather([{"a": 1}, {"a": 1, "b": 2}], 0),
    lambda m, t: m.gather([None, None], 0),
    lambda m, t: m.gather([1, 2], 0),
    lambda m, t: m.gather([Pair(None, None)], 0),
]


@pytest.mark.parametrize("call", SCATTER_GATHER_CALLS)
def test_scatter_gather(call):
    _same(call, "scatter_gather")


PARALLEL_APPLY_CALLS = [
    lambda m, t: m.parallel_apply([1], [1, 2]),
    lambda m, t: m.parallel_apply([1], [1], [{}, {}]),
    lambda m, t: m.parallel_apply([1], [1], None, [0, 1]),
    lambda m, t: m.parallel_apply([1], [1], None, ["cpu"]),
    lambda m, t: m.parallel_apply([1], [1], None, [0]),
    lambda m, t: m.parallel_apply([t.nn.ReLU()], [t.ones(1)]),
    lambda m, t: m.parallel_apply([], []),
    lambda m, t: m.get_a_var([1, (t.ones(1),)]),
    lambda m, t: m.get_a_var({"a": 1, "b": t.zeros(1)}),
    lambda m, t: m.get_a_var(3),
]


@pytest.mark.parametrize("call", PARALLEL_APPLY_CALLS)
def test_parallel_apply(call):
    _same(call, "parallel_apply")


def _with_buffer(library, requires_grad):
    module = library.nn.ReLU()
    module.register_buffer("count", library.zeros(1, requires_grad=requires_grad))
    return module


REPLICATE_CALLS = [
    lambda m, t: m.replicate(t.nn.Linear(1, 1), []),
    lambda m, t: m.replicate(t.nn.Linear(1, 1), [0]),
    lambda m, t: m.replicate(t.nn.Linear(1, 1), [0], detach=True),
    lambda m, t: m.replicate(t.nn.Linear(1, 1), ["cpu"]),
    lambda m, t: m.replicate(_with_buffer(t, requires_grad=False), [0]),
    lambda m, t: m.replicate(_with_buffer(t, requires_grad=True), [0]),
    lambda m, t: m.replicate(_with_buffer(t, requires_grad=True), [0], detach=True),
    lambda m, t: m.replicate(t.nn.Sequential(t.nn.ReLU(), t.nn.Tanh()), [0, 1]),
]


@pytest.mark.parametrize("call", REPLICATE_CALLS)
def test_replicate(call):
    _same(call, "replicate")


def test_replicas_are_new_modules_sharing_no_tables():
    network = gt.nn.Sequential(gt.nn.ReLU(), gt.nn.Sequential(gt.nn.Tanh()))
    first, second = importlib.import_module("glasstorch.nn.parallel.replicate").replicate(
        network, [0, 1])
    assert first is not network and first[1] is not network[1] and first[1] is not second[1]
    first[1].append(gt.nn.ReLU())
    assert len(network[1]) == 1
    assert first(gt.tensor([-1.0])).tolist() == [0.0]


def test_package_binds_the_functions_as_torch():
    for name in ("scatter", "gather", "replicate", "parallel_apply"):
        assert callable(getattr(gt.nn.parallel, name))
        assert callable(getattr(torch.nn.parallel, name))
