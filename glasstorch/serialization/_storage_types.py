"""The storage types a checkpoint names: ``torch.FloatStorage`` and its siblings.

A checkpoint's pickle names the type of each storage it holds: the legacy typed classes
(``torch.FloatStorage``, ``torch.LongStorage``, ...) for the dtypes that had one, and
``torch.storage.UntypedStorage`` for the others (uint16-64, float8, complex32), whose
tensors then carry their dtype themselves (``_rebuild_tensor_v3``). Loading needs from
such a name only the dtype it stands for: `StorageType` is that record, as in torch.
"""
from __future__ import annotations

from ..c10 import dtype as dtypes
from ..c10.storage import UntypedStorage

# The legacy typed-storage class names, by the dtype whose elements they hold.
STORAGE_NAMES = {
    dtypes.float32: "FloatStorage", dtypes.float64: "DoubleStorage",
    dtypes.float16: "HalfStorage", dtypes.bfloat16: "BFloat16Storage",
    dtypes.uint8: "ByteStorage", dtypes.int8: "CharStorage", dtypes.int16: "ShortStorage",
    dtypes.int32: "IntStorage", dtypes.int64: "LongStorage", dtypes.bool: "BoolStorage",
    dtypes.complex64: "ComplexFloatStorage", dtypes.complex128: "ComplexDoubleStorage",
}


class StorageType:
    """What a checkpoint's ``torch.<Name>Storage`` global loads as: the element dtype
    of the storage it names.

    Args:
        name (str): the class name, e.g. ``'FloatStorage'``.

    Raises:
        KeyError: for a name that is no storage type.

    Example::

        >>> str(torch.serialization.StorageType("HalfStorage"))
        'StorageType(dtype=torch.float16)'
    """

    def __init__(self, name: str) -> None:
        self._dtype = _DTYPE_BY_NAME[name]
        self._name = name

    @property
    def dtype(self):
        return self._dtype

    def __str__(self) -> str:
        return f"StorageType(dtype={self.dtype})"

    def __eq__(self, other) -> bool:
        return isinstance(other, StorageType) and other._name == self._name

    def __hash__(self) -> int:
        return hash(self._name)


_DTYPE_BY_NAME = {name: dtype for dtype, name in STORAGE_NAMES.items()}
STORAGE_TYPES = {name: StorageType(name) for name in _DTYPE_BY_NAME}


def storage_dtype(storage_type) -> dtypes.dtype:
    """The element dtype of a checkpoint's storage type (uint8 for untyped bytes)."""
    if storage_type is UntypedStorage:
        return dtypes.uint8
    return storage_type.dtype


def pickled_storage_type(dtype: dtypes.dtype):
    """The storage type torch writes for a tensor of `dtype`: the typed class where one
    exists, else UntypedStorage (the tensor then records its dtype)."""
    name = STORAGE_NAMES.get(dtype)
    return UntypedStorage if name is None else STORAGE_TYPES[name]
