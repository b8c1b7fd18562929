"""Allocation: the storage of a new tensor, on a device, as data.

Each device type has one allocator, a row of `ALLOCATORS`: a CPU tensor owns a NumPy
array; a meta tensor's storage only knows its size. A backend's kernels get their
results from here, so adding a device is adding its row (docs/architecture.md,
"Backends as data").
"""
from __future__ import annotations

import numpy as np

from ..c10.dtype import complex32, warn_complex32_experimental
from ..c10.storage import UntypedStorage
from ..c10.tensor_impl import TensorBase, contiguous_strides, forget_array, make_tensor, wrap_array
from .context import fill_uninitialized


def empty_from_meta(described, device_type: str) -> TensorBase:
    """Allocate an uninitialised tensor as a meta rule described it (a `TensorMeta`)."""
    return ALLOCATORS[device_type](described.shape, described.stride, described.dtype)


def empty_strided_on(shape: tuple, stride: tuple | None, dtype, device_type: str) -> TensorBase:
    """Allocate storage for `shape` with `stride` (row-major when None) on a device."""
    return ALLOCATORS[device_type](shape, stride, dtype)


def _check_sizes(shape: tuple) -> None:
    """at::empty's refusal of a negative size (a meta rule computed one)."""
    for size in shape:
        if size < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {size}: "
                               f"{list(shape)}")


def _empty_cpu(shape: tuple, stride: tuple | None, dtype) -> TensorBase:
    if dtype is complex32:
        warn_complex32_experimental()
    if stride is None or tuple(stride) == contiguous_strides(tuple(shape)):  # the common case
        try:
            return wrap_array(np.empty(shape, dtype._np), dtype)
        except ValueError:           # checked only on failure: allocation is a hot path
            _check_sizes(shape)
            raise
    shape, stride = tuple(shape), tuple(stride)
    storage = UntypedStorage._wrap(np.empty(storage_elements(shape, stride), dtype._np))
    return make_tensor(storage, shape, stride, 0, dtype)


def _empty_meta(shape: tuple, stride: tuple | None, dtype) -> TensorBase:
    shape = tuple(shape)
    _check_sizes(shape)
    stride = contiguous_strides(shape) if stride is None else tuple(stride)
    storage = UntypedStorage._meta(storage_elements(shape, stride) * dtype.itemsize)
    return make_tensor(storage, shape, stride, 0, dtype)


# device type -> allocate(shape, stride or None, dtype): an uninitialised tensor there
ALLOCATORS = {"cpu": _empty_cpu, "meta": _empty_meta}


def storage_elements(shape: tuple, stride: tuple, offset: int = 0) -> int:
    """How many elements a storage needs to hold a tensor of this geometry."""
    if any(s == 0 for s in shape):
        return 0
    return offset + 1 + sum((s - 1) * st for s, st in zip(shape, stride))


def resize_tensor(t: TensorBase, shape: tuple, stride: tuple | None = None) -> None:
    """Give `t` the sizes `shape`, growing its storage if it is too small (resize_).

    The strides become row-major, or `stride` when given: an out= tensor that had to be
    resized takes the layout the operator computed for its result, as torch's
    `set_output_raw_strided` restrides it.
    """
    shape = tuple(shape)
    stride = contiguous_strides(shape) if stride is None else tuple(stride)
    needed = (storage_elements(shape, stride) + t._offset) * t._dtype.itemsize
    held = t._storage.nbytes()
    if needed > held:
        t._storage.resize_(needed)
        _fill_grown(t, held, needed)
    t._size = shape
    t._stride = stride
    forget_array(t)


def _fill_grown(t: TensorBase, start: int, end: int) -> None:
    """The bytes a storage grew by, filled as deterministic mode fills new memory."""
    itemsize = t._dtype.itemsize
    if t._device.type == "cpu" and start % itemsize == 0 and t._dtype._np is not None:
        fill_uninitialized(t._storage._data[start:end].view(t._dtype._np))
