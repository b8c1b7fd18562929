"""torch.distributed, as a build without a communication backend has it.

Every public name of the process-group API is here; `is_available()` is False and a
process group cannot be made (Note [No communication backend] in c10d.py).
"""
import warnings
from datetime import timedelta  # noqa: F401 (torch re-exports it)

from . import c10d
from .c10d import _get_default_group  # noqa: F401
from .c10d import (  # noqa: F401
    destroy_process_group, get_default_backend_for_device, init_process_group, is_available,
    is_gloo_available, is_initialized, is_mpi_available, is_nccl_available,
    is_torchelastic_launched, is_ucc_available, is_xccl_available)
from .c10d_types import (  # noqa: F401
    AllreduceCoalescedOptions, AllreduceOptions, AllToAllOptions, Backend, BarrierOptions,
    BroadcastOptions, DebugLevel, DistBackendError, DistError, DistNetworkError,
    DistStoreError, GatherOptions, GroupMember, ProcessGroup, ReduceOp, ReduceOptions,
    ReduceScatterOptions, ScatterOptions, Store, Work, default_pg_timeout, group)
from .p2p import (  # noqa: F401
    P2POp, get_debug_level, get_pg_count, init_device_mesh, is_backend_available,
    register_rendezvous_handler, rendezvous, set_debug_level, set_debug_level_from_env,
    supports_complex)
from .stores import FileStore, HashStore, PrefixStore, TCPStore  # noqa: F401

# the collectives and group queries, each refusing as torch does before a group exists
globals().update({name: getattr(c10d, name) for name in c10d._COLLECTIVES})


def __getattr__(name: str):
    if name == "reduce_op":         # torch's deprecated spelling of ReduceOp
        warnings.warn("`torch.distributed.reduce_op` is deprecated, please use "
                      "`torch.distributed.ReduceOp` instead", FutureWarning, stacklevel=2)
        return ReduceOp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
