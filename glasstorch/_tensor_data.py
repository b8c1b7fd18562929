"""Reading nested Python data (lists, tuples, numbers, NumPy scalars, 0-dim tensors).

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

from .aten.native.creation.copy import cast_array
from .c10 import dtype as dtypes
from .c10.dtype import from_numpy_dtype
from .c10.promotion import default_complex_dtype, get_default_dtype, promote_types
from .c10.tensor_impl import TensorBase

_MAX_DIMS = 128


# ----------------------------------------------------------------------------------
# Nested sequences: Note [How torch reads nested data]
# ----------------------------------------------------------------------------------
def array_from_data(data, dtype) -> tuple:
    """Nested sequences of numbers as a C-contiguous ndarray, and its torch dtype.

    Args:
        data: a number or nested sequences (Note [How torch reads nested data]).
        dtype: the torch dtype to store; None to infer it from the data.

    Returns:
        (ndarray, dtype)
    """
    sizes = _sizes(data)
    if dtype is None:
        dtype = _infer_dtype(data)
    count = 1
    for s in sizes:
        count *= s
    if count == 0:
        return np.empty(sizes, dtype._np), dtype
    leaves = []
    if sizes:
        _flatten(data, sizes, 0, leaves)
    else:
        leaves.append(data)
    return _store(leaves, dtype).reshape(sizes), dtype


def is_sequence(value) -> bool:
    """Python's sequence protocol, as torch tests it (tensors and NumPy scalars are not)."""
    if isinstance(value, (list, tuple)):
        return True
    if isinstance(value, (dict, TensorBase, np.generic)):
        return False
    return hasattr(type(value), "__getitem__")


def _sizes(data) -> tuple:
    sizes = []
    while is_sequence(data):
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
    if is_sequence(value):
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


def type_name(value) -> str:
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
    """The fast paths: plain Python numbers, or NumPy scalars of one type (which
    convert as their `__float__` / `__index__` would). None when none applies."""
    kinds = set(map(type, leaves))
    if len(kinds) == 1 and issubclass(next(iter(kinds)), np.generic):
        return _store_numpy_scalars(leaves, next(iter(kinds)), dtype)
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


def _store_numpy_scalars(leaves: list, kind: type, dtype):
    if issubclass(kind, (np.floating, np.integer, np.bool_)) and \
            (dtype.is_floating_point or dtype.is_complex):
        return cast_array(np.array(leaves).astype(np.float64), dtype)
    if issubclass(kind, np.bool_) and dtype is dtypes.bool:
        return np.array(leaves, np.bool_)
    if issubclass(kind, np.signedinteger) and not dtype.is_floating_point and \
            not dtype.is_complex and dtype is not dtypes.uint64:
        values = np.array(leaves).astype(np.int64)
        return values != 0 if dtype is dtypes.bool else _ints_to(values, dtype)
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
