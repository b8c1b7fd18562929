"""torch.distributed, as a build without a communication backend has it.

Every public name of the process-group API is here; `is_available()` is False and a
process group cannot be made (Note [No communication backend] in c10d.py).
"""
from . import c10d
from .c10d import _get_default_group  # noqa: F401
from .c10d import (  # noqa: F401
    destroy_process_group, get_default_backend_for_device, init_process_group, is_available,
    is_gloo_available, is_initialized, is_mpi_available, is_nccl_available,
    is_torchelastic_launched, is_ucc_available, is_xccl_available)
from .c10d_types import (  # noqa: F401
    Backend, DistBackendError, DistError, DistNetworkError, DistStoreError, GroupMember,
    ProcessGroup, ReduceOp, Store, Work, group)

# the collectives and group queries, each refusing as torch does before a group exists
globals().update({name: getattr(c10d, name) for name in c10d._COLLECTIVES})
