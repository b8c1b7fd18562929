"""DistributedDataParallel's communication hooks (`register_comm_hook`)."""
from . import default_hooks  # noqa: F401
