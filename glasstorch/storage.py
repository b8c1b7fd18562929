"""`torch.storage`: typed storages, the deprecated element view of an `UntypedStorage`.

A `TypedStorage` is an `UntypedStorage` (bytes) seen as elements of one dtype: what
``Tensor.storage()`` returns and what old code builds with ``torch.FloatStorage(3)``.
torch keeps the classes for compatibility and warns, once, that they will go. The
legacy names (`FloatStorage`, `LongStorage`, ...) make `TypedStorage` objects of their
dtype and answer `isinstance` by dtype, as torch's do.
"""
from __future__ import annotations

from ._tensor_new import tensor
from .aten.context import warn_once
from .c10 import dtype as dtypes
from .c10.device import device as Device
from .c10.dtype import scalar_type_name
from .c10.promotion import get_default_dtype
from .c10.storage import UntypedStorage
from .c10.tensor_impl import TensorBase, make_tensor

__all__ = ["TypedStorage", "UntypedStorage"]
HAS_NUMPY = True                # glasstorch is written over NumPy


def warn_typed_storage_removal() -> None:
    """torch's once-per-process warning that typed storages are deprecated."""
    warn_once("TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
              "will be the only storage class. This should only matter to you if you are using "
              "storages directly.  To access UntypedStorage directly, use "
              "tensor.untyped_storage() instead of tensor.storage()", stacklevel=3)


class TypedStorage:
    """Elements of one dtype over an `UntypedStorage` (deprecated by torch).

    Args:
        size or sequence (optional): how many elements (uninitialised), or their values.

    Keyword args:
        dtype (torch.dtype): the element type (default: `torch.get_default_dtype()`).
        device: where the storage lives.
        wrap_storage (UntypedStorage): view these bytes instead of allocating.

    Example::

        >>> s = torch.TypedStorage([1, 2, 3], dtype=torch.int64)
        >>> s.size(), s[1]
        (3, 2)
    """

    is_sparse = False

    def __init__(self, *args, device=None, dtype=None, wrap_storage=None, _internal=False):
        if not _internal:
            warn_typed_storage_removal()
        self.dtype = dtype or get_default_dtype()
        if wrap_storage is not None:
            if not isinstance(wrap_storage, UntypedStorage):
                raise AssertionError(f"expected UntypedStorage, got "
                                     f"{type(wrap_storage).__name__}")
            self._untyped_storage = wrap_storage
        else:
            self._untyped_storage = _allocate(args, self.dtype, device)

    # ----- the elements -------------------------------------------------------------
    def _elements(self) -> TensorBase:
        """A 1-D tensor over every element (the storage's bytes, no copy)."""
        return make_tensor(self._untyped_storage, (self.size(),), (1,), 0, self.dtype)

    def size(self) -> int:
        """The number of elements."""
        return self._untyped_storage.nbytes() // self.dtype.itemsize

    def __len__(self) -> int:
        return self.size()

    def _index(self, idx) -> int:
        if isinstance(idx, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if not isinstance(idx, int):
            raise RuntimeError(f"can't index a {type(self)} with {type(idx)}")
        if not -self.size() <= idx < self.size():
            raise IndexError(f"index {idx} out of range for storage of size {self.size()}")
        return idx % self.size()

    def __getitem__(self, idx):
        return self._elements()[self._index(idx)].item()

    def __setitem__(self, idx, value) -> None:
        self._elements()[self._index(idx)] = value

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self) -> list:
        return self._elements().tolist()

    def fill_(self, value) -> "TypedStorage":
        self._elements().fill_(value)
        return self

    def copy_(self, source, non_blocking=None) -> "TypedStorage":
        elements = source._elements() if isinstance(source, TypedStorage) else source
        self._elements().copy_(elements)
        return self

    # ----- what it is -----------------------------------------------------------------
    @property
    def device(self) -> Device:
        return self._untyped_storage.device

    @property
    def is_cuda(self) -> bool:
        return False

    def get_device(self):
        """The CUDA device index; None for a CPU storage, as in torch."""
        return None

    def untyped(self) -> UntypedStorage:
        """The bytes under the elements."""
        return self._untyped_storage

    def nbytes(self) -> int:
        return self._untyped_storage.nbytes()

    def element_size(self) -> int:
        return self.dtype.itemsize

    def data_ptr(self) -> int:
        return self._untyped_storage.data_ptr()

    def is_shared(self) -> bool:
        return self._untyped_storage.is_shared()

    def share_memory_(self) -> "TypedStorage":
        self._untyped_storage.share_memory_()
        return self

    def is_pinned(self, device="cuda") -> bool:
        return False

    def resize_(self, size: int) -> None:
        self._untyped_storage.resize_(size * self.dtype.itemsize)

    def pickle_storage_type(self) -> str:
        return f"{scalar_type_name(self.dtype)}Storage"

    def type(self, dtype=None, non_blocking=False):
        """The legacy type name (``'torch.FloatStorage'``), or a copy as another type."""
        if dtype is None:
            return f"torch.{self.pickle_storage_type()}"
        target = getattr(dtype, "dtype", dtype)
        return self._converted(target)

    # ----- copies -----------------------------------------------------------------------
    def clone(self) -> "TypedStorage":
        return TypedStorage(wrap_storage=self._untyped_storage.clone(), dtype=self.dtype,
                            _internal=True)

    def cpu(self) -> "TypedStorage":
        return self

    def _converted(self, dtype) -> "TypedStorage":
        if dtype is self.dtype:
            return self
        converted = self._elements().to(dtype)
        return TypedStorage(wrap_storage=converted._storage, dtype=dtype, _internal=True)

    def __repr__(self) -> str:
        info = (f"[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device.type}) "
                f"of size {len(self)}]")
        if self.device.type == "meta":
            return "...\n" + info
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info

    __str__ = __repr__


def _conversion(dtype):
    def convert(self) -> TypedStorage:
        return self._converted(dtype)
    convert.__doc__ = f"A copy of the elements as {dtype} (this storage if it is one)."
    return convert


for _name, _dtype in (("double", dtypes.float64), ("float", dtypes.float32),
                      ("half", dtypes.float16), ("bfloat16", dtypes.bfloat16),
                      ("long", dtypes.int64), ("int", dtypes.int32), ("short", dtypes.int16),
                      ("char", dtypes.int8), ("byte", dtypes.uint8), ("bool", dtypes.bool),
                      ("complex_float", dtypes.complex64),
                      ("complex_double", dtypes.complex128)):
    setattr(TypedStorage, _name, _conversion(_dtype))


def _allocate(args: tuple, dtype, device) -> UntypedStorage:
    """The bytes of a new typed storage: empty, `size` elements, or a sequence's values."""
    if len(args) > 1:
        raise RuntimeError("TypedStorage takes at most one positional argument: a size or a "
                           "sequence")
    where = Device(device) if device is not None else Device("cpu")
    if not args:
        return UntypedStorage(0, device=where)
    if isinstance(args[0], int):
        return UntypedStorage(args[0] * dtype.itemsize, device=where)
    return tensor(list(args[0]), dtype=dtype, device=where)._storage


class _LegacyStorageMeta(type):
    """`isinstance(s, torch.FloatStorage)`: a typed storage of that dtype."""

    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, TypedStorage) and instance.dtype is cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


class _LegacyStorage(TypedStorage, metaclass=_LegacyStorageMeta):
    """A legacy storage name: calling it makes a `TypedStorage` of its dtype."""

    dtype = None

    def __new__(cls, *args, wrap_storage=None, **kwargs):
        if kwargs or len(args) > 1:
            reason = (f"Keyword argument '{next(iter(kwargs))}' cannot be specified" if kwargs
                      else "Too many positional arguments")
            raise RuntimeError(f"{cls!r}.__new__ received an invalid combination of "
                               f"arguments. Expected one of:\n * no arguments\n * (int size)\n"
                               f" * (Sequence data)\n * (*, UntypedStorage wrap_storage)\n"
                               f"{reason}")
        return TypedStorage(*args, dtype=cls.dtype, wrap_storage=wrap_storage)


def _legacy_class(name: str, dtype) -> type:
    return _LegacyStorageMeta(name, (_LegacyStorage,), {"dtype": dtype, "__module__": "torch"})


LEGACY_STORAGES = {f"{scalar_type_name(d)}Storage": _legacy_class(
    f"{scalar_type_name(d)}Storage", d) for d in (
        dtypes.float64, dtypes.float32, dtypes.float16, dtypes.bfloat16, dtypes.int64,
        dtypes.int32, dtypes.int16, dtypes.int8, dtypes.uint8, dtypes.bool, dtypes.complex64,
        dtypes.complex128)}
# the legacy names, where the torch namespace's table of lazy names finds them
# (`torch.FloatStorage` is made on first use, with this module)
globals().update(LEGACY_STORAGES)


def legacy_storage_class(dtype) -> type:
    """``torch.<Name>Storage`` of a dtype (``Tensor.storage_type()``)."""
    return LEGACY_STORAGES[f"{scalar_type_name(dtype)}Storage"]


class Storage:
    """The interface every storage offers, for annotations: each method is abstract."""

    device: Device
    dtype: dtypes.dtype

    def element_size(self) -> int:
        raise NotImplementedError

    def is_shared(self) -> bool:
        raise NotImplementedError

    def share_memory_(self) -> "Storage":
        raise NotImplementedError

    def nbytes(self) -> int:
        raise NotImplementedError

    def cpu(self) -> "Storage":
        raise NotImplementedError

    def data_ptr(self) -> int:
        raise NotImplementedError

    def from_file(self, filename: str, shared: bool = False, nbytes: int = 0) -> "Storage":
        raise NotImplementedError
