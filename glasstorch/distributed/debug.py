"""The smaller helpers of torch.distributed's namespace: the debug level, backend and
complex-support queries, and DeviceMesh's entry point."""
from __future__ import annotations

import os
from typing import Any

from . import c10d, mpi_engine
from .c10d_types import DebugLevel, ReduceOp


class _Debug:
    level = DebugLevel.OFF


def get_debug_level() -> DebugLevel:
    """How much torch.distributed checks and logs (TORCH_DISTRIBUTED_DEBUG)."""
    return _Debug.level


def set_debug_level(level: DebugLevel) -> None:
    """Set how much torch.distributed checks and logs."""
    _Debug.level = level


def set_debug_level_from_env() -> None:
    """Read TORCH_DISTRIBUTED_DEBUG (OFF, INFO or DETAIL)."""
    set_debug_level(DebugLevel[os.getenv("TORCH_DISTRIBUTED_DEBUG", "OFF").upper()])


def is_backend_available(backend: str) -> bool:
    """Whether `backend` can be used: "gloo" and "mpi", on the MPI engine."""
    return backend.lower() in ("gloo", "mpi") and mpi_engine.available()


def supports_complex(reduceOp: Any) -> bool:
    """Whether the reduction is defined on complex tensors (not the ordered ones)."""
    return reduceOp not in (ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PRODUCT, ReduceOp.BAND,
                            ReduceOp.BOR, ReduceOp.BXOR)


def init_device_mesh(device_type: str, mesh_shape: tuple, **kwargs: Any) -> Any:
    """Make a DeviceMesh: joins the default process group first; DeviceMesh itself is
    not part of glasstorch.

    Raises:
        NotImplementedError: once the group exists.
    """
    if not c10d.is_initialized():
        c10d.init_process_group()
    raise NotImplementedError("glasstorch does not implement torch.distributed.DeviceMesh")
