"""torch.serialization: `save` and `load` in torch's checkpoint formats, safe by default.

`save` writes torch's zip archive (``_zip.py``): the object pickled under torch's names
(``_pickler.py``, ``_names.py``) and each storage once, as a raw record, so that views
sharing a storage share it again after loading and every stride and offset survives.
`load` reads that format and torch's legacy one (``_legacy.py``). By default it unpickles
with the weights-only interpreter (``_weights_only.py``), which builds tensors,
containers and allowlisted torch objects and can run no other code; ``weights_only=False``
uses Python's unpickler, for trusted files holding arbitrary objects (whole modules).
Files written by torch load here, and files written here load in torch.
"""
from __future__ import annotations

import io
import mmap as _mmap
import os
import pickle
import re
import sys
import warnings
from typing import IO, Any, Callable, NamedTuple, Union

import numpy as np

from ..c10.device import device
from . import _legacy, _zip
from ._legacy import INT_SIZE, LONG_SIZE, MAGIC_NUMBER, PROTOCOL_VERSION, SHORT_SIZE  # noqa: F401
from ._loader import load_archive
from ._location import (  # noqa: F401
    default_restore_location, location_tag, register_package, validate_cuda_device,
    validate_hpu_device)
from ._names import glasstorch_module
from ._options import (  # noqa: F401
    LoadEndianness, SourceChangeWarning, add_safe_globals, check_module_version_greater_or_equal,
    clear_safe_globals, get_crc32_options, get_default_load_endianness, get_default_mmap_options,
    get_safe_globals, mkdtemp, safe_globals, set_crc32_options, set_default_load_endianness,
    set_default_mmap_options, skip_data)
from ._pickler import StorageTable, pickler_class
from ._rebuild import _get_layout  # noqa: F401
from ._storage_types import StorageType
from ._weights_only import UnpicklingError, default_allowed, globals_in, user_allowed
from . import _options

__all__ = [
    "SourceChangeWarning", "mkdtemp", "register_package", "check_module_version_greater_or_equal",
    "validate_cuda_device", "validate_hpu_device", "location_tag", "default_restore_location",
    "normalize_storage_type", "storage_to_tensor_type", "save", "load", "StorageType",
    "LoadEndianness", "get_crc32_options", "set_crc32_options", "get_default_load_endianness",
    "set_default_load_endianness", "get_default_mmap_options", "set_default_mmap_options",
    "clear_safe_globals", "get_safe_globals", "add_safe_globals", "safe_globals",
    "get_unsafe_globals_in_checkpoint", "skip_data"]

FileLike = Union[str, os.PathLike, IO[bytes]]
MAP_LOCATION = Union[Callable, device, str, dict, None]
IS_WINDOWS = sys.platform == "win32"
MAP_PRIVATE, MAP_SHARED = _mmap.MAP_PRIVATE, _mmap.MAP_SHARED
DEFAULT_PROTOCOL = 2
STORAGE_KEY_SEPARATOR = ","
UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
    "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set "
    "to `False` will likely succeed, but it can result in arbitrary code execution. Do it "
    "only if you got the file from a trusted source.")
_DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default "
    "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")
_TRUE_VALUES = ("1", "y", "yes", "true")


def save(obj: object, f: FileLike, pickle_module: Any = pickle,
         pickle_protocol: int = DEFAULT_PROTOCOL, _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """Save `obj` to a file in torch's checkpoint format.

    Tensors are stored by storage: views of one storage are saved once and share it
    again when loaded, with their sizes, strides and offsets.

    Args:
        obj: what to save: tensors, state dicts, containers, numbers, modules, ...
        f: a path (str or os.PathLike) or a binary file object with ``write``.
        pickle_module (optional): the module whose ``Pickler`` writes the pickle, as in
            torch: glasstorch subclasses it to store tensors and name its objects by
            torch's paths, and the legacy format's headers go through its ``dump``.
            Its ``Pickler`` must be Python's pure-Python ``pickle._Pickler`` or a
            subclass of it (dill's is); ``pickle`` itself (the default) is served by
            the pure-Python one. Default: ``pickle``
        pickle_protocol (int, optional): the pickle protocol. Default: ``2``
        _use_new_zipfile_serialization (bool, optional): ``False`` writes the legacy
            (pre-1.6) format. Default: ``True``
        _disable_byteorder_record (bool, optional): leave out the ``byteorder`` record.

    Raises:
        TypeError: for a `pickle_module` whose ``Pickler`` is C-accelerated (it could not
            write torch's names), before `f` is opened.

    Example::

        >>> buffer = io.BytesIO()
        >>> torch.save({"w": torch.ones(2)}, buffer)
    """
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a "
                             "'write' attribute")
    writing = _Writing(pickle_module, pickler_class(pickle_module), pickle_protocol,
                       _use_new_zipfile_serialization, _disable_byteorder_record)
    if isinstance(f, (str, os.PathLike)):
        path = os.fspath(f)
        parent = os.path.dirname(path)
        if _use_new_zipfile_serialization and parent and not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
        with open(path, "wb") as file:
            _save_to(obj, file, _archive_folder(path), writing)
    else:
        _save_to(obj, f, "archive", writing)
        if hasattr(f, "flush"):
            f.flush()


def _archive_folder(path: str) -> str:
    """The folder of an archive's records: the file's name without its extension."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return stem or "archive"


class _Writing(NamedTuple):
    """How `save` writes: its options, with the pickler class for its pickle module."""
    pickle_module: Any
    pickler: type
    protocol: int
    zip_format: bool
    without_byteorder: bool


def _save_to(obj, file, folder: str, writing: _Writing) -> None:
    if not writing.zip_format:
        if _options.local.skip_data:
            raise RuntimeError("Cannot use skip_data=True with "
                               "_use_new_zipfile_serialization=False")
        _legacy.save(obj, file, writing.protocol, writing.pickle_module, writing.pickler)
        return
    table = StorageTable()
    data = io.BytesIO()
    writing.pickler(data, writing.protocol, table).dump(obj)
    writer = _zip.ArchiveWriter(file, folder, _options.config.save.storage_alignment,
                                _options.config.save.compute_crc32)
    writer.write_record("data.pkl", data.getbuffer())
    writer.write_record(".format_version", "1")
    writer.write_record(".storage_alignment", str(_options.config.save.storage_alignment))
    if not writing.without_byteorder:
        writer.write_record("byteorder", sys.byteorder)
    for key, storage in table.storages.items():
        if _options.local.skip_data:
            writer.write_record(f"data/{key}", np.zeros(storage.nbytes(), np.uint8))
        else:
            writer.write_record(f"data/{key}", storage._data)
    writer.write_record("version", "3\n")
    writer.write_record(".data/serialization_id", _serialization_id())
    writer.finish()


def _serialization_id() -> str:
    """A random 40-digit identifier of one save, as torch records."""
    return "".join(str(b % 10) for b in os.urandom(40))


def load(f: FileLike, map_location: MAP_LOCATION = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: bool | None = None,
         **pickle_load_args: Any) -> Any:
    """Load an object saved with `save` (by glasstorch or by torch).

    Args:
        f: a path (str or os.PathLike) or a binary file object with ``read``, ``readline``,
            ``seek`` and ``tell``.
        map_location (optional): where storages go: a device or device string, a dict
            from saved location to new location, or ``f(storage, location)`` returning
            the storage to use (None: keep the saved one).
        pickle_module (optional): the unpickling module of ``weights_only=False`` loads.
        weights_only (bool, optional): only tensors, primitive containers and allowlisted
            objects may load (the default, unless the environment variable
            ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`` says otherwise). ``False`` runs Python's
            unpickler: only for files from a trusted source.
        mmap (bool, optional): map the file into memory and view each storage where it
            lies in the file instead of reading it (Note [Mapped loads]; `f` must be a
            path to a zip checkpoint). None: ``torch.utils.serialization.config.load.mmap``.
        pickle_load_args: keyword arguments of the unpickler (``encoding``, ...).

    Returns:
        The saved object.

    Raises:
        pickle.UnpicklingError: when a weights-only load meets anything not allowlisted.
        RuntimeError: for a corrupt archive, a storage or geometry the file cannot hold,
            or a location this build has no device for.

    Example::

        >>> buffer = io.BytesIO()
        >>> torch.save(torch.arange(3), buffer)
        >>> _ = buffer.seek(0)
        >>> torch.load(buffer)
        tensor([0, 1, 2])
    """
    weights_only = _decide_weights_only(weights_only, pickle_module)
    if mmap is None:
        mmap = _options.config.load.mmap
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    pickle_load_args.setdefault("encoding", "utf-8")
    if isinstance(f, (str, os.PathLike)) and os.fspath(f).endswith(".safetensors"):
        return _load_safetensors(os.fspath(f), map_location)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return _load_from(file, f, map_location, pickle_module, weights_only, bool(mmap),
                              pickle_load_args)
    _check_seekable(f)
    return _load_from(f, None, map_location, pickle_module, weights_only, bool(mmap),
                      pickle_load_args)


def _load_safetensors(path: str, map_location) -> dict:
    """`torch.load` of a ``.safetensors`` path: its tensors, as torch hands it on."""
    from .. import safetensors
    if isinstance(map_location, dict) or callable(map_location):
        kind = "dict" if isinstance(map_location, dict) else "callable"
        raise RuntimeError(f"Loading safetensors file with {kind} map_location is not "
                           "supported. Use a device string or torch.device instead.")
    return safetensors.load_file(path, device="cpu" if map_location is None else str(map_location))


def _check_seekable(file) -> None:
    """Refuse, with torch's message, a stream `load` cannot seek in."""
    try:
        file.seek(file.tell())
    except (io.UnsupportedOperation, AttributeError) as error:
        if "seek" in str(error) or "tell" in str(error):
            raise type(error)(f"{error}. You can only torch.load from a file that is seekable. "
                              "Please pre-load the data into a buffer like io.BytesIO and try "
                              "to load from it instead.") from None
        raise


def _decide_weights_only(weights_only: bool | None, pickle_module) -> bool:
    """`weights_only` after its default and the two environment switches."""
    not_set = weights_only is None
    if not_set:
        weights_only = pickle_module is None
    forced = os.getenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in _TRUE_VALUES
    forbidden = os.getenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() in _TRUE_VALUES
    if forced and forbidden:
        raise RuntimeError("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or "
                           "`TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` should be set, but both were set.")
    if forced:
        weights_only = True
    elif forbidden and not_set:
        warnings.warn("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since "
                      "the`weights_only` argument was not explicitly passed to `torch.load`, "
                      "forcing weights_only=False.", UserWarning, stacklevel=3)
        weights_only = False
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    return weights_only


def _load_from(file, path, map_location, pickle_module, weights_only: bool, mmap: bool,
               pickle_load_args: dict) -> Any:
    try:
        if _zip.is_zip(file):
            return _load_zip(file, path, map_location, pickle_module, weights_only, mmap,
                             pickle_load_args)
        if mmap:
            name = f"{path}, " if isinstance(path, str) else ""
            raise RuntimeError("mmap can only be used with files saved with "
                               f"`torch.save({name}_use_new_zipfile_serialization=True), please "
                               "torch.save your checkpoint with this option in order to use mmap.")
        return _legacy.load(file, map_location, pickle_module, weights_only, **pickle_load_args)
    except UnpicklingError as error:
        if not weights_only:
            raise
        raise UnpicklingError(_weights_only_message(str(error))) from None


def _load_zip(file, path, map_location, pickle_module, weights_only: bool, mmap: bool,
              pickle_load_args: dict) -> Any:
    reader = _zip.ArchiveReader(file)
    try:
        if reader.has_record("constants.pkl"):
            if weights_only:
                raise RuntimeError("Cannot use ``weights_only=True`` with TorchScript archives "
                                   "passed to ``torch.load``. " + UNSAFE_MESSAGE)
            raise RuntimeError("glasstorch cannot load TorchScript archives (torch.jit.save); "
                               "save a state_dict with torch.save instead")
        mapped = None
        if mmap:
            if path is None:
                raise ValueError("f must be a file path in order to use the mmap argument")
            mode = "c" if _options.config.load.mmap_flags == _mmap.MAP_PRIVATE else "r+"
            mapped = np.memmap(os.fspath(path), np.uint8, mode)
        return load_archive(reader, map_location, pickle_module, weights_only, mapped,
                            _options.local.skip_data, **pickle_load_args)
    finally:
        reader.close()


def _weights_only_message(message: str) -> str:
    """torch's explanation around a weights-only refusal."""
    if re.search(r"GLOBAL (\S+) was not an allowed global by default.", message):
        return ("Weights only load failed. This file can still be loaded, to do so you have two "
                "options, \033[1mdo those steps only if you trust the source of the "
                f"checkpoint\033[0m. \n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with "
                "`weights_only=True` please check the recommended steps in the following error "
                "message.\n\tWeightsUnpickler error: " + message + _DOCS_MESSAGE)
    if re.search(r"(\S+) must be (\S+) to load", message):
        return f"Weights only load failed. {message}\n {UNSAFE_MESSAGE}\n"
    updated = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
    if not re.search(r"whose module (\S+) is blocked", message):
        updated += ("Please file an issue with the following so that we can make "
                    "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
    return updated + "\n\n" + message + _DOCS_MESSAGE


def get_unsafe_globals_in_checkpoint(f: FileLike) -> list[str]:
    """The globals a checkpoint's pickle names that a weights-only load would refuse,
    found by reading the pickle's opcodes (nothing is built or run).

    Args:
        f: a path or binary file object of a zip checkpoint.

    Returns:
        list of ``'module.name'`` strings.

    Raises:
        ValueError: for a file that is no zip checkpoint.
    """
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return get_unsafe_globals_in_checkpoint(file)
    if not _zip.is_zip(f):
        raise ValueError("Expected input to be a checkpoint returned by torch.save")
    reader = _zip.ArchiveReader(f)
    try:
        if reader.has_record("constants.pkl"):
            raise ValueError("Expected input to be a checkpoint returned by torch.save but got "
                             "a torchscript checkpoint")
        found = globals_in(io.BytesIO(reader.read_record("data.pkl").tobytes()))
    finally:
        reader.close()
    safe = set(default_allowed()) | set(user_allowed())
    return [name for name in found if name not in safe
            and f"{glasstorch_module(name.rpartition('.')[0])}.{name.rpartition('.')[2]}"
            not in safe]


def normalize_storage_type(storage_type):
    """The torch-namespace class of a storage type (its own name, looked up in torch)."""
    import glasstorch
    return getattr(glasstorch, storage_type.__name__)


def storage_to_tensor_type(storage):
    """The legacy tensor type matching a typed storage (``FloatStorage`` -> ``FloatTensor``)."""
    import glasstorch
    return getattr(glasstorch, type(storage).__name__.replace("Storage", "Tensor"))
