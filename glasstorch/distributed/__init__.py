"""torch.distributed on the MPI engine: process groups, stores, every collective.

Processes meet in `init_process_group` (env://, tcp://, file:// or a store) and move
tensors with MPI calls on their memory (Note [MPI engine] in mpi_engine.py); launch them
with ``python -m torch.distributed.run --nproc_per_node N script.py`` (run.py).
"""
import warnings
from datetime import timedelta  # noqa: F401 (torch re-exports it)

from . import c10d
from .c10d import (  # noqa: F401
    _get_default_group, destroy_process_group, get_backend, get_backend_config,
    get_default_backend_for_device, get_global_rank, get_group_rank, get_node_local_rank,
    get_pg_count, get_process_group_ranks, get_rank, get_world_size, init_process_group,
    is_available, is_gloo_available, is_initialized, is_mpi_available, is_nccl_available,
    is_torchelastic_launched, is_ucc_available, is_xccl_available, new_group,
    new_subgroups, new_subgroups_by_enumeration, shrink_group, split_group)
from .c10d_types import (  # noqa: F401
    AllreduceCoalescedOptions, AllreduceOptions, AllToAllOptions, Backend, BarrierOptions,
    BroadcastOptions, DebugLevel, DistBackendError, DistError, DistNetworkError,
    DistStoreError, GatherOptions, GroupMember, ReduceOp, ReduceOptions,
    ReduceScatterOptions, ScatterOptions, Store, default_pg_timeout, group)
from .coalesced import (  # noqa: F401
    all_gather_coalesced, all_gather_single, all_reduce_coalesced, breakpoint,
    reduce_scatter_single)
from .collectives import (  # noqa: F401
    all_gather, all_gather_into_tensor, all_reduce, barrier, broadcast, gather,
    monitored_barrier, reduce, scatter)
from .debug import (  # noqa: F401
    get_debug_level, init_device_mesh, is_backend_available, set_debug_level,
    set_debug_level_from_env, supports_complex)
from .exchanges import (  # noqa: F401
    all_to_all, all_to_all_single, reduce_scatter, reduce_scatter_tensor)
from .object_collectives import (  # noqa: F401
    all_gather_object, broadcast_object_list, gather_object, recv_object_list,
    scatter_object_list, send_object_list)
from .p2p import P2POp, batch_isend_irecv, irecv, isend, recv, send  # noqa: F401
from .process_group import ProcessGroup, Work  # noqa: F401
from .rendezvous import register_rendezvous_handler, rendezvous  # noqa: F401
from .stores import FileStore, HashStore, PrefixStore, TCPStore  # noqa: F401


def __getattr__(name: str):
    if name == "reduce_op":         # torch's deprecated spelling of ReduceOp
        warnings.warn("`torch.distributed.reduce_op` is deprecated, please use "
                      "`torch.distributed.ReduceOp` instead", FutureWarning, stacklevel=2)
        return ReduceOp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
