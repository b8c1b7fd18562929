"""torch.cuda.green_contexts: CUDA green contexts (a share of a GPU's SMs); none here."""
from __future__ import annotations

from ._unavailable import missing_binding

__all__ = ["GreenContext"]


class GreenContext:
    """A CUDA green context: a slice of a device's multiprocessors."""

    @staticmethod
    def create(*, num_sms: int, device_id: int = 0) -> "GreenContext":
        """A green context with `num_sms` multiprocessors of a device."""
        raise missing_binding("_CUDAGreenContext")
