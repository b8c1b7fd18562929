"""DLPack: handing tensor memory to other array libraries and taking theirs, no copy.

DLPack is the array libraries' shared description of a block of memory (pointer,
dtype, shape, strides, device), passed as a PyCapsule. glasstorch's CPU tensors are
NumPy arrays underneath, and NumPy speaks DLPack both ways, so the exchange goes
through NumPy: ``Tensor.__dlpack__`` exports the tensor's own ndarray view, and
`from_dlpack` imports any producer (NumPy, torch, JAX, CuPy on CPU, a bare capsule)
as an ndarray that becomes a tensor over the same memory.
"""
from __future__ import annotations

import ctypes
import enum

import numpy as np

from .c10.device import device as Device


class DLDeviceType(enum.IntEnum):
    """DLPack's device codes (``__dlpack_device__()[0]``)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


_CONSUMED = ("from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
             "consumed only once, so you might have already constructed a tensor from it once.")


class TensorDLPack:
    """The DLPack protocol of `Tensor` (a base of it)."""

    __slots__ = ()

    def __dlpack__(self, *, stream=-1, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over this tensor's memory, for another library's
        ``from_dlpack`` (NumPy's, torch's, ...).

        Args:
            stream: ignored on the CPU.
            max_version (tuple of int): the highest DLPack version the consumer reads.
            dl_device: the device the consumer wants (only the CPU here).
            copy (bool): whether to export a copy.
        """
        if self.requires_grad:
            raise BufferError("Can't export tensors that require gradient, use "
                              "tensor.detach()")
        if self._device.type != "cpu":
            raise BufferError(f"Cannot pack tensors on {self._device.type}")
        return self.numpy().__dlpack__(max_version=max_version, dl_device=dl_device,
                                       copy=copy)

    def __dlpack_device__(self) -> tuple:
        """(device type, index) of this tensor's memory, as DLPack codes."""
        return DLDeviceType.kDLCPU, 0


class _Capsule:
    """A bare DLPack capsule given the producer protocol NumPy reads."""

    def __init__(self, capsule) -> None:
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self) -> tuple:
        return DLDeviceType.kDLCPU, 0


def from_dlpack(ext_tensor, *, device=None, copy: bool | None = None):
    """A tensor over the memory of another library's array (no copy), or of a DLPack
    capsule (which can be read once).

    Args:
        ext_tensor: an object with ``__dlpack__`` (a NumPy array, a torch tensor, ...)
            or a DLPack capsule.

    Keyword args:
        device: where the result should live (only the CPU here).
        copy (bool, optional): True to copy, False to refuse copying, None for either.

    Example::

        >>> a = numpy.arange(3.)
        >>> t = torch.from_dlpack(a); t[0] = 7; a
        array([7., 1., 2.])
    """
    if device is not None and Device(device).type != "cpu":
        raise BufferError(f"Cannot pack tensors on {Device(device).type}")
    producer = ext_tensor if hasattr(ext_tensor, "__dlpack__") else _Capsule(ext_tensor)
    try:
        array = np.from_dlpack(producer, copy=copy)
    except BufferError as error:
        if "dtype" in str(error):
            raise RuntimeError("Unsupported dtype in DLTensor.") from None
        raise
    except (TypeError, ValueError):
        raise RuntimeError(_CONSUMED) from None
    if isinstance(producer, _Capsule):
        array = _writable(array)
    from ._tensor_new import from_numpy         # loaded on first use (import time)
    return from_numpy(array)


def _writable(array: np.ndarray) -> np.ndarray:
    """NumPy marks what it reads from a bare (legacy) capsule read-only, where torch
    lets the tensor be written: the same memory, viewed writable (the view keeps
    `array`, and so the capsule's owner, alive)."""
    if array.flags.writeable or array.size == 0:
        return array
    span = sum((n - 1) * s for n, s in zip(array.shape, array.strides)) + array.itemsize
    memory = (ctypes.c_char * span).from_address(array.__array_interface__["data"][0])
    memory.owner = array
    return np.ndarray(array.shape, array.dtype, buffer=memory, strides=array.strides)


def to_dlpack(tensor):
    """A DLPack capsule over `tensor`'s memory (the legacy form of ``__dlpack__``), for
    another library's ``from_dlpack``; it can be read once."""
    return tensor.__dlpack__()
