"""Tensors from Python data: `torch.tensor`, `as_tensor`, `from_numpy`, `Tensor(...)`.

Nested Python data is read by `_tensor_data.py` (Note [How torch reads nested
data]); NumPy arrays are wrapped, sharing their memory, then converted with `to`.
"""
from __future__ import annotations

import warnings

import numpy as np

from ._tensor_data import array_from_data, is_sequence, type_name
from .aten.native.creation.conversion import to_dtype_layout
from .aten.native.creation.factory import empty
from .aten.native.shape.view import alias
from .aten.python_arg import apply_requires_grad
from .c10 import dtype as dtypes
from .c10.device import as_device, check_copy_target, device as Device, get_default_device
from .c10.dtype import from_numpy_dtype, scalar_type_name
from .c10.promotion import get_default_dtype
from .c10.size import Size
from .c10.storage import UntypedStorage
from .c10.tensor_impl import TensorBase, make_tensor, wrap_array
_COPY_WARNING = ("To copy construct from a tensor, it is recommended to use "
                 "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
                 "requires_grad_(True), rather than {}(sourceTensor).")


# ----------------------------------------------------------------------------------
# Public constructors
# ----------------------------------------------------------------------------------
_NO_DATA = object()


def tensor(data=_NO_DATA, *extra, dtype=None, device=None, requires_grad=False,
           pin_memory=False):
    """A new tensor holding a copy of `data`.

    Args:
        data: a number, a nested list or tuple of numbers (or of tensors and NumPy
            values), a NumPy array or scalar, or a tensor (copied, with a warning).
        dtype: the element type; by default inferred from `data` (Note [How torch
            reads nested data]).
        device: where to place the result (default: the default device).
        requires_grad: whether autograd records operations on the result.
        pin_memory: must be False (no accelerator here).

    Example::

        >>> torch.tensor([[1, 2], [3, 4.5]])
        tensor([[1.0000, 2.0000],
                [3.0000, 4.5000]])
    """
    if data is _NO_DATA:
        raise TypeError('tensor() missing 1 required positional arguments: "data"')
    if extra:
        raise TypeError(f"tensor() takes 1 positional argument but {len(extra) + 1} were given")
    dtype = _dtype_argument(dtype, "tensor")
    device = _device_argument(device, "tensor")
    _check_flag(requires_grad, "tensor", "requires_grad")
    if pin_memory:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no "
                           "pinned memory allocator is available on this system.")
    if isinstance(data, TensorBase):
        warnings.warn(_COPY_WARNING.format("torch.tensor"), UserWarning, stacklevel=2)
    result = _new_from_data(data, dtype, device, copy=True)
    return apply_requires_grad(result, requires_grad)


def as_tensor(data, *, dtype=None, device=None):
    """`data` as a tensor, sharing its memory when no conversion is needed.

    A tensor of the right dtype and device is returned as is; a NumPy array becomes
    a tensor over its memory (as `from_numpy`); other data is copied as `tensor`.

    Example::

        >>> a = numpy.array([1, 2]); t = torch.as_tensor(a); t[0] = 5; a[0]
        5
    """
    dtype = _dtype_argument(dtype, "as_tensor")
    device = _device_argument(device, "as_tensor")
    return _new_from_data(data, dtype, device, copy=False)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """`obj` as a tensor, sharing memory whenever no conversion is needed.

    Args:
        obj: a tensor, a NumPy array, an object with the buffer protocol (read as raw
            elements of `dtype`, the default dtype if None), or Python data.
        dtype, device: the result's (default: those of `obj`, or as `torch.tensor`).
        copy: True always copies; False refuses any copy (ValueError); None copies
            only when it must.
        requires_grad: default: that of a tensor `obj` (with a warning when it is True).

    Example::

        >>> a = numpy.zeros(2); torch.asarray(a)[0] = 1; a
        array([1., 0.])
    """
    dtype = _dtype_argument(dtype, "asarray")
    device = _device_argument(device, "asarray")
    if isinstance(obj, (bytes, bytearray, memoryview)):
        obj = _from_buffer(obj, dtype or get_default_dtype())
    if isinstance(obj, np.ndarray):
        obj = _from_numpy(obj, warn_read_only=copy is not True)
    if isinstance(obj, TensorBase):
        result = _asarray_tensor(obj, dtype, device, copy)
    elif copy is False:
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    else:
        result = _new_from_data(obj, dtype, device, copy=True)
    if requires_grad is None and result.requires_grad:
        warnings.warn("torch.asarray: unspecified requires_grad now defaults to "
                      "obj.requires_grad instead of False. Pass requires_grad=False explicitly "
                      "to get the old behavior and silence this warning.", UserWarning,
                      stacklevel=2)
    elif requires_grad is False and result.requires_grad:
        result = result.detach()
    return apply_requires_grad(result, bool(requires_grad))


def _asarray_tensor(obj, dtype, device, copy):
    if copy is False and dtype is not None and dtype is not obj._dtype:
        raise ValueError(f"can't alias tensor with dtype '{scalar_type_name(obj._dtype)}' into "
                         f"dtype '{scalar_type_name(dtype)}'.")
    return to_dtype_layout.call(obj, dtype, None, device, None, False, bool(copy), None)


def _from_buffer(buffer, dtype):
    """A CPU tensor over the bytes of a buffer-protocol object, as elements of `dtype`."""
    view = memoryview(buffer)
    if view.nbytes % dtype.itemsize:
        raise ValueError(f"buffer length ({view.nbytes} bytes) after offset (0 bytes) must be a "
                         f"multiple of element size ({dtype.itemsize})")
    if view.readonly:
        warnings.warn("The given buffer is not writable, and PyTorch does not support "
                      "non-writable tensors. This means you can write to the underlying "
                      "(supposedly non-writable) buffer using the tensor. You may want to copy "
                      "the buffer to protect its data or make it writable before converting "
                      "it to a tensor. This type of warning will be suppressed for the rest of "
                      "this program.", UserWarning, stacklevel=3)
    return _from_numpy(np.frombuffer(view, dtype._np), warn_read_only=False)


def from_numpy(ndarray: np.ndarray):
    """A CPU tensor sharing memory with a NumPy array (writes show through both ways).

    Raises:
        TypeError: for an object that is not an ndarray, or a dtype torch has none of
            (object, strings, datetime, longdouble, ...).
        ValueError: for negative strides, strides that are not whole elements, or a
            non-native byte order.

    Example::

        >>> a = numpy.zeros(2); torch.from_numpy(a).fill_(1); a
        array([1., 1.])
    """
    return _from_numpy(ndarray, warn_read_only=True)


def new_tensor(self, data, *extra, dtype=None, device=None, requires_grad=False, layout=None,
               pin_memory=False):
    """A copy of `data` as a tensor with this tensor's dtype and device unless given.

    Example::

        >>> torch.ones(1, dtype=torch.int8).new_tensor([1.5, 2])
        tensor([1, 2], dtype=torch.int8)
    """
    if extra:
        raise TypeError(f"new_tensor() takes 1 positional argument but {len(extra) + 1} "
                        f"were given")
    dtype = _dtype_argument(dtype, "new_tensor") or self._dtype
    device = _device_argument(device, "new_tensor") or self._device
    if isinstance(data, TensorBase):
        warnings.warn(_COPY_WARNING.format("tensor.new_tensor"), UserWarning, stacklevel=2)
    result = _new_from_data(data, dtype, device, copy=True, infer=False)
    return apply_requires_grad(result, requires_grad)


def legacy_new(cls, args: tuple, kwargs: dict):
    """`torch.Tensor(...)`: the legacy constructor, always of the default dtype.

    ``Tensor()`` is empty, ``Tensor(2, 3)`` (or a ``torch.Size``) uninitialised,
    ``Tensor(sequence)`` a float copy (sharing memory with a float32 ndarray),
    ``Tensor(tensor)`` returns an alias of that tensor.
    """
    return _legacy(args, kwargs, get_default_dtype(), None, exact_tensor=False)


def tensor_new(self, *args, **kwargs):
    """`x.new(...)`: the legacy constructor with `x`'s dtype and device."""
    return _legacy(args, kwargs, self._dtype, self._device, exact_tensor=True)


# ----------------------------------------------------------------------------------
# The shared path
# ----------------------------------------------------------------------------------
def _new_from_data(data, dtype, device, *, copy: bool, infer: bool | None = None):
    """A tensor from any data; `dtype` None means inferred, `device` None the natural one."""
    infer = dtype is None if infer is None else infer
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if isinstance(data, TensorBase):
        source = data.detach() if copy else data
        return to_dtype_layout.call(source, None if infer else dtype, None, device, None,
                                    False, copy, None)
    if isinstance(data, np.ndarray):
        source = _from_numpy(data, warn_read_only=not copy)
        return to_dtype_layout.call(source, None if infer else dtype, None,
                                    device or get_default_device(), None, False, copy, None)
    array, inferred = array_from_data(data, None if infer else dtype)
    cpu = wrap_array(array, inferred)
    return to_dtype_layout.call(cpu, None, None, device or get_default_device(), None,
                                False, False, None)


def _dtype_argument(dtype, name: str):
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise TypeError(f"{name}(): argument 'dtype' must be torch.dtype, not "
                        f"{type(dtype).__name__}")
    return dtype


def _device_argument(device, name: str):
    if device is None:
        return device
    if isinstance(device, int) and not isinstance(device, bool):
        raise RuntimeError("Cannot access accelerator device when none is available.")
    if isinstance(device, (str, Device)):
        device = as_device(device)
        check_copy_target(device)           # Note [Devices this build lacks]
        return device
    raise TypeError(f"{name}(): argument 'device' must be torch.device, not "
                    f"{type(device).__name__}")


def _check_flag(value, name: str, argument: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{name}(): argument '{argument}' must be bool, not "
                        f"{type(value).__name__}")


# ----------------------------------------------------------------------------------
# NumPy arrays: wrap their memory
# ----------------------------------------------------------------------------------
def _from_numpy(array, warn_read_only: bool):
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type_name(array)})")
    if warn_read_only and not array.flags.writeable:
        warnings.warn("The given NumPy array is not writable, and PyTorch does not support "
                      "non-writable tensors. This means writing to this tensor will result in "
                      "undefined behavior. You may want to copy the array to protect its data "
                      "or make it writable before converting it to a tensor. This type of "
                      "warning will be suppressed for the rest of this program.",
                      UserWarning, stacklevel=3)
    itemsize = array.itemsize
    if any(s % itemsize for s in array.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. "
                         "Copy the numpy array to reallocate the memory.")
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")
    if not array.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte "
                         "order. Conversion between byte orders is currently not supported.")
    dtype = from_numpy_dtype(array.dtype)
    stride = tuple(s // itemsize for s in array.strides)
    if array.size == 0:
        storage = UntypedStorage._wrap(np.empty(0, np.uint8), resizable=False)
        return make_tensor(storage, array.shape, stride, 0, dtype)
    low, high = _byte_bounds(array)
    base = array
    while isinstance(base.base, np.ndarray):
        base = base.base
    flat = np.ndarray((high - low,), np.uint8, buffer=_byte_view(base),
                      offset=low - _address(base))
    t = make_tensor(UntypedStorage._wrap(flat, resizable=False), array.shape, stride,
                    (_address(array) - low) // itemsize, dtype, array)
    t.__dict__["_numpy_base"] = array        # keeps the array (and its memory) alive
    return t


def _address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def _byte_bounds(array: np.ndarray) -> tuple:
    """The first and one-past-last byte addresses the array's elements occupy."""
    start = _address(array)
    end = start + sum((n - 1) * s for n, s in zip(array.shape, array.strides)) + array.itemsize
    return start, end


def _byte_view(base: np.ndarray) -> np.ndarray:
    """The whole buffer of a base ndarray as flat bytes (for any contiguous layout)."""
    if base.flags.c_contiguous or base.flags.f_contiguous:
        return base.reshape(-1, order="A").view(np.uint8)
    # a strided array (a permuted copy, or foreign memory read through DLPack): its span,
    # element by element
    items = (sum((n - 1) * s for n, s in zip(base.shape, base.strides)) + base.itemsize) \
        // base.itemsize
    return np.lib.stride_tricks.as_strided(base, (items,), (base.itemsize,),
                                           writeable=base.flags.writeable).view(np.uint8)


# ----------------------------------------------------------------------------------
# The legacy constructor: torch.Tensor(...) and x.new(...)
# ----------------------------------------------------------------------------------
def _legacy(args: tuple, kwargs: dict, dtype, device, exact_tensor: bool):
    device = _legacy_device(kwargs, device)
    if not args:
        return empty.call((0,), dtype, None, device, None, None)
    first = args[0]
    if len(args) == 1 and isinstance(first, TensorBase):
        if exact_tensor and (first._dtype is not dtype or first._device != device):
            raise TypeError(f"expected {_options_text(dtype, device)} (got "
                            f"{_options_text(first._dtype, first._device)})")
        return alias.call(first)
    if len(args) == 1 and isinstance(first, UntypedStorage):
        count = first.nbytes() // dtype.itemsize
        return make_tensor(first, (count,), (1,), 0, dtype)
    if isinstance(first, Size) or _is_index(first):
        return empty.call(_legacy_size(args), dtype, None, device, None, None)
    if len(args) > 1:
        raise TypeError(f"new() takes 1 positional argument but {len(args)} were given")
    if not is_sequence(first) and not isinstance(first, (str, bytes)):
        raise TypeError(f"new(): data must be a sequence (got {type_name(first)})")
    return _new_from_data(first, dtype, device, copy=False, infer=False)


def _legacy_device(kwargs: dict, default):
    device = kwargs.pop("device", None)
    if kwargs:
        raise TypeError(f"new() got an unexpected keyword argument '{next(iter(kwargs))}'")
    device = _device_argument(device, "new")
    expected = (default or get_default_device()).type
    if device is not None and device.type != expected:
        raise RuntimeError(f"legacy constructor expects device type: {expected} but device "
                           f"type: {device.type} was passed")
    return device or default


def _is_index(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _legacy_size(args: tuple) -> tuple:
    if len(args) == 1 and isinstance(args[0], Size):
        return tuple(args[0])
    for position, value in enumerate(args):
        if not _is_index(value):
            raise TypeError(f"new(): argument 'size' failed to unpack the object at pos "
                            f"{position + 1} with error \"type must be tuple of ints,but got "
                            f"{type(value).__name__}\"")
    return tuple(int(v) for v in args)


def _options_text(dtype, device) -> str:
    names = {dtypes.float32: "float", dtypes.float64: "double", dtypes.int64: "long int",
             dtypes.int32: "int", dtypes.bool: "bool"}
    return (f"TensorOptions(dtype={names.get(dtype, dtype._name)}, device={device}, "
            f"layout=Strided, requires_grad=false (default), pinned_memory=false (default), "
            f"memory_format=(nullopt))")


def legacy_typed(dtype, args: tuple, kwargs: dict):
    """``torch.FloatTensor(...)``: the legacy constructor of one dtype, on the CPU (see
    `_tensor_types.py`)."""
    return _legacy(args, kwargs, dtype, as_device("cpu"), exact_tensor=True)
