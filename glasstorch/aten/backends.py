"""Backends as data: what each backend dispatch key does with a result.

The registry builds every structured operator's backend kernels from this table, one
per key (Note [Backends as data]): the meta rule and the kernel are the operator's,
and all that differs between backends is here.

Note [Backends as data]
A backend is a dispatch key plus two facts: how it allocates a tensor the meta rule
described (`allocate`), and whether it runs kernels at all. CPU allocates NumPy
memory and runs the kernels; Meta allocates storage with a size and no bytes, and runs
no kernel, so on meta tensors an operator is its meta rule and nothing else (as
PyTorch's structured kernels on the Meta key). A kernel reads and writes its tensors'
arrays (`tensor._np`), never asks which device it is on, and so serves every backend
that runs kernels. Adding a device is adding a row: its dispatch key (with the key set
of its tensors in `c10/dispatch_key.py`), its allocation, and `runs_kernels`. A backend
whose arrays are not NumPy's (CuPy for `cuda`) would also bring its own kernel table
for the kernels that call NumPy by name; the registry already builds each key's kernels
separately, so such a table replaces entries without touching the others.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from ..c10.dispatch_key import DispatchKey
from ..c10.storage import UntypedStorage
from ..c10.tensor_impl import TensorBase, contiguous_strides, make_tensor, wrap_array


class Backend(NamedTuple):
    """One backend: its dispatch key, its device type, and what it does with results."""

    key: DispatchKey
    device_type: str
    runs_kernels: bool          # False: results are allocated and described, never computed
    allocate: Callable          # (shape, stride or None, dtype) -> uninitialised tensor


def storage_elements(shape: tuple, stride: tuple, offset: int = 0) -> int:
    """How many elements a storage needs to hold a tensor of this geometry."""
    if any(s == 0 for s in shape):
        return 0
    return offset + 1 + sum((s - 1) * st for s, st in zip(shape, stride))


def _allocate_cpu(shape, stride, dtype) -> TensorBase:
    """NumPy memory; row-major results (the common case) are one `np.empty`, wrapped."""
    if stride is None:
        return wrap_array(np.empty(shape, dtype._np), dtype)
    shape, stride = tuple(shape), tuple(stride)
    if stride == contiguous_strides(shape):
        return wrap_array(np.empty(shape, dtype._np), dtype)
    storage = UntypedStorage._wrap(np.empty(storage_elements(shape, stride), dtype._np))
    return make_tensor(storage, shape, stride, 0, dtype)


def _allocate_meta(shape, stride, dtype) -> TensorBase:
    """A storage that knows its size and holds no bytes."""
    shape = tuple(shape)
    stride = contiguous_strides(shape) if stride is None else tuple(stride)
    storage = UntypedStorage._meta(storage_elements(shape, stride) * dtype.itemsize)
    return make_tensor(storage, shape, stride, 0, dtype)


BACKENDS = (Backend(DispatchKey.CPU, "cpu", True, _allocate_cpu),
            Backend(DispatchKey.Meta, "meta", False, _allocate_meta))
BACKEND_OF_DEVICE = {backend.device_type: backend for backend in BACKENDS}


def empty_strided_on(shape: tuple, stride: tuple | None, dtype, device_type: str) -> TensorBase:
    """Allocate storage for `shape` with `stride` (row-major when None) on a device."""
    return BACKEND_OF_DEVICE[device_type].allocate(shape, stride, dtype)


def resize_tensor(t: TensorBase, shape: tuple, stride: tuple | None = None) -> None:
    """Give `t` the sizes `shape`, growing its storage if it is too small (resize_).

    The strides become row-major, or `stride` when given: an out= tensor that had to be
    resized takes the layout the operator computed for its result, as torch's
    `set_output_raw_strided` restrides it.
    """
    shape = tuple(shape)
    stride = contiguous_strides(shape) if stride is None else tuple(stride)
    needed = (storage_elements(shape, stride) + t._offset) * t._dtype.itemsize
    if needed > t._storage.nbytes():
        t._storage.resize_(needed)
    t._size = shape
    t._stride = stride
    t._arr = None
