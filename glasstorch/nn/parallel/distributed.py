"""DistributedDataParallel: needs a process group, which a backend-less build never has
(Note [No communication backend] in glasstorch/distributed/c10d.py)."""
from __future__ import annotations

from typing import Any

from ... import distributed
from ..modules.module import Module


class DistributedDataParallel(Module):
    """Synchronise gradients of `module` across processes: refused without a process group.

    Raises:
        ValueError: torch's "Default process group has not been initialized" error,
            as no process group can exist here.
    """

    def __init__(self, module: Module, device_ids: Any = None, output_device: Any = None,
                 dim: int = 0, broadcast_buffers: bool | None = None, init_sync: bool = True,
                 process_group: Any = None, bucket_cap_mb: float | None = None,
                 find_unused_parameters: bool = False, check_reduction: bool = False,
                 gradient_as_bucket_view: bool = False, static_graph: bool = False,
                 **other_options: Any) -> None:
        super().__init__()
        if process_group is None:
            distributed._get_default_group()
        raise ValueError("DistributedDataParallel needs an initialized process group")
