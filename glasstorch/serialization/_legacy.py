"""torch's legacy checkpoint format (before 1.6), written with
``_use_new_zipfile_serialization=False`` and still read by `torch.load`.

The file is a run of pickles followed by raw data: the magic number, the protocol
version (1001), a dict describing the machine (byte order, C type sizes), the object
itself (storages as persistent ids ``('storage', type, key, location, numel,
view_metadata)``), the sorted list of storage keys, and then, for each key in that
order, the storage's element count (8 bytes) and its bytes. The bytes come after the
object, so a storage is made unfilled while the object is built and filled last; each
count is checked against the pickle's claim and against what remains of the file
before any memory is taken for it.
"""
from __future__ import annotations

import pickle
import struct
import sys

import numpy as np

from ..c10 import dtype as dtypes
from ..c10.device import CPU
from ..c10.storage import UntypedStorage
from . import _location
from ._loader import byteswap, check_storage_id, unpickler
from ._pickler import StorageTable
from ._rebuild import storage_for
from ._storage_types import pickled_storage_type, storage_dtype

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001
LONG_SIZE = struct.Struct("=l").size
INT_SIZE = struct.Struct("=i").size
SHORT_SIZE = struct.Struct("=h").size


class _LegacyTable(StorageTable):
    """Storage references in the legacy form: a sixth field for views (always None)."""

    def persistent_id(self, ref) -> tuple:
        return super().persistent_id(ref) + (None,)


def save(obj, file, protocol: int, pickle_module, pickler: type) -> None:
    """Write `obj` to the binary file object `file` in the legacy format: the headers
    and keys with `pickle_module`'s ``dump``, the object with `pickler` (a
    `TorchNamesPickling` class)."""
    table = _LegacyTable()
    system = {"protocol_version": PROTOCOL_VERSION, "little_endian": sys.byteorder == "little",
              "type_sizes": {"short": SHORT_SIZE, "int": INT_SIZE, "long": LONG_SIZE}}
    for header in (MAGIC_NUMBER, PROTOCOL_VERSION, system):
        pickle_module.dump(header, file, protocol=protocol)
    pickler(file, protocol, table).dump(obj)
    keys = sorted(table.storages)
    pickle_module.dump(keys, file, protocol=protocol)
    for key in keys:
        storage, dtype = table.storages[key], table.dtypes[key]
        typed = pickled_storage_type(dtype) is not UntypedStorage
        file.write(struct.pack("<q", storage.nbytes() // (dtype.itemsize if typed else 1)))
        file.write(memoryview(storage._data))


class _PendingStorages:
    """The storages the object names, made empty and filled once the object is built."""

    def __init__(self, map_location) -> None:
        self.storages: dict[str, tuple[UntypedStorage, dtypes.dtype]] = {}
        self.restored: dict[str, UntypedStorage] = {}    # where map_location sent each
        self._restore = _location.restorer(map_location)

    def __call__(self, pid):
        if isinstance(pid, tuple) and pid and pid[0] in ("module", b"module"):
            return pid[1]                  # a pickled module's class, with its source
        storage_type, key, location, numel = check_storage_id(pid)
        if len(pid) > 5 and pid[5] is not None:
            raise RuntimeError("glasstorch cannot load the storage views of pre-1.0 checkpoints")
        dtype = storage_dtype(storage_type)
        if key not in self.storages:
            placeholder = object.__new__(UntypedStorage)   # its bytes arrive in `fill`
            placeholder.device, placeholder._nbytes = CPU, numel * dtype.itemsize
            placeholder._owner = placeholder._bytes = None
            self.storages[key] = (placeholder, dtype)
            self.restored[key] = self._restore(placeholder, location)
        return storage_for(self.restored[key], dtype)

    def fill(self, file, keys, swap: bool) -> None:
        remaining = _remaining(file)
        for key in keys:
            storage, dtype = self.storages[key]
            count = struct.unpack("<q", _read(file, 8))[0]
            nbytes = count * dtype.itemsize
            remaining -= 8
            if count < 0 or nbytes != storage._nbytes or nbytes > remaining:
                raise RuntimeError(f"storage {key} of the checkpoint claims {count} elements "
                                   f"where {storage._nbytes // dtype.itemsize} were expected "
                                   "or the file ends first")
            data = np.empty(nbytes, np.uint8)
            if file.readinto(memoryview(data)) != nbytes:
                raise RuntimeError("unexpected end of file while reading a storage")
            remaining -= nbytes
            if swap:
                byteswap(data, dtype)
            storage._bytes = data


def _remaining(file) -> int:
    here = file.tell()
    file.seek(0, 2)
    end = file.tell()
    file.seek(here)
    return end - here


def _read(file, size: int) -> bytes:
    data = file.read(size)
    if len(data) != size:
        raise RuntimeError("unexpected end of file while reading a storage")
    return data


def _no_storages(pid):
    raise pickle.UnpicklingError("unsupported persistent id encountered")


def load(file, map_location, pickle_module, weights_only: bool, **pickle_load_args):
    """The object a legacy checkpoint holds."""
    def header():
        return unpickler(file, pickle_module, weights_only, _no_storages,
                         **pickle_load_args).load()

    if header() != MAGIC_NUMBER:
        raise RuntimeError("Invalid magic number; corrupt file?")
    protocol = header()
    if protocol != PROTOCOL_VERSION:
        raise RuntimeError(f"Invalid protocol version: {protocol}")
    system = header()
    pending = _PendingStorages(map_location)
    result = unpickler(file, pickle_module, weights_only, pending, **pickle_load_args).load()
    keys = header()
    if not isinstance(keys, list) or set(keys) != set(pending.storages):
        raise RuntimeError("the checkpoint's storage keys do not match its object")
    little = system.get("little_endian", True) if isinstance(system, dict) else True
    pending.fill(file, keys, swap=little != (sys.byteorder == "little"))
    return result
