"""The process-group API of a build without a communication backend.

# Note [No communication backend]
#
# torch's CPU wheel ships Gloo; glasstorch ships no backend, so it answers as a torch
# build without one: `is_available()` is False and `is_initialized()` stays False.
# `init_process_group` checks its rendezvous (env:// needs RANK, WORLD_SIZE,
# MASTER_ADDR, MASTER_PORT) and then refuses with torch's message for a backend not
# built in; every collective, asked before a group exists, raises torch's
# "Default process group has not been initialized" error. Single-process programs
# (which never initialize) run; distributed ones fail at their first call, clearly.
"""
from __future__ import annotations

import os
from typing import Any, Callable

from .c10d_types import Backend

_NOT_INITIALIZED = ("Default process group has not been initialized, please make sure "
                    "to call init_process_group.")
_NOT_BUILT = {"gloo": "Gloo", "nccl": "NCCL", "xccl": "XCCL", "mpi": "MPI"}


def is_available() -> bool:
    """Whether this build can communicate between processes: no (Note [No communication backend])."""
    return False


def is_initialized() -> bool:
    """Whether the default process group exists: never, here."""
    return False


def is_gloo_available() -> bool:
    """Whether the Gloo backend is built in: no."""
    return False


is_nccl_available = is_mpi_available = is_ucc_available = is_xccl_available = is_gloo_available


def is_torchelastic_launched() -> bool:
    """Whether the process was started by torchelastic (torchrun): it sets TORCHELASTIC_RUN_ID."""
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def get_default_backend_for_device(device: Any) -> str:
    """The backend torch picks for a device type ("gloo" for the CPU)."""
    device_type = getattr(device, "type", str(device)).split(":")[0]
    if device_type != "cpu":
        raise RuntimeError(f"Default backend not registered for device : {device_type}")
    return "gloo"


def init_process_group(backend: str | None = None, init_method: str | None = None,
                       timeout: Any = None, world_size: int = -1, rank: int = -1,
                       store: Any = None, group_name: str = "", pg_options: Any = None,
                       device_id: Any = None, _ranks: list | None = None) -> None:
    """Join the default process group: refused, as by a build without the backend.

    Raises:
        ValueError: the env:// rendezvous lacks a variable (checked first, as torch does).
        RuntimeError: the backend is not built in (every backend, here).
        AssertionError: the backend name is unknown.
    """
    if store is not None and init_method is not None:
        raise AssertionError("Cannot specify both init_method and store.")
    if store is None and (init_method is None or init_method.startswith("env://")):
        _check_env_rendezvous(rank, world_size)
    name = Backend(backend or "gloo")
    if name == "ucc":
        raise AssertionError("Unknown c10d backend type UCC")
    if name not in _NOT_BUILT:
        raise AssertionError(f"Unknown backend type {name}")
    message = f"Distributed package doesn't have {_NOT_BUILT[name]} built in"
    if name == "mpi":
        message += (". MPI is only included if you build PyTorch from source on a host "
                    "that has MPI installed.")
    raise RuntimeError(message)


def _check_env_rendezvous(rank: int, world_size: int) -> None:
    needed = [("RANK", rank != -1), ("WORLD_SIZE", world_size != -1),
              ("MASTER_ADDR", False), ("MASTER_PORT", False)]
    for variable, given in needed:
        if not given and variable not in os.environ:
            raise ValueError("Error initializing torch.distributed using env:// rendezvous: "
                             f"environment variable {variable} expected, but not set")


def destroy_process_group(group: Any = None) -> None:
    """Leave a process group: there is none to leave."""
    raise AssertionError("Process group cannot be None")


def _get_default_group() -> Any:
    """The default process group; none exists, so this raises torch's error."""
    raise ValueError(_NOT_INITIALIZED)


def _needs_group(name: str) -> Callable:
    """A collective (or group query): each needs the default group, which never exists."""
    def collective(*args: Any, **kwargs: Any) -> Any:
        _get_default_group()
    collective.__name__ = collective.__qualname__ = name
    collective.__doc__ = (f"torch.distributed.{name}: needs an initialized process group "
                          "(Note [No communication backend]).")
    return collective


_COLLECTIVES = (
    "get_rank", "get_world_size", "get_backend", "new_group", "new_subgroups", "barrier",
    "monitored_barrier", "broadcast", "broadcast_object_list", "all_reduce", "reduce",
    "all_gather", "all_gather_into_tensor", "all_gather_object", "gather", "gather_object",
    "scatter", "scatter_object_list", "reduce_scatter", "reduce_scatter_tensor",
    "all_to_all", "all_to_all_single", "send", "recv", "isend", "irecv", "send_object_list",
    "recv_object_list", "batch_isend_irecv", "get_global_rank", "get_group_rank",
    "get_process_group_ranks", "get_node_local_rank", "all_gather_coalesced",
    "all_reduce_coalesced", "new_subgroups_by_enumeration", "split_group", "shrink_group",
    "get_backend_config", "breakpoint", "all_gather_single", "reduce_scatter_single")
globals().update({name: _needs_group(name) for name in _COLLECTIVES})
