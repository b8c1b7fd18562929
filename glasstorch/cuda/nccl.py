"""torch.cuda.nccl: NCCL collectives over CUDA tensors; this build has no NCCL."""
from __future__ import annotations

import warnings

from ._unavailable import missing_binding

__all__ = ["all_reduce", "reduce", "broadcast", "all_gather", "reduce_scatter"]


def is_available(tensors) -> bool:
    """Whether NCCL can run on `tensors`: never, here (with torch's warning)."""
    warnings.warn("PyTorch is not compiled with NCCL support", stacklevel=2)
    return False


def version():
    """The NCCL version this build links (none)."""
    raise missing_binding("_nccl_version")


def _collective(name: str, binding: str):
    def collective(*args, **kwargs):
        raise missing_binding(binding)
    collective.__name__ = collective.__qualname__ = name
    collective.__doc__ = f"NCCL's {name} over CUDA tensors (no NCCL here)."
    return collective


all_reduce = _collective("all_reduce", "_nccl_all_reduce")
reduce = _collective("reduce", "_nccl_reduce")
broadcast = _collective("broadcast", "_nccl_broadcast")
all_gather = _collective("all_gather", "_nccl_all_gather")
reduce_scatter = _collective("reduce_scatter", "_nccl_reduce_scatter")
