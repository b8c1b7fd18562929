"""Reading a checkpoint archive: storages from records, the object from ``data.pkl``.

`StorageLoader` answers the pickle's storage references (``('storage', type, key,
location, numel)``): each storage is read once, checked against its record's size
before a byte is allocated, byte-swapped if the archive's byte order is not the
machine's, and sent where `map_location` says. Tensors sharing a storage in the file
share one storage after loading.
"""
from __future__ import annotations

import importlib
import io
import pickle
import sys
from typing import Any, Callable

import numpy as np

from ..c10 import dtype as dtypes
from ..c10.storage import UntypedStorage
from ..utils.serialization import config
from . import _location
from ._names import TORCH_NAMES, glasstorch_module
from ._rebuild import storage_for
from ._storage_types import STORAGE_TYPES, storage_dtype
from ._weights_only import WeightsOnlyUnpickler


def check_storage_id(pid) -> tuple:
    """The ``(storage type, key, location, numel)`` of a storage reference, refused
    unless it has that form."""
    if not isinstance(pid, tuple) or len(pid) < 5:
        raise RuntimeError(f"Unknown persistent id in checkpoint: {pid!r}")
    typename = pid[0].decode("ascii") if isinstance(pid[0], bytes) else pid[0]
    if typename != "storage":
        raise RuntimeError("Unknown typename for persistent_load, expected 'storage' but got "
                           f"'{typename}'")
    storage_type, key, location, numel = pid[1:5]
    if not (storage_type is UntypedStorage or storage_type in STORAGE_TYPES.values()):
        raise RuntimeError(f"Unknown storage type in checkpoint: {storage_type!r}")
    location = location.decode("ascii") if isinstance(location, bytes) else location
    if type(key) is not str or type(location) is not str or type(numel) is not int \
            or numel < 0:
        raise RuntimeError(f"Invalid storage reference in checkpoint: {pid!r}")
    return storage_type, key, location, numel


def byteswap(data: np.ndarray, dtype: dtypes.dtype) -> None:
    """Reverse the bytes of every element (of each part, for complex) in place."""
    element = dtype.to_real() if dtype.is_complex else dtype
    if element.itemsize > 1:
        data.view(f"u{element.itemsize}").byteswap(inplace=True)


def _default_byteorder() -> str:
    """The byte order of a checkpoint without a ``byteorder`` record, as configured."""
    setting = config.load.endianness
    if setting is None:
        return "little"
    return sys.byteorder if setting.name == "NATIVE" else setting.name.lower()


class StorageLoader:
    """The storages of one archive, as the pickle asks for them.

    Args:
        reader (ArchiveReader): the archive.
        map_location: as `torch.load`'s.
        mapped (np.ndarray, optional): the whole file mapped into memory (mmap=True).
        skip_data (bool): make storages without reading their bytes.
    """

    def __init__(self, reader, map_location, mapped=None, skip_data: bool = False) -> None:
        self._reader = reader
        self._restore = _location.restorer(map_location)
        self._meta = _location.is_meta(map_location)
        self._mapped = mapped
        self._skip_data = skip_data
        self._loaded: dict[str, UntypedStorage] = {}
        self._swap = self._byteorder() != sys.byteorder

    def _byteorder(self) -> str:
        if not self._reader.has_record("byteorder"):
            return _default_byteorder()
        order = self._reader.read_record("byteorder").tobytes()
        if order not in (b"little", b"big"):
            raise ValueError("Unknown endianness type: " + order.decode(errors="replace"))
        return order.decode()

    def __call__(self, pid):
        storage_type, key, location, numel = check_storage_id(pid)
        dtype = storage_dtype(storage_type)
        storage = self._loaded.get(key)
        if storage is None:
            storage = self._read(key, numel * dtype.itemsize, dtype)
            if not self._meta:
                storage = self._restore(storage, location)
            self._loaded[key] = storage
        return storage_for(storage, dtype)

    def _read(self, key: str, nbytes: int, dtype: dtypes.dtype) -> UntypedStorage:
        name = f"data/{key}"
        size = self._reader.record_size(name)
        if size != nbytes:
            raise RuntimeError(f"record size ({size} bytes) does not match expected size "
                               f"({nbytes} bytes = {nbytes} elements * 1 bytes/element) for "
                               "dtype Byte")
        if self._meta:
            return UntypedStorage._meta(nbytes)
        if self._skip_data:
            return UntypedStorage._wrap(np.empty(nbytes, np.uint8))
        if self._mapped is not None:
            start = self._reader.record_offset(name)
            data = self._mapped[start:start + nbytes]
        else:
            data = self._reader.read_record(name)
        if self._swap:
            byteswap(data, dtype)
        return UntypedStorage._wrap(data)


def find_torch_class(module: str, name: str, fallback: Callable) -> Any:
    """The glasstorch object a full (not weights-only) pickle's GLOBAL names: torch's
    serialization names by the table, other ``torch.*`` paths by the glasstorch module of
    the same path, anything else by `fallback` (Python's own lookup)."""
    path = f"{module}.{name}"
    if path in TORCH_NAMES:
        return TORCH_NAMES[path]
    if name in STORAGE_TYPES:           # torch too reads any module's FloatStorage so
        return STORAGE_TYPES[name]
    mirrored = glasstorch_module(module)
    if mirrored != module:
        return getattr(importlib.import_module(mirrored), name)
    return fallback(module, name)


def unpickler(file, pickle_module, weights_only: bool, persistent_load: Callable,
              **pickle_load_args):
    """The unpickler for one of a checkpoint's pickles."""
    if weights_only:
        result = WeightsOnlyUnpickler(file, encoding=pickle_load_args.get("encoding", "bytes"))
    else:
        base = (pickle_module or pickle).Unpickler

        class TorchNamesUnpickler(base):
            def find_class(self, module, name):
                return find_torch_class(module, name, super().find_class)
        result = TorchNamesUnpickler(file, **pickle_load_args)
    result.persistent_load = persistent_load
    return result


def load_archive(reader, map_location, pickle_module, weights_only: bool,
                 mapped=None, skip_data: bool = False, **pickle_load_args) -> Any:
    """The object a zip checkpoint holds."""
    storages = StorageLoader(reader, map_location, mapped, skip_data)
    data = io.BytesIO(reader.read_record("data.pkl").tobytes())
    return unpickler(data, pickle_module, weights_only, storages, **pickle_load_args).load()
