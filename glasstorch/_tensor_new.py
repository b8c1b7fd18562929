"""Tensors from Python data: `torch.tensor`, `as_tensor`, `from_numpy`, `Tensor(...)`.

Note [How torch reads nested data]
    torch reads a nested sequence in three passes, and the order decides which
    error a bad input gets:
    1. sizes: follow the *first* element down while it is a sequence, recording each
       length (so `[[], [1]]` has shape (2, 0) and never looks at `[1]`);
    2. dtype: promote the scalar types of *every* leaf (bool < int64 < the default
       float < the default complex; NumPy scalars and arrays and tensors bring their
       own dtype); a str leaf is a TypeError, an unknown object a RuntimeError;
    3. store: walk depth first, checking each sequence has the length of pass 1
       (ValueError), and convert each leaf to the dtype as Python would: a float
       into an integer dtype is truncated and range-checked, an int must fit int64,
       an object with neither `__float__` nor `__index__` is a TypeError.
    Nothing is stored for a result with no elements. NumPy arrays skip all three
    passes: they are wrapped (sharing memory) and converted with `to`.
"""
from __future__ import annotations

import operator
import warnings

import numpy as np

from .aten.native.conversion import to_dtype_layout
from .aten.native.copy import cast_array
from .aten.native.factory import empty
from .aten.native.view import alias
from .c10 import dtype as dtypes
from .c10.device import as_device, device as Device, get_default_device
from .c10.layout import strided
from .c10.dtype import from_numpy_dtype
from .c10.promotion import default_complex_dtype, get_default_dtype, promote_types
from .c10.size import Size
from .c10.storage import UntypedStorage
from .c10.tensor_impl import TensorBase, make_tensor, wrap_array

_MAX_DIMS = 128
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
    return _with_requires_grad(result, requires_grad)


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
    return _with_requires_grad(result, requires_grad)


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
    cpu = _from_sequence(data, None if infer else dtype)
    return to_dtype_layout.call(cpu, None, None, device or get_default_device(), None,
                                False, False, None)


def _with_requires_grad(result, requires_grad: bool):
    if requires_grad:
        if not (result._dtype.is_floating_point or result._dtype.is_complex):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        result.requires_grad_(True)
    return result


def _dtype_argument(dtype, name: str):
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise TypeError(f"{name}(): argument 'dtype' must be torch.dtype, not "
                        f"{type(dtype).__name__}")
    return dtype


def _device_argument(device, name: str):
    if device is None or isinstance(device, Device):
        return device
    if isinstance(device, int) and not isinstance(device, bool):
        raise RuntimeError("Cannot access accelerator device when none is available.")
    if isinstance(device, str):
        return as_device(device)
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
        raise TypeError(f"expected np.ndarray (got {_type_name(array)})")
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
        storage = UntypedStorage._wrap(np.empty(0, np.uint8))
        return make_tensor(storage, array.shape, stride, 0, dtype)
    low, high = _byte_bounds(array)
    base = array
    while isinstance(base.base, np.ndarray):
        base = base.base
    flat = np.ndarray((high - low,), np.uint8, buffer=_byte_view(base),
                      offset=low - _address(base))
    t = make_tensor(UntypedStorage._wrap(flat), array.shape, stride,
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
    return np.frombuffer(base, np.uint8)


# ----------------------------------------------------------------------------------
# Nested sequences: Note [How torch reads nested data]
# ----------------------------------------------------------------------------------
def _from_sequence(data, dtype):
    """A CPU tensor from nested sequences of numbers; `dtype` None: inferred."""
    sizes = _sizes(data)
    if dtype is None:
        dtype = _infer_dtype(data)
    if dtype._np is None:
        raise RuntimeError(f"glasstorch cannot store {dtype} tensors (NumPy has no such type)")
    count = 1
    for s in sizes:
        count *= s
    if count == 0:
        return wrap_array(np.empty(sizes, dtype._np), dtype)
    leaves = []
    if sizes:
        _flatten(data, sizes, 0, leaves)
    else:
        leaves.append(data)
    return wrap_array(_store(leaves, dtype).reshape(sizes), dtype)


def _is_sequence(value) -> bool:
    """Python's sequence protocol, as torch tests it (tensors and NumPy scalars are not)."""
    if isinstance(value, (list, tuple)):
        return True
    if isinstance(value, (dict, TensorBase, np.generic)):
        return False
    return hasattr(type(value), "__getitem__")


def _sizes(data) -> tuple:
    sizes = []
    while _is_sequence(data):
        length = len(data)
        sizes.append(length)
        if len(sizes) > _MAX_DIMS:
            raise ValueError(f"too many dimensions '{type(data).__name__}'")
        if length == 0:
            break
        data = data[0]
    return tuple(sizes)


_PLAIN_TYPES = frozenset((float, int, bool, complex))


def _infer_dtype(value):
    """The dtype torch gives `value`: a leaf's own, or the promotion over a sequence's leaves."""
    if isinstance(value, (np.ndarray, np.generic)):
        return from_numpy_dtype(value.dtype)
    if isinstance(value, float):
        return get_default_dtype()
    if isinstance(value, bool):
        return dtypes.bool
    if isinstance(value, int):
        return dtypes.int64
    if isinstance(value, complex):
        return default_complex_dtype()
    if isinstance(value, TensorBase):
        return value._dtype
    if isinstance(value, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(value).__name__}'")
    if _is_sequence(value):
        return _infer_sequence_dtype(value)
    raise RuntimeError(f"Could not infer dtype of {type(value).__name__}")


def _infer_sequence_dtype(sequence):
    if len(sequence) == 0:
        return get_default_dtype()
    if type(sequence) in (list, tuple):
        kinds = set(map(type, sequence))
        if kinds <= _PLAIN_TYPES:                # plain numbers: one dtype per type
            result = None
            for kind in kinds:
                result = _promote(result, _infer_dtype(kind()))
            return result
    items = sequence if type(sequence) in (list, tuple) else \
        (sequence[i] for i in range(len(sequence)))
    result = None
    for item in items:
        if item is sequence:
            raise TypeError("new(): self-referential lists are incompatible")
        result = _promote(result, _infer_dtype(item))
        if result is dtypes.complex128:          # nothing promotes higher: stop looking
            return result
    return result


def _promote(current, new):
    return new if current is None else promote_types(current, new)


def _flatten(data, sizes: tuple, dim: int, leaves: list) -> None:
    """Append the leaves of `data` in row-major order, checking the sizes of pass 1."""
    expected = sizes[dim]
    if type(data) in (list, tuple):
        items = data
    else:
        try:
            items = list(iter(data))
        except TypeError:
            raise TypeError("not a sequence") from None
    if len(items) != expected:
        raise ValueError(f"expected sequence of length {expected} at dim {dim} "
                         f"(got {len(items)})")
    if dim + 1 == len(sizes):
        leaves.extend(items)
        return
    for item in items:
        if isinstance(item, np.ndarray):
            warnings.warn("Creating a tensor from a list of numpy.ndarrays is extremely slow. "
                          "Please consider converting the list to a single numpy.ndarray with "
                          "numpy.array() before converting to a tensor.", UserWarning,
                          stacklevel=5)
        _flatten(item, sizes, dim + 1, leaves)


def _type_name(value) -> str:
    kind = type(value)
    module = kind.__module__
    return kind.__name__ if module == "builtins" else f"{module}.{kind.__name__}"


# ----------------------------------------------------------------------------------
# Storing leaves: each converted as torch's Python unpacking converts it
# ----------------------------------------------------------------------------------
def _store(leaves: list, dtype) -> np.ndarray:
    """The leaves as a flat array of `dtype`, with torch's per-value checks and errors."""
    stored = _store_plain(leaves, dtype)
    if stored is not None:
        return stored
    if dtype is dtypes.bool:
        return np.array([_leaf_bool(x) for x in leaves], np.bool_)
    if dtype is dtypes.uint64:
        return np.array([_leaf_uint64(x) for x in leaves], np.uint64)
    if dtype.is_complex:
        return cast_array(np.array([_leaf_complex(x) for x in leaves], np.complex128), dtype)
    if dtype.is_floating_point:
        return cast_array(np.array([_leaf_double(x) for x in leaves], np.float64), dtype)
    return cast_array(np.array([_leaf_integer(x, dtype) for x in leaves], np.int64), dtype)


def _store_plain(leaves: list, dtype):
    """The fast path for lists of one plain Python type; None when it does not apply."""
    kinds = set(map(type, leaves))
    try:
        if kinds == {bool}:
            return cast_array(np.array(leaves, np.bool_), dtype)
        if kinds <= {float, int, bool} and (dtype.is_floating_point or dtype.is_complex):
            return cast_array(np.array(leaves, np.float64), dtype)
        if kinds == {float} and dtype is not dtypes.uint64:
            return _floats_to(np.array(leaves, np.float64), dtype)
        if kinds == {int}:
            return _ints_to(np.array(leaves, np.int64), dtype)
    except OverflowError:               # some int beyond int64: the slow path words it
        return None
    return None


def _floats_to(values: np.ndarray, dtype) -> np.ndarray | None:
    if dtype is dtypes.bool:
        return values != 0
    low, high = _integer_limits(dtype)
    if not ((values >= float(low)) & (values <= float(high))).all():     # NaN fails both
        _overflow(dtype)
    with np.errstate(invalid="ignore"):
        return cast_array(values.astype(np.int64), dtype)


def _ints_to(values: np.ndarray, dtype) -> np.ndarray | None:
    if dtype is dtypes.bool:
        return values != 0
    if dtype is dtypes.uint64:
        return None if (values < 0).any() else values.astype(np.uint64)
    low, high = _integer_limits(dtype)
    if low == 0:          # unsigned: negative values wrap around, down to -max
        bad = (values > high) | (values < -high)
    else:
        bad = (values > high) | (values < low)
    if bad.any():
        _overflow(dtype)
    return cast_array(values, dtype)


def _integer_limits(dtype) -> tuple:
    info = np.iinfo(dtype._np)
    return int(info.min), int(info.max)


def _overflow(dtype):
    raise RuntimeError(f"value cannot be converted to type {dtype._name} without overflow")


def _leaf_double(value) -> float:
    """`PyFloat_AsDouble`: `__float__`, else `__index__`, else a TypeError."""
    if isinstance(value, float):
        return float(value)
    method = getattr(type(value), "__float__", None)
    if method is not None:
        return float(method(value))
    index = getattr(type(value), "__index__", None)
    if index is not None:
        return float(index(value))
    raise TypeError(f"must be real number, not {type(value).__name__}")


def _leaf_complex(value) -> complex:
    if isinstance(value, complex):
        return complex(value)
    method = getattr(type(value), "__complex__", None)
    if method is not None:
        return complex(method(value))
    return complex(_leaf_double(value))


def _leaf_integer(value, dtype) -> int:
    """A float is range-checked then truncated; anything else goes through `__index__`."""
    if isinstance(value, float):
        return int(_floats_to(np.array([value]), dtype)[0])
    number = operator.index(value)
    if not -2**63 <= number < 2**63:
        raise ValueError("Overflow when unpacking long long")
    _ints_to(np.array([number], np.int64), dtype)
    return number


def _leaf_uint64(value) -> int:
    if not isinstance(value, int):
        raise TypeError("an integer is required")
    if value < 0:
        raise OverflowError("can't convert negative int to unsigned")
    if value >= 2**64:
        raise OverflowError("int too big to convert")
    return value


def _leaf_bool(value) -> bool:
    if isinstance(value, (float, complex, np.bool_)):
        return bool(value)
    return operator.index(value) != 0


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
    if not _is_sequence(first) and not isinstance(first, (str, bytes)):
        raise TypeError(f"new(): data must be a sequence (got {_type_name(first)})")
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


# ----------------------------------------------------------------------------------
# torch.FloatTensor and friends: legacy typed constructors
# ----------------------------------------------------------------------------------
class tensortype(type):
    """The class of torch's legacy typed tensor classes (`torch.FloatTensor`, ...).

    Calling one is the legacy constructor with its dtype on the CPU; `isinstance`
    asks whether a tensor is a CPU tensor of that dtype; ``x.type(torch.LongTensor)``
    converts to it.
    """

    def __call__(cls, *args, **kwargs):
        return _legacy(args, kwargs, cls.dtype, as_device("cpu"), exact_tensor=True)

    def __instancecheck__(cls, value) -> bool:
        return isinstance(value, TensorBase) and value._dtype is cls.dtype and \
            value._device.type == "cpu"

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _typed_class(name: str, dtype) -> tensortype:
    return tensortype(name, (), {"dtype": dtype, "_legacy_dtype": dtype, "is_cuda": False,
                                 "is_sparse": False, "layout": strided, "__module__": "torch"})


# Exported by the torch namespace: torch.FloatTensor, torch.LongTensor, ...
LEGACY_TYPES = {f"{name}Tensor": _typed_class(f"{name}Tensor", dtype) for name, dtype in (
    ("Float", dtypes.float32), ("Double", dtypes.float64), ("Half", dtypes.float16),
    ("BFloat16", dtypes.bfloat16), ("Byte", dtypes.uint8), ("Char", dtypes.int8),
    ("Short", dtypes.int16), ("Int", dtypes.int32), ("Long", dtypes.int64),
    ("Bool", dtypes.bool))}
