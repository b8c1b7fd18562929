"""torch.cuda.gds: GPUDirect Storage, reading files straight into CUDA memory (none here)."""
from __future__ import annotations

from ._unavailable import missing_binding

__all__ = ["gds_register_buffer", "gds_deregister_buffer", "GdsFile"]


def gds_register_buffer(s) -> None:
    """Register a CUDA storage as a GDS buffer."""
    raise missing_binding("_gds_register_buffer")


def gds_deregister_buffer(s) -> None:
    """Deregister a GDS buffer."""
    raise missing_binding("_gds_deregister_buffer")


class GdsFile:
    """A file opened for GPUDirect Storage reads and writes."""

    def __init__(self, filename: str, flags: int) -> None:
        raise missing_binding("_gds_register_handle")
