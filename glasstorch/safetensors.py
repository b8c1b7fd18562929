"""safetensors files for glasstorch tensors: ``safetensors.torch``'s functions, under
``glasstorch.safetensors``.

The format is simple enough to own: 8 bytes (little-endian) giving the length of a
JSON header, the header (padded with spaces to a multiple of 8), then the tensors'
bytes back to back. The header maps each name to ``{"dtype": "F32", "shape": [...],
"data_offsets": [begin, end]}`` (offsets into the data part), plus an optional
``"__metadata__"`` of strings. Tensors are stored contiguous, little endian, in the
order safetensors writes them (by dtype, widest first, then by name), so files written here
are byte-for-byte what ``safetensors.torch`` writes, and either reads the other's.

`load_file` and `safe_open` map the file copy-on-write and give tensors that view it
where they lie (zero-copy; writes stay in memory). Everything a header claims is
checked against the file before a tensor is made: a bad file raises `SafetensorError`.
"""
from __future__ import annotations

import json
import os
import struct
from typing import Any

import numpy as np

from .c10 import dtype as dtypes
from .c10.storage import UntypedStorage
from .c10.tensor_impl import TensorBase, contiguous_strides, make_tensor

__all__ = ["SafetensorError", "save", "save_file", "load", "load_file", "safe_open",
           "save_model", "load_model"]

_CODES = {
    dtypes.float64: "F64", dtypes.float32: "F32", dtypes.float16: "F16",
    dtypes.bfloat16: "BF16", dtypes.int64: "I64", dtypes.int32: "I32", dtypes.int16: "I16",
    dtypes.int8: "I8", dtypes.uint8: "U8", dtypes.bool: "BOOL", dtypes.uint64: "U64",
    dtypes.uint32: "U32", dtypes.uint16: "U16", dtypes.complex64: "C64",
    dtypes.float8_e4m3fn: "F8_E4M3", dtypes.float8_e4m3fnuz: "F8_E4M3FNUZ",
    dtypes.float8_e5m2: "F8_E5M2", dtypes.float8_e5m2fnuz: "F8_E5M2FNUZ",
    dtypes.float8_e8m0fnu: "F8_E8M0",
}
_DTYPES = {code: dtype for dtype, code in _CODES.items()}
# The order of the format's dtype enumeration: files list tensors from the last dtype of
# it to the first (then by name), which puts the widest elements first.
_RANK = {code: rank for rank, code in enumerate(
    ["BOOL", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F8_E4M3FNUZ", "F8_E5M2FNUZ", "I16",
     "U16", "F16", "BF16", "I32", "U32", "F32", "C64", "F64", "I64", "U64"])}
_MAX_HEADER = 100_000_000      # safetensors' own limit on the JSON header


class SafetensorError(Exception):
    """A file that is not valid safetensors (bad header, offsets or sizes)."""


# ----- writing -------------------------------------------------------------------------
def _check_saveable(tensors: dict) -> None:
    if not isinstance(tensors, dict):
        raise ValueError(f"Expected a dict of [str, torch.Tensor] but received {type(tensors)}")
    for name, value in tensors.items():
        if not isinstance(value, TensorBase):
            raise ValueError(f"Key `{name}` is invalid, expected torch.Tensor but received "
                             f"{type(value)}")
    by_storage: dict[int, list[str]] = {}
    for name, value in tensors.items():
        if value.numel():
            by_storage.setdefault(id(value.untyped_storage()), []).append(name)
    shared = [set(names) for names in by_storage.values() if len(names) > 1]
    if shared:
        indent = "\n" + " " * 12
        raise RuntimeError(
            f"{indent}Some tensors share memory, this will lead to duplicate memory on disk and "
            f"potential differences when loading them again: {shared}.{indent}A potential way "
            f"to correctly save your model is to use `save_model`.{indent}More information at "
            f"https://huggingface.co/docs/safetensors/torch_shared_tensors{indent}")
    for name, value in tensors.items():
        if not value.is_contiguous():
            raise ValueError(
                f"You are trying to save a non contiguous tensor: `{name}` which is not allowed. "
                "It either means you are trying to save tensors which are reference of each other "
                "in which case it's recommended to save only the full tensors, and reslice at load "
                "time, or simply call `.contiguous()` on your tensor to pack it before saving.")


def _layout(tensors: dict, metadata: dict | None) -> tuple[bytes, list[TensorBase]]:
    """The padded header (with its length prefix) and the tensors in file order."""
    _check_saveable(tensors)
    for value in tensors.values():
        if value.dtype not in _CODES:
            raise KeyError(value.dtype)
    order = sorted(tensors, key=lambda name: (-_RANK[_CODES[tensors[name].dtype]], name))
    header: dict[str, Any] = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    offset = 0
    for name in order:
        value = tensors[name]
        end = offset + value.numel() * value.dtype.itemsize
        header[name] = {"dtype": _CODES[value.dtype], "shape": list(value.shape),
                        "data_offsets": [offset, end]}
        offset = end
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text, [tensors[name] for name in order]


def _tensor_bytes(tensor: TensorBase) -> memoryview:
    array = np.ascontiguousarray(tensor.detach().cpu()._np)
    return memoryview(array.reshape(-1).view(np.uint8))


def save(tensors: dict[str, TensorBase], metadata: dict[str, str] | None = None) -> bytes:
    """The safetensors file holding `tensors`, as bytes.

    Args:
        tensors (dict): name -> contiguous tensor; no two may share memory.
        metadata (dict, optional): strings stored in the header.

    Example::

        >>> data = glasstorch.safetensors.save({"w": torch.ones(2)})
        >>> glasstorch.safetensors.load(data)["w"]
        tensor([1., 1.])
    """
    header, ordered = _layout(tensors, metadata)
    return header + b"".join(bytes(_tensor_bytes(t)) for t in ordered)


def save_file(tensors: dict[str, TensorBase], filename: str | os.PathLike,
              metadata: dict[str, str] | None = None) -> None:
    """Write `tensors` to the safetensors file `filename` (see `save`)."""
    header, ordered = _layout(tensors, metadata)
    with open(filename, "wb") as file:
        file.write(header)
        for tensor in ordered:
            file.write(_tensor_bytes(tensor))


# ----- reading -------------------------------------------------------------------------
def _parse(data: np.ndarray) -> tuple[dict, dict | None, int]:
    """Header entries by name, metadata, and where the data part starts; every claim
    checked against the buffer's length."""
    if data.nbytes < 8:
        raise SafetensorError("Error while deserializing header: HeaderTooSmall")
    length = int(data[:8].view("<u8")[0])
    if length > _MAX_HEADER:
        raise SafetensorError("Error while deserializing header: HeaderTooLarge")
    if 8 + length > data.nbytes:
        raise SafetensorError("Error while deserializing header: invalid header length")
    try:
        header = json.loads(data[8:8 + length].tobytes())
    except (UnicodeDecodeError, ValueError) as error:
        raise SafetensorError(f"Error while deserializing header: InvalidHeaderDeserialization"
                              f" ({error})") from None
    if not isinstance(header, dict):
        raise SafetensorError("Error while deserializing header: InvalidHeaderDeserialization")
    metadata = header.pop("__metadata__", None)
    _check_entries(header, data.nbytes - 8 - length)
    return header, metadata, 8 + length


def _check_entries(header: dict, data_size: int) -> None:
    spans = []
    for name, entry in header.items():
        try:
            dtype = _DTYPES[entry["dtype"]]
            shape = [int(s) for s in entry["shape"]]
            begin, end = (int(v) for v in entry["data_offsets"])
        except (KeyError, TypeError, ValueError):
            raise SafetensorError(f"Error while deserializing header: invalid entry `{name}`") \
                from None
        if any(s < 0 for s in shape) or end - begin != int(np.prod(shape)) * dtype.itemsize:
            raise SafetensorError(f"Error while deserializing header: TensorInvalidInfo ({name})")
        spans.append((begin, end, name))
    position = 0
    for begin, end, name in sorted(spans):
        if begin != position or end < begin:
            raise SafetensorError(f"Error while deserializing header: InvalidOffset({name})")
        position = end
    if position != data_size:
        raise SafetensorError("Error while deserializing header: MetadataIncompleteBuffer")


def _tensor(data: np.ndarray, start: int, entry: dict) -> TensorBase:
    """The tensor an entry describes, viewing `data` (no copy)."""
    dtype = _DTYPES[entry["dtype"]]
    begin, end = entry["data_offsets"]
    shape = tuple(int(s) for s in entry["shape"])
    storage = UntypedStorage._wrap(data[start + begin:start + end])
    return make_tensor(storage, shape, contiguous_strides(shape), 0, dtype)


def _check_device(device) -> None:
    if str(device) != "cpu":
        raise RuntimeError(f"glasstorch has no device '{device}': load with device='cpu'")


def load(data: bytes) -> dict[str, TensorBase]:
    """The tensors of a safetensors file given as bytes (copied once, writable).

    Raises:
        SafetensorError: for bytes that are not a valid safetensors file.
    """
    buffer = np.frombuffer(bytearray(data), np.uint8)
    header, _, start = _parse(buffer)
    return {name: _tensor(buffer, start, header[name]) for name in header}


def load_file(filename: str | os.PathLike, device="cpu") -> dict[str, TensorBase]:
    """The tensors of the safetensors file `filename`, viewing the file mapped into
    memory (copy-on-write: writes to them never reach the file).

    Args:
        filename (str or os.PathLike): the file.
        device (str, optional): ``'cpu'`` (the only device glasstorch has). Default: ``'cpu'``

    Raises:
        SafetensorError: for a file that is not valid safetensors.
    """
    with safe_open(filename, framework="pt", device=device) as opened:
        return {name: opened.get_tensor(name) for name in opened.keys()}


class safe_open:
    """A safetensors file opened for reading tensors one by one, lazily.

    Args:
        filename (str or os.PathLike): the file.
        framework (str): ``'pt'`` (``'torch'`` and ``'numpy'`` / ``'np'`` too: NumPy
            arrays then).
        device (str, optional): ``'cpu'``. Default: ``'cpu'``

    Example::

        >>> with glasstorch.safetensors.safe_open("model.safetensors", "pt") as f:
        ...     weight = f.get_tensor("weight")
    """

    def __init__(self, filename: str | os.PathLike, framework: str, device="cpu") -> None:
        if framework not in ("pt", "torch", "np", "numpy"):
            raise SafetensorError(f"framework {framework} is invalid")
        _check_device(device)
        self._numpy = framework in ("np", "numpy")
        size = os.path.getsize(filename)
        self._data = np.memmap(filename, np.uint8, "c") if size else np.zeros(0, np.uint8)
        self._header, self._metadata, self._start = _parse(self._data)

    def __enter__(self) -> "safe_open":
        return self

    def __exit__(self, *exc) -> None:
        pass

    def keys(self) -> list[str]:
        """The tensor names, sorted."""
        return sorted(self._header)

    def offset_keys(self) -> list[str]:
        """The tensor names in the order of their bytes in the file."""
        return sorted(self._header, key=lambda name: self._header[name]["data_offsets"])

    def metadata(self) -> dict[str, str] | None:
        """The header's ``__metadata__`` strings, or None."""
        return self._metadata

    def get_tensor(self, name: str):
        """The tensor `name` (viewing the mapped file)."""
        if name not in self._header:
            raise SafetensorError(f"File does not contain tensor {name}")
        tensor = _tensor(self._data, self._start, self._header[name])
        return tensor.numpy() if self._numpy else tensor

    def get_slice(self, name: str) -> "_Slice":
        """The tensor `name` to be sliced: ``f.get_slice("w")[:, :4]`` reads only that
        part (a view of the mapped file)."""
        return _Slice(self.get_tensor(name), self._header[name]["dtype"])


class _Slice:
    """What `safe_open.get_slice` returns: shape and dtype at hand, data by indexing."""

    def __init__(self, tensor, dtype_code: str) -> None:
        self._tensor = tensor
        self._dtype_code = dtype_code

    def get_shape(self) -> list[int]:
        return list(self._tensor.shape)

    def get_dtype(self) -> str:
        return self._dtype_code

    def __getitem__(self, index):
        return self._tensor[index]


# ----- modules -------------------------------------------------------------------------
def save_model(model, filename: str | os.PathLike, metadata: dict[str, str] | None = None,
               force_contiguous: bool = True) -> None:
    """Save `model`'s state dict, keeping one name of each group of tensors that share
    memory (tied weights) and recording the dropped names in the metadata."""
    state = model.state_dict()
    kept: dict[int, str] = {}
    for name in sorted(state):
        storage_id = id(state[name].untyped_storage())
        if storage_id in kept and state[name].numel():
            metadata = {} if metadata is None else metadata
            metadata.setdefault(name, kept[storage_id])
            del state[name]
        else:
            kept.setdefault(storage_id, name)
    if force_contiguous:
        state = {name: value.contiguous() for name, value in state.items()}
    save_file(state, filename, metadata)


def load_model(model, filename: str | os.PathLike, strict: bool = True,
               device="cpu") -> tuple[list[str], list[str]]:
    """Load a `save_model` file into `model`; names dropped as shared count as loaded.

    Returns:
        ``(missing, unexpected)`` key lists.

    Raises:
        RuntimeError: when `strict` and keys are missing or unexpected.
    """
    state = load_file(filename, device)
    missing, unexpected = model.load_state_dict(state, strict=False)
    with safe_open(filename, "pt") as opened:
        dropped = set((opened.metadata() or {}))
    missing = [key for key in missing if key not in dropped]
    if strict and (missing or unexpected):
        error = f"Error(s) in loading state_dict for {model.__class__.__name__}:"
        if missing:
            error += "\n    Missing key(s) in state_dict: " + ", ".join(
                f'"{k}"' for k in sorted(missing))
        if unexpected:
            error += "\n    Unexpected key(s) in state_dict: " + ", ".join(
                f'"{k}"' for k in sorted(unexpected))
        raise RuntimeError(error)
    return missing, unexpected
