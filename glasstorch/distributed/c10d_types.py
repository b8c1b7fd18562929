"""The value types of torch.distributed: reduce operations, backend names, groups, errors."""
from __future__ import annotations

import datetime
import enum


class ReduceOp:
    """How a collective combines the ranks' tensors (``ReduceOp.SUM``, ``ReduceOp.MAX``, ...)."""

    class RedOpType(int, enum.Enum):
        SUM = 0
        AVG = 1
        PRODUCT = 2
        MIN = 3
        MAX = 4
        BAND = 5
        BOR = 6
        BXOR = 7
        PREMUL_SUM = 8
        UNUSED = 9

    SUM = RedOpType.SUM
    AVG = RedOpType.AVG
    PRODUCT = RedOpType.PRODUCT
    MIN = RedOpType.MIN
    MAX = RedOpType.MAX
    BAND = RedOpType.BAND
    BOR = RedOpType.BOR
    BXOR = RedOpType.BXOR
    PREMUL_SUM = RedOpType.PREMUL_SUM


class Backend(str):
    """A backend's name, lower-cased: ``Backend("GLOO") == "gloo"``."""

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    XCCL = "xccl"
    UCC = "ucc"
    MPI = "mpi"
    backend_list = ["undefined", "gloo", "nccl", "xccl", "ucc", "mpi", "fake"]

    def __new__(cls, name: str) -> "Backend":
        if not isinstance(name, str):
            raise ValueError(f"Backend constructor parameter must be string-ish, "
                             f"but got: {type(name)}")
        return super().__new__(cls, name.lower())


class GroupMember:
    """The default group (``WORLD``: ``None`` until a process group is initialized)."""

    WORLD = None
    NON_GROUP_MEMBER = -100


class group:  # noqa: N801 (torch's name)
    """Alias of GroupMember's WORLD, as ``torch.distributed.group.WORLD``."""

    WORLD = None


class Store:
    """A key-value store the ranks rendezvous through."""


class DistError(RuntimeError):
    """Base of torch.distributed's errors."""


class DistBackendError(DistError):
    """A backend failed."""


class DistNetworkError(DistError):
    """A network operation failed."""


class DistStoreError(DistError):
    """A store operation failed."""


class DebugLevel(enum.Enum):
    """How much torch.distributed checks and logs (TORCH_DISTRIBUTED_DEBUG)."""

    OFF = 0
    INFO = 1
    DETAIL = 2

    def __str__(self) -> str:
        return f"DebugLevel.{self.name}"


default_pg_timeout = datetime.timedelta(minutes=30)


class _Options:
    """The options object of one collective: settable attributes, torch's defaults."""

    def __init__(self) -> None:
        self.timeout = datetime.timedelta(milliseconds=-1)


class AllreduceOptions(_Options):
    """Options of all_reduce."""


class AllreduceCoalescedOptions(AllreduceOptions):
    """Options of all_reduce_coalesced."""


class BroadcastOptions(_Options):
    """Options of broadcast."""


class ReduceOptions(_Options):
    """Options of reduce."""


class AllToAllOptions(_Options):
    """Options of all_to_all."""


class BarrierOptions(_Options):
    """Options of barrier."""


class GatherOptions(_Options):
    """Options of gather."""


class ScatterOptions(_Options):
    """Options of scatter."""


class ReduceScatterOptions(_Options):
    """Options of reduce_scatter."""
