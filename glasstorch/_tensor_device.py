"""Tensor's questions and moves about devices this build does not have.

glasstorch runs on `cpu` and `meta`, as torch's CPU-only wheel runs; a program written
for a GPU still asks `x.is_cuda`, calls `x.cuda()` or `x.pin_memory()`, and must get
torch's answers and torch's refusals (Note [Devices this build lacks] in c10/device.py).
`class Tensor` takes these methods from `TensorDeviceMixin`.
"""
from __future__ import annotations

import warnings

from .c10.device import (NO_ATEN_CUDA, check_copy_target, device as Device, device_type,
                         lazy_init_device)
from .c10.dtype import scalar_type_name
from .c10.layout import preserve_format
from .c10.stream import Stream
from .c10.tensor_impl import TensorBase

_NO_ACCELERATOR = "Cannot access accelerator device when none is available."
def _move(tensor: TensorBase, device_type: str, device) -> TensorBase:
    """`x.cuda(device)` and its siblings: a device of that type, or an ordinal (no device
    of any type has one here)."""
    if device is None:
        target = Device(device_type)
    elif isinstance(device, int) and not isinstance(device, bool):
        raise RuntimeError(_NO_ACCELERATOR)
    else:
        target = Device(device)
        if target.type != device_type:
            raise RuntimeError(f"Invalid device, must be {device_type} device")
    check_copy_target(target)
    return tensor.to(target)


def _warn_device_argument(method: str) -> None:
    warnings.warn(f"The argument 'device' of Tensor.{method}() is deprecated. Please do not "
                  f"pass this argument.", DeprecationWarning, stacklevel=3)


class TensorDeviceMixin:
    """Device predicates and moves of `Tensor` (see the module's docstring)."""

    __slots__ = ()

    is_xpu = property(lambda self: False, doc="Whether the tensor is on an XPU: never here.")
    is_mps = property(lambda self: False, doc="Whether the tensor is on MPS: never here.")
    is_ipu = property(lambda self: False, doc="Whether the tensor is on an IPU: never here.")
    is_mtia = property(lambda self: False, doc="Whether the tensor is on MTIA: never here.")
    is_maia = property(lambda self: False, doc="Whether the tensor is on MAIA: never here.")
    is_xla = property(lambda self: False, doc="Whether the tensor is on XLA: never here.")
    is_vulkan = property(lambda self: False, doc="Whether the tensor is on Vulkan: never here.")

    def cuda(self, device=None, non_blocking: bool = False, memory_format=preserve_format):
        """A copy of this tensor in CUDA memory; a CPU-only build has none.

        Args:
            device (torch.device, optional): the CUDA device (the current one if None).
            non_blocking (bool): copy asynchronously where possible.
            memory_format (torch.memory_format): the layout of the copy.

        Raises:
            AssertionError: always here, "Torch not compiled with CUDA enabled".

        Example::

            >>> x = torch.ones(2)
            >>> x = x.cuda() if torch.cuda.is_available() else x
        """
        return _move(self, "cuda", device)

    def xpu(self, device=None, non_blocking: bool = False, memory_format=preserve_format):
        """A copy of this tensor in XPU memory; this build has none (see `cuda`)."""
        return _move(self, "xpu", device)

    def mtia(self, device=None, non_blocking: bool = False, memory_format=preserve_format):
        """A copy of this tensor in MTIA memory; this build has none (see `cuda`)."""
        return _move(self, "mtia", device)

    def ipu(self, device=None, non_blocking: bool = False, memory_format=preserve_format):
        """A copy of this tensor in IPU memory; this build has none (see `cuda`)."""
        return _move(self, "ipu", device)

    def pin_memory(self, device=None) -> TensorBase:
        """A copy of this tensor in page-locked memory, for fast copies to an accelerator;
        without one there is no pinned allocator, and torch refuses.

        Raises:
            RuntimeError: no accelerator (or a meta tensor, which holds no data).
        """
        if device is not None:
            _warn_device_argument("pin_memory")
            target = Device(device)
            if target.type == "cpu":
                raise RuntimeError("CPU device type not an accelerator.")
            if target.type == "cuda":
                raise RuntimeError(NO_ATEN_CUDA)
            lazy_init_device(target)
            raise RuntimeError(_NO_ACCELERATOR)
        if not device_type(self._device).holds_data:
            kind = device_type(self._device).backend + scalar_type_name(self._dtype)
            raise RuntimeError(f"cannot pin '{kind}Type' only dense CPU tensors can be pinned")
        raise RuntimeError(_NO_ACCELERATOR)

    def is_pinned(self, device=None) -> bool:
        """Whether the tensor is in pinned memory: never, without an accelerator."""
        if device is not None:
            _warn_device_argument("is_pinned")
        return False

    def record_stream(self, stream) -> None:
        """Mark the tensor as used by `stream` (for the CUDA caching allocator): CPU
        tensors have no kernel for it, as in torch."""
        if not isinstance(stream, Stream):
            raise RuntimeError("unknown parameter type")
        raise NotImplementedError(
            "Could not run 'aten::record_stream' with arguments from the 'CPU' backend. This "
            "could be because the operator doesn't exist for this backend, or was omitted "
            "during the selective/custom build process (if using custom build).")
