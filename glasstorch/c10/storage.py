"""`UntypedStorage`: one flat byte buffer that many tensors view.

On CPU the bytes are a 1-D uint8 NumPy array. A storage created to hold the result
of a kernel may instead start from the kernel's own (contiguous) output array; its
byte view is then made only when someone asks for it, which keeps result
allocation to a single NumPy call. On `meta` there are no bytes at all, only a size.
"""
from __future__ import annotations

import weakref

import numpy as np

from . import cpu_allocator  # noqa: F401  (Note [Keeping freed memory])
from .device import CPU, META, device


class StorageBase:
    """The base of `UntypedStorage` (``isinstance(s, torch.StorageBase)`` asks whether
    `s` is an untyped storage)."""

    __slots__ = ()
    __module__ = "torch._C"


class UntypedStorage(StorageBase):
    """A contiguous block of memory, typeless: tensors give it dtype and shape.

    Args:
        size: the number of bytes.
        device: where the bytes live (``'cpu'`` or ``'meta'``).

    Example::

        >>> s = torch.UntypedStorage(8)
        >>> s.nbytes()
        8
    """

    __slots__ = ("_bytes", "_owner", "_nbytes", "device", "__weakref__")

    def __init__(self, size: int = 0, *, device="cpu") -> None:
        dev = device if type(device) is _device_type else _device_type(device)
        self.device = dev
        self._nbytes = size
        self._owner = None
        self._bytes = np.zeros(size, np.uint8) if dev.type == "cpu" else None

    @classmethod
    def _wrap(cls, array: np.ndarray, resizable: bool = True) -> "UntypedStorage":
        """A CPU storage over the memory of a C-contiguous array (no copy); memory that
        belongs to someone else (a NumPy array, a buffer, a file) is not `resizable`."""
        self = object.__new__(cls)
        self.device = CPU
        self._nbytes = array.nbytes
        self._owner = array
        self._bytes = None
        if not resizable:
            _NOT_RESIZABLE.add(self)
        return self

    @classmethod
    def _meta(cls, nbytes: int) -> "UntypedStorage":
        self = object.__new__(cls)
        self.device = META
        self._nbytes = nbytes
        self._owner = None
        self._bytes = None
        return self

    @property
    def _data(self) -> np.ndarray:
        """The bytes as a flat uint8 array (CPU only)."""
        data = self._bytes
        if data is None:
            if self._owner is None:
                raise NotImplementedError(
                    f"Cannot access data pointer of Tensor (e.g. FakeTensor, FunctionalTensor). "
                    f"The storage is on the '{self.device.type}' device and holds no data.")
            data = self._bytes = self._owner.reshape(-1).view(np.uint8)
        return data

    def nbytes(self) -> int:
        """The size of the buffer in bytes."""
        return self._nbytes

    def size(self) -> int:
        """The size of the buffer in bytes (an untyped storage counts bytes)."""
        return self._nbytes

    def __len__(self) -> int:
        return self._nbytes

    def data_ptr(self) -> int:
        """The address of the first byte; equal for tensors sharing this storage."""
        if self.device.type == "meta":
            return 0
        return self._data.ctypes.data

    def element_size(self) -> int:
        return 1

    @property
    def is_cpu(self) -> bool:
        return self.device.type == "cpu"

    @property
    def is_meta(self) -> bool:
        return self.device.type == "meta"

    def resize_(self, size: int) -> "UntypedStorage":
        """Grow or shrink the buffer to `size` bytes, keeping the leading bytes.

        Tensors over this storage whose NumPy view was already built keep reading the
        old buffer; glasstorch rebuilds the view of the tensor that asked for the
        resize (see Note [Cached ndarray views] in tensor_impl.py).
        """
        if size < 0:
            raise RuntimeError(f"resize_(): size must be non-negative, got {size}")
        if size != self._nbytes and self in _NOT_RESIZABLE:
            raise RuntimeError("Trying to resize storage that is not resizable")
        if self.device.type == "cpu":
            fresh = np.zeros(size, np.uint8)
            keep = min(size, self._nbytes)
            fresh[:keep] = self._data[:keep]
            self._bytes = fresh
            self._owner = None
        self._nbytes = size
        return self

    def resizable(self) -> bool:
        """Whether `resize_` may reallocate the bytes (not for memory owned elsewhere)."""
        return self not in _NOT_RESIZABLE

    def share_memory_(self) -> "UntypedStorage":
        """Move the bytes to memory shared with child processes (an anonymous shared
        mapping, which forked workers see); a no-op when they are there already. Tensors
        whose NumPy view was built before keep the old bytes (Note [Cached ndarray
        views]): `Tensor.share_memory_` rebuilds its own."""
        if self.device.type == "cpu" and not self.is_shared():
            import mmap         # few programs share memory: not loaded at import
            mapping = mmap.mmap(-1, max(self._nbytes, 1))
            shared = np.frombuffer(mapping, np.uint8)[:self._nbytes]
            shared[:] = self._data
            self._bytes = shared
            self._owner = None
            _NOT_RESIZABLE.discard(self)         # the bytes are its own now
        return self

    def is_shared(self) -> bool:
        """Whether the bytes live in a shared memory mapping (`share_memory_`)."""
        import mmap
        base = self._bytes
        while isinstance(base, np.ndarray):
            base = base.base
        return isinstance(getattr(base, "obj", base), mmap.mmap)    # a memoryview's owner

    def tolist(self) -> list:
        return self._data.tolist()

    def __getitem__(self, index):
        return self._data[index].tolist()

    def __setitem__(self, index, value) -> None:
        self._data[index] = value

    def fill_(self, value: int) -> "UntypedStorage":
        self._data[:] = value
        return self

    def copy_(self, source: "UntypedStorage") -> "UntypedStorage":
        if source.nbytes() != self._nbytes:
            raise RuntimeError(f"size mismatch: storage of {self._nbytes} bytes cannot copy "
                               f"a storage of {source.nbytes()} bytes")
        self._data[:] = source._data
        return self

    def clone(self) -> "UntypedStorage":
        if self.device.type == "meta":
            return UntypedStorage._meta(self._nbytes)
        return UntypedStorage._wrap(self._data.copy())

    def cpu(self) -> "UntypedStorage":
        return self

    def __repr__(self) -> str:
        if self.device.type == "meta":
            body = "..."
        else:
            # One byte per line, each after a space; an empty storage keeps the lone space.
            body = " " + "\n ".join(str(b) for b in self._data.tolist())
        return f"{body}\n[torch.storage.UntypedStorage(device={self.device.type}) of size {self._nbytes}]"


_device_type = device
# Storages over memory owned elsewhere (weakly held: the flag goes with the storage).
_NOT_RESIZABLE: "weakref.WeakSet[UntypedStorage]" = weakref.WeakSet()
