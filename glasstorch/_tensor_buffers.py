"""Tensors over memory that already exists: `torch.frombuffer` (any object with the
Python buffer protocol) and `torch.from_file` (a memory-mapped file).

Both make a 1-D tensor whose storage *is* that memory: writes through the tensor reach
the buffer (or, for ``shared=True``, the file), as in torch.
"""
from __future__ import annotations

import os

import numpy as np

from .aten.context import warn_once
from .aten.python_arg import apply_requires_grad
from .c10.promotion import get_default_dtype
from .c10.storage import UntypedStorage
from .c10.tensor_impl import TensorBase, make_tensor


def _over_bytes(data: np.ndarray, count: int, dtype) -> TensorBase:
    """A 1-D tensor of `count` elements of `dtype` over the flat bytes `data` (kept alive
    by the storage)."""
    return make_tensor(UntypedStorage._wrap(data, resizable=False), (count,), (1,), 0, dtype)


def _element_count(length: int, size: int, count: int, offset: int) -> int:
    """How many elements of `size` bytes `frombuffer` reads, with torch's refusals."""
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % size:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} "
                             f"bytes) must be a multiple of element size ({size})")
        return (length - offset) // size
    if offset + count * size > length:
        raise ValueError(f"requested buffer length ({count} * {size} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({length} bytes)")
    return count


def frombuffer(buffer, *, dtype, count: int = -1, offset: int = 0,
               requires_grad: bool = False) -> TensorBase:
    """A 1-D tensor sharing the memory of an object with the buffer protocol.

    Skips `offset` bytes, then reads `count` elements of `dtype` (all that remain when
    `count` is negative). Writes through the tensor change the buffer and the reverse.

    Args:
        buffer: a ``bytearray``, ``array.array``, ``memoryview``, NumPy array, ...

    Keyword args:
        dtype (torch.dtype): the element type (not inferred).
        count (int): how many elements; -1 for all after `offset`.
        offset (int): bytes to skip at the start.
        requires_grad (bool): whether the result requires grad.

    Example::

        >>> import array
        >>> torch.frombuffer(array.array("i", [1, 2, 3]), dtype=torch.int32)
        tensor([1, 2, 3], dtype=torch.int32)
    """
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    data = np.frombuffer(view.cast("B") if view.ndim != 1 or view.format != "B" else view,
                         np.uint8)
    if not data.flags.writeable:
        warn_once("The given buffer is not writable, and PyTorch does not support non-writable "
                  "tensors. This means you can write to the underlying (supposedly "
                  "non-writable) buffer using the tensor. You may want to copy the buffer to "
                  "protect its data or make it writable before converting it to a tensor. "
                  "This type of warning will be suppressed for the rest of this program.")
    size = dtype.itemsize
    count = _element_count(data.size, size, count, offset)
    result = _over_bytes(data[offset:offset + count * size], count, dtype)
    return apply_requires_grad(result, requires_grad)


def from_file(filename: str, shared: bool | None = None, size: int = 0, *, dtype=None,
              layout=None, device=None, pin_memory: bool = False,
              requires_grad: bool = False) -> TensorBase:
    """A 1-D tensor of `size` elements over a memory-mapped file.

    With ``shared=True`` writes reach the file (created, or grown, as needed); otherwise
    they stay private to the tensor and the file must hold ``size`` elements already.

    Args:
        filename (str): the file to map.
        shared (bool): whether writes go to the file (``MAP_SHARED``).
        size (int): the number of elements.

    Keyword args:
        dtype (torch.dtype, optional): default `torch.get_default_dtype()`.
        requires_grad (bool): whether the result requires grad.

    Example::

        >>> t = torch.from_file("weights.bin", shared=False, size=4, dtype=torch.float32)
    """
    dtype = dtype or get_default_dtype()
    nbytes = size * dtype.itemsize
    if shared:
        with open(filename, "ab") as file:          # created if missing, never shrunk
            if file.tell() < nbytes:
                file.truncate(nbytes)
    elif not os.path.exists(filename):
        raise RuntimeError(f"unable to open file <{filename}> in read-only mode: No such file "
                           f"or directory (2)")
    elif os.path.getsize(filename) < nbytes:
        raise RuntimeError(f"file <{filename}> size <{os.path.getsize(filename)}> is smaller "
                           f"than the required mapping size <{nbytes}>")
    data = (np.memmap(filename, np.uint8, mode="r+" if shared else "c", shape=(nbytes,))
            if nbytes else np.empty(0, np.uint8))
    return apply_requires_grad(_over_bytes(data, size, dtype), requires_grad)
