"""`torch.utils.dlpack`: exchanging tensors with other array libraries through DLPack
(the protocol lives with the tensor, in `glasstorch/_dlpack.py`)."""
from .._dlpack import DLDeviceType, from_dlpack, to_dlpack

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]
