"""The process groups: joining the default one, making subgroups, asking who is who.

The default group and the groups made from it live in `_WORLD`, the one record of this
process's place in the job (torch keeps the same record); the collectives
(`collectives.py`) find their group here. Every group runs on MPI (Note [MPI engine] in
mpi_engine.py).
"""
from __future__ import annotations

import datetime
import os
import warnings
from typing import Any

from . import mpi_engine
from .c10d_types import Backend, GroupMember, default_pg_timeout, group
from .process_group import ProcessGroup
from .rendezvous import rendezvous_store

_NOT_INITIALIZED = ("Default process group has not been initialized, please make sure "
                    "to call init_process_group.")
_NOT_BUILT = {"nccl": "NCCL", "xccl": "XCCL"}


class _World:
    """This process's groups: the default one, every group made since, and the store."""

    def __init__(self) -> None:
        self.default: ProcessGroup | None = None
        self.store: Any = None
        self.made_store = False
        self.groups: list = []


_WORLD = _World()
_GROUP_NAMESPACE = group     # (destroy_process_group's argument hides the name)


def is_available() -> bool:
    """Whether processes can communicate: when mpi4py (the MPI engine) is installed."""
    return mpi_engine.available()


def is_initialized() -> bool:
    """Whether this process has joined the default process group."""
    return _WORLD.default is not None


def is_gloo_available() -> bool:
    """Whether the "gloo" backend can be used (it runs on the MPI engine)."""
    return mpi_engine.available()


is_mpi_available = is_gloo_available


def is_nccl_available() -> bool:
    """Whether NCCL (GPU collectives) is built in: no."""
    return False


is_ucc_available = is_xccl_available = is_nccl_available


def is_torchelastic_launched() -> bool:
    """Whether the process was started by a torchrun-style launcher (TORCHELASTIC_RUN_ID)."""
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def get_default_backend_for_device(device: Any) -> str:
    """The backend torch picks for a device type ("gloo" for the CPU)."""
    device_type = getattr(device, "type", str(device)).split(":")[0]
    if device_type != "cpu":
        raise RuntimeError(f"Default backend not registered for device : {device_type}")
    return "gloo"


def _backend_name(backend: str | None) -> str:
    """The CPU backend a backend string names ("cpu:gloo,cuda:nccl" names gloo)."""
    name = Backend(backend or "gloo")
    if ":" in name:
        parts = dict(part.split(":") for part in name.split(","))
        name = Backend(parts.get("cpu", "gloo"))
    if name in _NOT_BUILT:
        raise RuntimeError(f"Distributed package doesn't have {_NOT_BUILT[name]} built in")
    if name == "ucc":
        raise AssertionError("Unknown c10d backend type UCC")
    if name not in ("gloo", "mpi"):
        raise AssertionError(f"Unknown backend type {name}")
    return name


def init_process_group(backend: str | None = None, init_method: str | None = None,
                       timeout: datetime.timedelta | None = None, world_size: int = -1,
                       rank: int = -1, store: Any = None, group_name: str = "",
                       pg_options: Any = None, device_id: Any = None) -> None:
    """Join the default process group: meet the other ranks through `init_method`
    (``env://``, ``tcp://host:port``, ``file:///path``) or `store`, then run every
    collective with them on the MPI engine ("gloo" and "mpi" both name it).

    Args:
        backend (str): "gloo" (default) or "mpi".
        init_method (str): where the ranks meet (default ``env://``: RANK, WORLD_SIZE,
            MASTER_ADDR, MASTER_PORT, as the launcher sets them).
        timeout (timedelta): how long the rendezvous waits.
        world_size (int): how many processes the job has.
        rank (int): this process's rank, in ``[0, world_size - 1]``.
        store (Store): a store to meet through instead of `init_method`.

    Example::

        >>> dist.init_process_group("gloo")      # under python -m torch.distributed.run
        >>> dist.get_world_size()
        2
    """
    if store is not None and init_method is not None:
        raise AssertionError("Cannot specify both init_method and store.")
    if is_initialized():
        raise ValueError("trying to initialize the default process group twice!")
    timeout = timeout or default_pg_timeout
    made_store = store is None
    if made_store:
        store, rank, world_size = rendezvous_store(init_method or "env://", rank, world_size,
                                                   timeout)
    else:
        _check_store_arguments(rank, world_size)
    name = _backend_name(backend)
    if not 0 <= rank < world_size:     # (torch would wait for the missing ranks forever)
        raise ValueError(f"Invalid rank {rank}, rank should be in the interval "
                         f"[0, {world_size - 1}]")
    comm = mpi_engine.join_world(store, rank, world_size)
    _WORLD.default, _WORLD.store = ProcessGroup(comm, range(world_size), name, "0"), store
    _WORLD.made_store = made_store
    GroupMember.WORLD = group.WORLD = _WORLD.default
    _WORLD.groups.append(_WORLD.default)


def _check_store_arguments(rank: int, world_size: int) -> None:
    if world_size <= 0:
        raise AssertionError("world_size must be positive if using store")
    if rank < 0:
        raise AssertionError("rank must be non-negative if using store")


def destroy_process_group(group: Any = None) -> None:
    """Leave `group`, or (None) every group, the default one included."""
    if _WORLD.default is None:
        raise AssertionError("Process group cannot be None")
    if group is None or group is _WORLD.default:
        for member in _WORLD.groups:
            member.close()
        if _WORLD.made_store:           # rank 0's TCP server frees its port for a next job
            getattr(_WORLD.store.underlying_store, "_stop_serving", lambda: None)()
        _WORLD.__init__()
        GroupMember.WORLD = _GROUP_NAMESPACE.WORLD = None
    elif group in _WORLD.groups:
        group.close()
        _WORLD.groups.remove(group)


def _get_default_group() -> ProcessGroup:
    """The default process group (ValueError, torch's, before init_process_group)."""
    if _WORLD.default is None:
        raise ValueError(_NOT_INITIALIZED)
    return _WORLD.default


def _member(group: Any) -> ProcessGroup | None:
    """`group` (None: the default group), or None when this process is outside it."""
    default = _get_default_group()
    if group is None or group is GroupMember.WORLD:
        return default
    return None if group is GroupMember.NON_GROUP_MEMBER else group


def resolve(group: Any, collective: str) -> ProcessGroup | None:
    """The group a collective runs in; None when this process is outside it, and sits
    the call out with torch's warning."""
    member = _member(group)
    if member is None:
        warnings.warn(f"Running {collective} on global rank {get_rank()} which does not "
                      "belong to the given group.", stacklevel=3)
    return member


def get_rank(group: Any = None) -> int:
    """This process's rank in `group` (the default group: its global rank); -1 outside."""
    member = _member(group)
    return -1 if member is None else member.rank()


def get_world_size(group: Any = None) -> int:
    """How many processes `group` holds; -1 for a process outside it."""
    member = _member(group)
    return -1 if member is None else member.size()


def get_backend(group: Any = None) -> str:
    """The backend name of `group` ("gloo" or "mpi")."""
    member = _member(group)
    if member is None:
        raise ValueError("Invalid process group specified")
    return member.name()


def get_backend_config(group: Any = None) -> str:
    """The backend per device type, as torch writes it ("cpu:gloo")."""
    return f"cpu:{get_backend(group)}"


def get_process_group_ranks(group: Any) -> list:
    """The global ranks of `group`'s members, in group order."""
    return list(_get_default_group().ranks if group is None else group.ranks)


def get_global_rank(group: Any, group_rank: int) -> int:
    """The global rank of the member at `group_rank` in `group`."""
    ranks = get_process_group_ranks(group)
    if not 0 <= group_rank < len(ranks):
        raise ValueError(f"Group rank {group_rank} is not part of group {group}")
    return ranks[group_rank]


def get_group_rank(group: Any, global_rank: int) -> int:
    """The rank in `group` of the process whose global rank is `global_rank`."""
    ranks = get_process_group_ranks(group)
    if global_rank not in ranks:
        raise ValueError(f"Global rank {global_rank} is not part of group {group}")
    return ranks.index(global_rank)


def get_node_local_rank(fallback_rank: int | None = None) -> int:
    """This process's rank on its machine (LOCAL_RANK, as the launcher sets it)."""
    if "LOCAL_RANK" in os.environ:
        return int(os.environ["LOCAL_RANK"])
    if fallback_rank is not None:
        return int(fallback_rank)
    raise RuntimeError("LOCAL_RANK is not in the environment. Consider passing fallback_rank "
                       "to allow `get_node_local_rank` to work, assuming you are not running "
                       "in a multi-node environment. See torchrun documentation for more.")


def get_pg_count() -> int:
    """How many process groups this process has made."""
    return len(_WORLD.groups)


def new_group(ranks: list | None = None, timeout: Any = None, backend: str | None = None,
              pg_options: Any = None, use_local_synchronization: bool = False,
              group_desc: str | None = None, device_id: Any = None) -> Any:
    """A group of the processes `ranks` (all, when None). Every process of the default
    group calls it; those outside get ``GroupMember.NON_GROUP_MEMBER``.

    Example::

        >>> evens = dist.new_group([0, 2])
    """
    default = _get_default_group()
    ranks = sorted(range(default.size()) if ranks is None else ranks)
    for rank in ranks:
        if not 0 <= rank < default.size():
            raise ValueError(f"Rank {rank} is out of range. Valid ranks are 0 to "
                             f"{default.size() - 1} (world_size={default.size()})")
    return _split(default, ranks, backend or default.name(), group_desc)


def _split(default: ProcessGroup, ranks: list, backend: str, description: str | None) -> Any:
    MPI = mpi_engine.mpi()
    me = default.rank()
    comm = default.comm.Split(0 if me in ranks else MPI.UNDEFINED, me)
    if me not in ranks:
        return GroupMember.NON_GROUP_MEMBER
    made = ProcessGroup(comm, ranks, _backend_name(backend), description or
                        str(len(_WORLD.groups)))
    _WORLD.groups.append(made)
    return made


def new_subgroups_by_enumeration(ranks_per_subgroup_list: list, timeout: Any = None,
                                 backend: str | None = None, pg_options: Any = None,
                                 group_desc: str | None = None) -> tuple:
    """One group per list of ranks; returns (this process's group, every group)."""
    _get_default_group()
    subgroups, mine = [], None
    for ranks in ranks_per_subgroup_list:
        made = new_group(ranks, backend=backend, group_desc=group_desc)
        subgroups.append(made)
        if made is not GroupMember.NON_GROUP_MEMBER:
            mine = made
    return mine, subgroups


def new_subgroups(group_size: int | None = None, group: Any = None, timeout: Any = None,
                  backend: str | None = None, pg_options: Any = None,
                  group_desc: str | None = None) -> tuple:
    """Groups of `group_size` consecutive ranks; returns (this process's, all of them)."""
    world_size = get_world_size()
    group_size = group_size or world_size
    if group_size <= 0:
        raise ValueError(f"The arg 'group_size' ({group_size}) must be positive")
    if world_size % group_size != 0:
        raise ValueError(f"The world size ({world_size}) must be divisible by "
                         f"'group_size={group_size}'")
    enumeration = [list(range(start, start + group_size))
                   for start in range(0, world_size, group_size)]
    return new_subgroups_by_enumeration(enumeration, backend=backend, group_desc=group_desc)


def split_group(parent_pg: Any = None, split_ranks: list | None = None, timeout: Any = None,
                pg_options: Any = None, group_desc: str | None = None,
                backend: str | None = None) -> Any:
    """Split the default group into the disjoint groups `split_ranks` (lists of global
    ranks); returns this process's group (None outside all of them)."""
    if parent_pg is not None and parent_pg is not _get_default_group():
        raise ValueError("split_group splits the default group only, here")
    if not split_ranks:
        raise ValueError("split_ranks cannot be None or empty")
    mine, _ = new_subgroups_by_enumeration(split_ranks, backend=backend, group_desc=group_desc)
    return mine


def shrink_group(ranks_to_exclude: list, group: Any = None, shrink_flags: int = 0,
                 pg_options: Any = None) -> Any:
    """A group of `group`'s ranks (default: all) but `ranks_to_exclude`."""
    kept = [r for r in get_process_group_ranks(group) if r not in set(ranks_to_exclude)]
    return new_group(kept)
