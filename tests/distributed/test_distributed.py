"""torch.distributed in one process, checked against torch's messages: the
uninitialized-group error of every collective, init_process_group's rendezvous and
backend refusals, a world of one, the stores, the value types. The multi-process jobs
are in test_multiprocess.py."""
import datetime
import socket

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


def test_backend_answers():
    pytest.importorskip("mpi4py")
    assert dist.is_available() is True and dist.is_initialized() is False
    assert dist.is_gloo_available() and dist.is_mpi_available()
    assert not any(f() for f in (dist.is_nccl_available, dist.is_ucc_available))


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
    dict(init_method="tcp://127.0.0.1:29531", world_size=1),
    dict(init_method="tcp://127.0.0.1:29531", rank=0),
    dict(backend="nccl", rank=0, world_size=1, init_method="tcp://127.0.0.1:29531"),
    dict(backend="xccl", rank=0, world_size=1, init_method="tcp://127.0.0.1:29533"),
    dict(backend="ucc", rank=0, world_size=1, init_method="tcp://127.0.0.1:29534"),
    dict(backend="foo", rank=0, world_size=1, init_method="tcp://127.0.0.1:29535"),
]


@pytest.mark.parametrize("kwargs", INITS, ids=repr)
def test_init_process_group_refuses_as_torch(kwargs, clean_env):
    torch = pytest.importorskip("torch")
    import torch.distributed
    expected = _error(lambda: torch.distributed.init_process_group(**kwargs))
    assert expected is not None
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
    clean_env.setenv("MASTER_PORT", str(_free_port()))
    _world_of_one(dist.init_process_group)


def _free_port():
    with socket.socket() as probe:
        probe.bind(("", 0))
        return probe.getsockname()[1]


def _world_of_one(join, backend="gloo"):
    pytest.importorskip("mpi4py")
    join()
    try:
        assert (dist.get_rank(), dist.get_world_size(), dist.get_backend()) == (0, 1, backend)
        tensor = gt.arange(4.0)
        dist.all_reduce(tensor, op=dist.ReduceOp.AVG)
        assert tensor.tolist() == [0.0, 1.0, 2.0, 3.0]
        work = dist.broadcast(tensor, 0, async_op=True)
        assert work.wait() is True and work.is_completed()
        assert dist.group.WORLD is dist.GroupMember.WORLD is dist._get_default_group()
        with pytest.raises(ValueError, match="twice"):
            dist.init_process_group()
    finally:
        dist.destroy_process_group()
    assert dist.is_initialized() is False and dist.group.WORLD is None


def test_invalid_rank_refused_instead_of_waiting():
    pytest.importorskip("mpi4py")
    with pytest.raises(ValueError, match=r"Invalid rank 3, rank should be in the interval "
                                         r"\[0, 1\]"):
        dist.init_process_group(store=dist.HashStore(), rank=3, world_size=2)
    assert dist.is_initialized() is False


def test_world_of_one_over_tcp_and_file(tmp_path):
    url = f"tcp://127.0.0.1:{_free_port()}"
    for _ in range(2):                  # the port is free again after destroy
        _world_of_one(lambda: dist.init_process_group("gloo", init_method=url, rank=0,
                                                      world_size=1))
    _world_of_one(lambda: dist.init_process_group(
        "mpi", init_method=f"file://{tmp_path / 'rendezvous'}", rank=0, world_size=1), "mpi")
    _world_of_one(lambda: dist.init_process_group(
        store=dist.HashStore(), rank=0, world_size=1))


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
    store = dist.HashStore()
    store.set_timeout(datetime.timedelta(seconds=0.1))
    assert _error(lambda: store.get("missing")) == ("DistStoreError", "Wait timeout")


def _store_record(store):
    store.set("a", "x")
    return [store.get("a"), store.add("n", 3), store.compare_set("a", "x", "y"),
            store.compare_set("a", "q", "z"), store.get("a"), store.check(["a", "zz"]),
            store.append("a", "zz"), store.multi_get(["a", "n"]), store.delete_key("a"),
            store.delete_key("a")]


def test_tcp_and_file_stores_as_torch(tmp_path):
    torch = pytest.importorskip("torch")
    import torch.distributed as their
    short = datetime.timedelta(seconds=0.2)
    for ours, theirs in [(dist.TCPStore("127.0.0.1", 0, 1, True, timeout=short),
                          their.TCPStore("127.0.0.1", 0, 1, True, timeout=short)),
                         (dist.FileStore(str(tmp_path / "ours"), 1),
                          their.FileStore(str(tmp_path / "theirs"), 1))]:
        assert _store_record(ours) == _store_record(theirs)
        ours.set_timeout(short)
        theirs.set_timeout(short)
        assert _error(lambda: ours.get("missing")) == _error(lambda: theirs.get("missing"))
    server = dist.TCPStore("127.0.0.1", 0, 2, True)
    client = dist.TCPStore("127.0.0.1", server.port, 2, False)
    client.set("from client", b"1")
    assert server.get("from client") == b"1" and server.port != 0


def test_small_helpers_as_torch():
    torch = pytest.importorskip("torch")
    import torch.distributed as their
    for op in ("SUM", "MAX", "MIN", "AVG", "BAND", "PRODUCT"):
        assert dist.supports_complex(getattr(dist.ReduceOp, op)) == \
            their.supports_complex(getattr(their.ReduceOp, op))
    assert str(dist.get_debug_level()) == str(their.get_debug_level()) == "DebugLevel.OFF"
    assert dist.default_pg_timeout == their.default_pg_timeout
    assert dist.get_pg_count() == 0      # (torch counts the groups its other tests began)
    pytest.importorskip("mpi4py")
    assert _error(lambda: dist.P2POp(print, None, 0)) == _error(lambda: their.P2POp(print, None, 0))
    assert dist.P2POp(dist.isend, gt.ones(1), 1).peer == 1
    assert dist.is_backend_available("gloo") and not dist.is_backend_available("nccl")
    with pytest.warns(FutureWarning, match="reduce_op` is deprecated"):
        assert dist.reduce_op is dist.ReduceOp
    calls = [lambda d: d.init_device_mesh("cpu", (1,)), lambda d: d.breakpoint(),
             lambda d: d.new_subgroups_by_enumeration([[0]])]
    for call in calls:
        assert _error(lambda: call(dist)) == _error(lambda: call(their))


def test_record_writes_the_error_file_and_reraises(tmp_path, monkeypatch):
    from glasstorch.distributed.elastic.multiprocessing.errors import record
    monkeypatch.setenv("TORCHELASTIC_ERROR_FILE", str(tmp_path / "error.json"))

    @record
    def main(x):
        if x:
            raise KeyError("bad")
        return 3

    assert main(0) == 3 and not (tmp_path / "error.json").exists()
    with pytest.raises(KeyError):
        main(1)
    assert "KeyError" in (tmp_path / "error.json").read_text()
