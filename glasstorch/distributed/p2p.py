"""Point-to-point operations and the smaller helpers of torch.distributed's namespace."""
from __future__ import annotations

import os
from typing import Any, Callable

from . import c10d
from .c10d_types import DebugLevel, ReduceOp

_debug_level = DebugLevel.OFF
_rendezvous_handlers: dict = {}


class P2POp:
    """One send or receive for `batch_isend_irecv`: ``P2POp(dist.isend, tensor, peer)``."""

    def __init__(self, op: Callable, tensor: Any, peer: int | None = None, group: Any = None,
                 tag: int = 0, group_peer: int | None = None) -> None:
        if op not in (c10d.isend, c10d.irecv):
            raise ValueError("Invalid ``op``. Expected ``op`` to be of type "
                             "``torch.distributed.isend`` or ``torch.distributed.irecv``.")
        self.op, self.tensor, self.peer, self.group = op, tensor, peer, group
        self.tag, self.group_peer = tag, group_peer


def is_backend_available(backend: str) -> bool:
    """Whether `backend` is built in: none is (Note [No communication backend])."""
    return False


def supports_complex(reduceOp: Any) -> bool:
    """Whether the reduction is defined on complex tensors (not the ordered ones)."""
    return reduceOp not in (ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PRODUCT, ReduceOp.BAND,
                            ReduceOp.BOR, ReduceOp.BXOR)


def get_pg_count() -> int:
    """How many process groups exist: none."""
    return 0


def get_debug_level() -> DebugLevel:
    return _debug_level


def set_debug_level(level: DebugLevel) -> None:
    global _debug_level
    _debug_level = level


def set_debug_level_from_env() -> None:
    """Read TORCH_DISTRIBUTED_DEBUG (OFF, INFO or DETAIL)."""
    set_debug_level(DebugLevel[os.getenv("TORCH_DISTRIBUTED_DEBUG", "OFF").upper()])


def register_rendezvous_handler(scheme: str, handler: Callable) -> None:
    """Add a rendezvous handler for URLs of `scheme`."""
    if scheme in _rendezvous_handlers:
        raise RuntimeError(f"Rendezvous handler for {scheme}:// already registered")
    _rendezvous_handlers[scheme] = handler


def rendezvous(url: str, rank: int = -1, world_size: int = -1, **kwargs: Any) -> Any:
    """Meet the other ranks at `url`: checked as torch does, then refused (no backend)."""
    if url.startswith("env://"):
        c10d._check_env_rendezvous(rank, world_size)
    raise RuntimeError("glasstorch does not implement torch.distributed.rendezvous: it has no "
                       "communication backend (a later issue)")


def init_device_mesh(device_type: str, mesh_shape: tuple, **kwargs: Any) -> Any:
    """Make a DeviceMesh: joins the default process group first, which is refused here."""
    c10d.init_process_group()
