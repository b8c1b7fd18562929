"""torch.distributed as a build without a communication backend, checked against torch's
messages: the uninitialized-group error of every collective, init_process_group's
rendezvous and backend refusals, the value types (ReduceOp, Backend, GroupMember)."""
import pytest

import glasstorch as gt
import glasstorch.distributed as dist


def _error(call):
    try:
        call()
    except Exception as e:          # noqa: BLE001 (the test compares any error)
        return type(e).__name__, str(e)
    return None


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_RUN_ID"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_no_backend_answers():
    assert dist.is_available() is False and dist.is_initialized() is False
    assert not any(f() for f in (dist.is_gloo_available, dist.is_nccl_available,
                                 dist.is_mpi_available, dist.is_ucc_available))


COLLECTIVES = [
    ("get_rank", lambda d, t: d.get_rank()),
    ("get_world_size", lambda d, t: d.get_world_size()),
    ("get_backend", lambda d, t: d.get_backend()),
    ("new_group", lambda d, t: d.new_group()),
    ("barrier", lambda d, t: d.barrier()),
    ("broadcast", lambda d, t: d.broadcast(t.ones(1), 0)),
    ("all_reduce", lambda d, t: d.all_reduce(t.ones(2))),
    ("all_reduce_max", lambda d, t: d.all_reduce(t.ones(2), op=d.ReduceOp.MAX)),
    ("all_gather", lambda d, t: d.all_gather([t.ones(1)], t.ones(1))),
    ("all_gather_object", lambda d, t: d.all_gather_object([None], 1)),
    ("send", lambda d, t: d.send(t.ones(1), 1)),
    ("monitored_barrier", lambda d, t: d.monitored_barrier()),
    ("destroy", lambda d, t: d.destroy_process_group()),
]


@pytest.mark.parametrize("name,call", COLLECTIVES, ids=[c[0] for c in COLLECTIVES])
def test_collectives_refuse_as_torch_before_init(name, call):
    torch = pytest.importorskip("torch")
    import torch.distributed
    expected = _error(lambda: call(torch.distributed, torch))
    assert expected is not None
    assert _error(lambda: call(dist, gt)) == expected


INITS = [
    dict(),
    dict(backend="gloo"),
    dict(rank=0),
    dict(rank=0, world_size=1),
    dict(backend="nccl", rank=0, world_size=1, init_method="tcp://127.0.0.1:29531"),
    dict(backend="mpi", rank=0, world_size=1, init_method="tcp://127.0.0.1:29532"),
    dict(backend="xccl", rank=0, world_size=1, init_method="tcp://127.0.0.1:29533"),
    dict(backend="ucc", rank=0, world_size=1, init_method="tcp://127.0.0.1:29534"),
    dict(backend="foo", rank=0, world_size=1, init_method="tcp://127.0.0.1:29535"),
]


@pytest.mark.parametrize("kwargs", INITS, ids=repr)
def test_init_process_group_refuses_as_torch_without_the_backend(kwargs, clean_env):
    torch = pytest.importorskip("torch")
    import torch.distributed
    expected = _error(lambda: torch.distributed.init_process_group(**kwargs))
    if expected is None:            # torch's wheel has Gloo: it joined; leave again
        torch.distributed.destroy_process_group()
        expected = ("RuntimeError", "Distributed package doesn't have Gloo built in")
    assert _error(lambda: dist.init_process_group(**kwargs)) == expected
    assert dist.is_initialized() is False


def test_env_rendezvous_names_each_missing_variable(clean_env):
    clean_env.setenv("RANK", "0")
    with pytest.raises(ValueError, match="environment variable WORLD_SIZE expected"):
        dist.init_process_group()
    clean_env.setenv("WORLD_SIZE", "1")
    clean_env.setenv("MASTER_ADDR", "127.0.0.1")
    with pytest.raises(ValueError, match="environment variable MASTER_PORT expected"):
        dist.init_process_group()
    clean_env.setenv("MASTER_PORT", "29500")
    with pytest.raises(RuntimeError, match="doesn't have Gloo built in"):
        dist.init_process_group()


def test_value_types_match_torch(clean_env):
    torch = pytest.importorskip("torch")
    import torch.distributed as their
    for name in ("SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR", "PREMUL_SUM"):
        ours, theirs = getattr(dist.ReduceOp, name), getattr(their.ReduceOp, name)
        assert (int(ours), repr(ours), str(ours)) == (int(theirs), repr(theirs), str(theirs))
    assert dist.Backend("GLOO") == their.Backend("GLOO") == "gloo"
    assert dist.Backend.backend_list == their.Backend.backend_list
    assert (dist.GroupMember.WORLD, dist.GroupMember.NON_GROUP_MEMBER, dist.group.WORLD) == \
        (their.GroupMember.WORLD, their.GroupMember.NON_GROUP_MEMBER, their.group.WORLD)
    assert dist.get_default_backend_for_device("cpu") == "gloo"
    assert dist.is_torchelastic_launched() is their.is_torchelastic_launched() is False
    clean_env.setenv("TORCHELASTIC_RUN_ID", "7")
    assert dist.is_torchelastic_launched() is True


def test_single_process_program_guard_runs():
    # the guard programs write: with no backend, the single-process branch is taken
    rank = dist.get_rank() if dist.is_available() and dist.is_initialized() else 0
    assert rank == 0


def test_hash_store_as_torch():
    torch = pytest.importorskip("torch")
    import torch.distributed as their
    records = []
    for lib in (dist, their):
        store = lib.HashStore()
        store.set("a", "x")
        record = [store.get("a"), store.add("n", 2), store.add("n", 3), store.num_keys(),
                  store.check(["a"]), store.delete_key("a"), store.check(["a"])]
        prefixed = lib.PrefixStore("p", store)
        prefixed.set("k", b"v")
        record += [store.get("p/k"), prefixed.get("k"), prefixed.check(["k"])]
        records.append(record)
    assert records[0] == records[1]
    with pytest.raises(dist.DistStoreError, match="Wait timeout"):
        dist.HashStore().get("missing")
    with pytest.raises(RuntimeError, match="no communication backend"):
        dist.TCPStore("127.0.0.1", 29500)


def test_small_helpers_as_torch():
    torch = pytest.importorskip("torch")
    import torch.distributed as their
    for op in ("SUM", "MAX", "MIN", "AVG", "BAND", "PRODUCT"):
        assert dist.supports_complex(getattr(dist.ReduceOp, op)) == \
            their.supports_complex(getattr(their.ReduceOp, op))
    assert str(dist.get_debug_level()) == str(their.get_debug_level()) == "DebugLevel.OFF"
    assert dist.default_pg_timeout == their.default_pg_timeout
    assert dist.get_pg_count() == 0      # (torch counts the groups its other tests began)
    assert _error(lambda: dist.P2POp(print, None, 0)) == _error(lambda: their.P2POp(print, None, 0))
    assert dist.P2POp(dist.isend, gt.ones(1), 1).peer == 1
    assert dist.is_backend_available("gloo") is False          # no backend is built in here
    with pytest.warns(FutureWarning, match="reduce_op` is deprecated"):
        assert dist.reduce_op is dist.ReduceOp
    calls = [lambda d: d.init_device_mesh("cpu", (1,)), lambda d: d.breakpoint(),
             lambda d: d.new_subgroups_by_enumeration([[0]])]
    for call in calls:
        assert _error(lambda: call(dist)) == _error(lambda: call(their))
