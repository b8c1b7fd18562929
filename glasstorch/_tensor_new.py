"""Tensors from Python data: `torch.tensor`, `as_tensor`, `from_numpy`, `Tensor(...)`.

torch infers the dtype of nested Python data by promoting the scalar types of its
leaves: bools give bool, ints give int64, floats give the default float dtype,
complex numbers the default complex dtype; NumPy scalars and arrays keep their own
dtype. The data must be rectangular.
"""
from __future__ import annotations

import numbers
import warnings

import numpy as np

from .c10 import dtype as dtypes
from .c10.device import as_device, get_default_device
from .c10.dtype import from_numpy_dtype
from .c10.promotion import (default_complex_dtype, get_default_dtype, promote_types)
from .c10.storage import UntypedStorage
from .c10.tensor_impl import TensorBase, make_tensor, wrap_array, contiguous_strides


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Make a new tensor (always a copy) from Python data, a NumPy array or a tensor.

    Args:
        data: a number, a (nested) list or tuple, a NumPy array or scalar, a tensor.
        dtype: the element type; inferred from `data` when None.
        device: where to place the result (default: the default device).
        requires_grad: whether autograd records operations on the result.

    Example::

        >>> torch.tensor([[1, 2], [3, 4.5]])
        tensor([[1.0000, 2.0000],
                [3.0000, 4.5000]])
    """
    if isinstance(data, TensorBase):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
                      "requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
        result = data.detach().to(dtype=dtype or data.dtype,
                                   device=device or data.device, copy=True)
    else:
        array, inferred = _to_array(data)
        result = _from_array(array.copy() if array is data else array, dtype or inferred,
                             device)
    if requires_grad:
        result.requires_grad_(True)
    return result


def as_tensor(data, dtype=None, device=None):
    """Like `tensor`, but shares memory with `data` when it already fits (tensor or ndarray).

    Example::

        >>> a = numpy.array([1, 2]); t = torch.as_tensor(a); t[0] = 5; a[0]
        5
    """
    if isinstance(data, TensorBase):
        if (dtype is None or dtype is data.dtype) and (device is None or
                                                       as_device(device) == data.device):
            return data
        return data.to(dtype=dtype or data.dtype, device=device or data.device)
    if isinstance(data, np.ndarray) and (dtype is None or dtype._np == data.dtype) and \
            (device is None or as_device(device).type == "cpu"):
        return from_numpy(data)
    array, inferred = _to_array(data)
    return _from_array(array, dtype or inferred, device)


def from_numpy(array: np.ndarray):
    """A tensor sharing memory with a NumPy array (writes through both ways).

    Raises:
        TypeError: for dtypes torch has none of (object, strings, ...).
        ValueError: for negative strides (torch has none).
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtype = from_numpy_dtype(array.dtype)
    itemsize = array.itemsize
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")
    if any(s % itemsize for s in array.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. "
                         "Copy the numpy array to reallocate the memory.")
    stride = tuple(s // itemsize for s in array.strides)
    base = array
    while isinstance(base.base, np.ndarray):
        base = base.base
    if array.size == 0:
        storage = UntypedStorage._wrap(np.empty(0, array.dtype))
        return make_tensor(storage, array.shape, contiguous_strides(array.shape), 0, dtype, array)
    start = array.__array_interface__["data"][0]
    low = start + sum(min(0, (n - 1) * s) for n, s in zip(array.shape, array.strides))
    high = start + sum(max(0, (n - 1) * s) for n, s in zip(array.shape, array.strides)) + itemsize
    flat = np.ndarray((high - low,), np.uint8, buffer=_byte_view(base), offset=low - _address(base))
    storage = UntypedStorage._wrap(flat)
    t = make_tensor(storage, array.shape, stride, (start - low) // itemsize, dtype, array)
    t.__dict__["_numpy_base"] = array
    return t


def _address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def _byte_view(base: np.ndarray) -> np.ndarray:
    """The whole buffer of a base ndarray as flat bytes (for any contiguous layout)."""
    if base.flags.c_contiguous or base.flags.f_contiguous:
        return base.reshape(-1, order="A").view(np.uint8)
    return np.frombuffer(base, np.uint8)


def _from_array(array: np.ndarray, dtype, device):
    device = as_device(device) if device is not None else get_default_device()
    array = np.asarray(array, dtype=dtype._np, order="C") if array.dtype != dtype._np or \
        not array.flags.c_contiguous else array
    if device.type == "meta":
        storage = UntypedStorage._meta(array.nbytes)
        return make_tensor(storage, array.shape, contiguous_strides(array.shape), 0, dtype)
    if device.type != "cpu":
        raise RuntimeError(f"glasstorch has no backend for device type '{device.type}'")
    return wrap_array(array, dtype)


def _to_array(data):
    """NumPy array of `data` and the dtype torch infers for it."""
    if isinstance(data, np.ndarray):
        return data, from_numpy_dtype(data.dtype)
    if isinstance(data, np.generic):
        return np.asarray(data), from_numpy_dtype(data.dtype)
    shape, leaf_dtype = _scan(data, 0)
    array = np.array(_leaves_as_numbers(data), dtype=(leaf_dtype or get_default_dtype())._np)
    if array.shape != shape:
        array = array.reshape(shape)
    return array, leaf_dtype or get_default_dtype()


def _scan(data, depth: int):
    """Shape of nested sequences and the promoted dtype of their leaves (None if empty)."""
    if isinstance(data, (list, tuple)):
        if not data:
            return (0,), None
        sub_shape, dtype = _scan(data[0], depth + 1)
        for item in data[1:]:
            item_shape, item_dtype = _scan(item, depth + 1)
            if item_shape != sub_shape:
                got = item_shape[0] if item_shape else 0
                if not isinstance(item, (list, tuple, np.ndarray, TensorBase)):
                    raise TypeError(f"not a sequence")
                raise ValueError(f"expected sequence of length {sub_shape[0] if sub_shape else 0} "
                                 f"at dim {depth + 1} (got {got})")
            dtype = item_dtype if dtype is None else (dtype if item_dtype is None else
                                                     promote_types(dtype, item_dtype))
        return (len(data),) + sub_shape, dtype
    if isinstance(data, TensorBase):
        return tuple(data.shape), data.dtype
    if isinstance(data, np.ndarray):
        return data.shape, from_numpy_dtype(data.dtype)
    return (), _leaf_dtype(data)


def _leaf_dtype(value):
    if isinstance(value, (bool, np.bool_)):
        return dtypes.bool
    if isinstance(value, np.generic):
        return from_numpy_dtype(value.dtype)
    if isinstance(value, int):
        if not -2**63 <= value < 2**64:
            raise RuntimeError("Overflow when unpacking long")
        return dtypes.int64
    if isinstance(value, float):
        return get_default_dtype()
    if isinstance(value, complex):
        return default_complex_dtype()
    if isinstance(value, numbers.Number):
        return get_default_dtype()
    raise TypeError(f"new(): invalid data type '{type(value).__name__}'")


def _leaves_as_numbers(data):
    if isinstance(data, TensorBase):
        return data.tolist()
    if isinstance(data, (list, tuple)) and any(isinstance(x, (TensorBase, list, tuple))
                                               for x in data):
        return [_leaves_as_numbers(x) for x in data]
    return data


def legacy_new(cls, args, kwargs):
    """`torch.Tensor(...)`: sizes give an uninitialised float tensor; data gives a copy."""
    from .aten import ops
    device = kwargs.pop("device", None)
    if kwargs:
        raise TypeError(f"new() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
        data = args[0]
        if isinstance(data, TensorBase):
            return data.detach()
        return tensor(data, dtype=get_default_dtype(), device=device)
    if any(not isinstance(a, (int, np.integer)) for a in args):
        raise TypeError("new(): argument 'size' must be tuple of ints")
    return ops.aten.empty.memory_format(tuple(int(a) for a in args), get_default_dtype(),
                                        None, device, None, None)
