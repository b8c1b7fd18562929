"""Type promotion: torch's lattice of dtypes, and its rules for scalars and 0-dim tensors.

Note [The promotion ladder]
    `promote_types(a, b)` is the join of two dtypes. Torch's classic real dtypes sit on
    one ladder, each rung wider than the one below:

        bool < {uint8, int8} < int16 < int32 < int64 < {float16, bfloat16} < float32 < float64

    The join of two dtypes is the higher one; two *different* dtypes on the same rung
    (uint8 and int8, float16 and bfloat16) meet on the next rung up (int16, float32).
    So an integer meets any float at that float: `int64 + float16 -> float16`.
    A complex dtype joins by its real part: join the real parts (integers and bool
    count as themselves), then take that float's complex twin (`to_complex`):
    `complex32 + bfloat16 -> complex64`.

    Off the ladder, torch refuses most joins (RuntimeError):
    - float8 dtypes join only with themselves;
    - uint16, uint32, uint64 join with themselves and with the four real floats only.

Note [Priority groups]
    `result_type` splits its operands into three groups, from high to low priority:
    tensors with dimensions, 0-dim tensors, and "wrapped numbers" (Python or NumPy
    scalars). Inside a group dtypes join on the ladder. Across groups a lower group can
    only raise the result's *category* (bool < integer < floating < complex), never its
    width: `int8_tensor + 1000 -> int8`, `int8_tensor + 1.5 -> float32` (the default
    dtype), `float16_tensor + 1j -> complex32` (the float's own complex twin).
    A Python float counts as the default dtype, a Python complex as its complex twin.
"""
from __future__ import annotations

import builtins
import itertools

import numpy as np

from . import dtype as dtypes
from .dtype import dtype, scalar_type_name

_CATEGORY = {"b": 0, "i": 1, "f": 2, "c": 3}
# Note [The promotion ladder], as data: each dtype's rung, and the one dtype alone on
# a rung (None where two share it).
_RUNG = {dtypes.bool: 0, dtypes.uint8: 1, dtypes.int8: 1, dtypes.int16: 2, dtypes.int32: 3,
         dtypes.int64: 4, dtypes.float16: 5, dtypes.bfloat16: 5, dtypes.float32: 6,
         dtypes.float64: 7}
_LADDER = (dtypes.bool, None, dtypes.int16, dtypes.int32, dtypes.int64,
           None, dtypes.float32, dtypes.float64)
_BAREBONES_UNSIGNED = (dtypes.uint16, dtypes.uint32, dtypes.uint64)
_REAL_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


def category(t: dtype) -> int:
    """The kind of a dtype as a number: 0 bool, 1 integer, 2 floating, 3 complex."""
    return _CATEGORY[t._kind]


def _check_dtypes(function: str, **arguments) -> None:
    """Raise torch's TypeError when an argument of `function` is not a dtype."""
    for position, (name, value) in enumerate(arguments.items(), start=1):
        if not isinstance(value, dtype):
            raise TypeError(f"{function}(): argument '{name}' (position {position}) must be "
                            f"torch.dtype, not {type(value).__name__}")


def _join_real(a: dtype, b: dtype) -> dtype:
    """The join of two dtypes on the ladder of Note [The promotion ladder]."""
    rung_a, rung_b = _RUNG[a], _RUNG[b]
    if rung_a == rung_b and a is not b:
        return _LADDER[rung_a + 1]
    return a if rung_a >= rung_b else b


def _promote(a: dtype, b: dtype) -> dtype:
    """The join of `a` and `b`, or a RuntimeError worded as torch words it."""
    if a is b:
        return a
    if a in dtypes.FLOAT8_DTYPES or b in dtypes.FLOAT8_DTYPES:
        raise RuntimeError("Promotion for Float8 Types is not supported, attempted to "
                           f"promote {scalar_type_name(a)} and {scalar_type_name(b)}")
    if a in _BAREBONES_UNSIGNED or b in _BAREBONES_UNSIGNED:
        if a in _REAL_FLOATS or b in _REAL_FLOATS:
            return a if a in _REAL_FLOATS else b
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                           f"attempted to promote {scalar_type_name(a)} and {scalar_type_name(b)}")
    if a.is_complex or b.is_complex:
        return _join_real(a.to_real(), b.to_real()).to_complex()
    return _join_real(a, b)


def _table(function) -> dict:
    """`{a: {b: function(a, b)}}` for every pair of dtypes where `function` succeeds.

    Nested, because two plain lookups are faster than hashing a fresh `(a, b)` tuple.
    """
    rows = {a: {} for a in dtypes.EVERY_DTYPE}
    for a, b in itertools.product(dtypes.EVERY_DTYPE, repeat=2):
        try:
            rows[a][b] = function(a, b)
        except RuntimeError:
            pass
    return rows


_PROMOTE_ROWS = _table(_promote)
# The same joins keyed by `(a, b)`; the pairs torch refuses are absent.
PROMOTION_TABLE = {(a, b): r for a, row in _PROMOTE_ROWS.items() for b, r in row.items()}


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """The smallest dtype both `type1` and `type2` convert to without losing their kind.

    Args:
        type1 (dtype): the first dtype.
        type2 (dtype): the second dtype.

    Returns:
        dtype: the join of the two on torch's lattice (Note [The promotion ladder]).

    Raises:
        RuntimeError: for float8 dtypes, and uint16/32/64 with anything but themselves
            and the real floats.

    Example::

        >>> torch.promote_types(torch.int32, torch.float16)
        torch.float16
        >>> torch.promote_types(torch.uint8, torch.int8)
        torch.int16
    """
    try:
        return _PROMOTE_ROWS[type1][type2]
    except (KeyError, TypeError):       # TypeError: an unhashable argument
        _check_dtypes("promote_types", type1=type1, type2=type2)
        return _promote(type1, type2)


def can_cast(from_: dtype, to: dtype) -> bool:
    """Whether torch's casting rule allows an operation to write `from_` into `to`.

    Only lowering the category is refused: complex to non-complex, floating to
    integer or bool, and integer to bool. Widths do not matter.

    Args:
        from_ (dtype): the dtype of the computed values.
        to (dtype): the dtype of the destination.

    Returns:
        bool: True when the cast is allowed.

    Example::

        >>> torch.can_cast(torch.double, torch.float), torch.can_cast(torch.float, torch.int)
        (True, False)
    """
    try:
        return _CATEGORY[from_._kind] <= _CATEGORY[to._kind]
    except (AttributeError, KeyError):
        _check_dtypes("can_cast", from_=from_, to=to)
        raise


# --- the default dtype -------------------------------------------------------------

class _Defaults:
    """torch's process-wide default dtypes, and the scalar tables derived from them."""

    def __init__(self) -> None:
        self.float = dtypes.float32
        self.complex = dtypes.complex64
        self.scalar_rows = {}           # tensor dtype -> {type(scalar): result dtype}


_defaults = _Defaults()


def default_float_dtype() -> dtype:
    """The dtype a Python float stands for: float32 unless `set_default_dtype` changed it."""
    return _defaults.float


def default_complex_dtype() -> dtype:
    """The dtype a Python complex stands for: complex128 for a float64 default,
    complex32 for float16, complex64 otherwise (bfloat16 included)."""
    return _defaults.complex


def get_default_dtype() -> dtype:
    """The current default floating point dtype.

    Returns:
        dtype: float32 unless `set_default_dtype` changed it.

    Example::

        >>> torch.get_default_dtype()
        torch.float32
    """
    return _defaults.float


def set_default_dtype(d, /) -> None:
    """Make `d` the dtype of Python floats in tensors and in promotion.

    The default complex dtype follows: complex128 for float64, complex32 for float16,
    complex64 for float32 and bfloat16.

    Args:
        d (dtype): float16, bfloat16, float32 or float64.

    Raises:
        TypeError: for any other dtype, or for an object that is not a dtype.

    Example::

        >>> torch.set_default_dtype(torch.float64)
        >>> torch.result_type(torch.tensor([1, 2]), 1.5)
        torch.float64
    """
    _check_default_dtype(d)
    _defaults.float = d
    _defaults.complex = d.to_complex()
    _rebuild_scalar_tables()


def _check_default_dtype(value) -> None:
    message = "only floating-point types are supported as the default type"
    if not isinstance(value, dtype):
        raise TypeError("invalid dtype object: " + message)
    if value in dtypes.FLOAT8_DTYPES:
        raise TypeError(f"couldn't find storage object {scalar_type_name(value)}Storage")
    if not value.is_floating_point:
        raise TypeError(message)


# --- scalars -------------------------------------------------------------------------

# Note [NumPy scalars in promotion]
#     torch reads a NumPy scalar argument as a Python number: NumPy integers as int;
#     numpy.complex128 (a subclass of complex) as complex; everything else through
#     `float()`, so numpy.float16/32/64, numpy.bool_ and even numpy.complex64 promote
#     like a Python float (torch drops the imaginary part of a numpy.complex64).
#     `torch.tensor(numpy.bool_(True))` is another path and gives a bool tensor.
_SCALAR_KIND_OF_TYPE = {builtins.bool: "bool", builtins.int: "int", builtins.float: "float",
                        builtins.complex: "complex", np.bool_: "float",
                        np.complex128: "complex", np.complex64: "float"}
_SCALAR_KIND_OF_TYPE.update({t: "int" for t in np.sctypeDict.values()
                             if issubclass(t, np.integer) and t is not np.timedelta64})
_SCALAR_KIND_OF_TYPE.update({t: "float" for t in np.sctypeDict.values()
                             if issubclass(t, np.floating)})


def _scalar_kind(value) -> str:
    kind = _SCALAR_KIND_OF_TYPE.get(type(value))
    if kind is not None:
        return kind
    if isinstance(value, np.timedelta64):
        raise TypeError("'numpy.timedelta64' object cannot be interpreted as an integer")
    for base, base_kind in ((builtins.bool, "bool"), ((builtins.int, np.integer), "int"),
                            (builtins.complex, "complex"), ((builtins.float, np.number), "float")):
        if isinstance(value, base):
            return base_kind
    raise TypeError(f"expected a Python number or a NumPy scalar, got {type(value).__name__}")


def scalar_dtype(value) -> dtype:
    """The dtype a Python (or NumPy) scalar stands for in promotion.

    Args:
        value: a bool, int, float or complex, or a NumPy scalar
            (Note [NumPy scalars in promotion]).

    Returns:
        dtype: bool, int64, the default float dtype or the default complex dtype.

    Raises:
        TypeError: for anything that is not a number.
        OverflowError: for an int outside [-2**63, 2**64), as torch's argument parser.

    Example::

        >>> scalar_dtype(True), scalar_dtype(3), scalar_dtype(1.5), scalar_dtype(1j)
        (torch.bool, torch.int64, torch.float32, torch.complex64)
    """
    kind = _scalar_kind(value)
    if kind == "int" and not -2**63 <= value < 2**64:
        raise OverflowError("int too big to convert" if value > 0
                            else "can't convert negative int to unsigned")
    if kind == "float":
        return _defaults.float
    if kind == "complex":
        return _defaults.complex
    return dtypes.bool if kind == "bool" else dtypes.int64


# --- result_type ---------------------------------------------------------------------

def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """Merge a lower-priority group's dtype into a higher one's (Note [Priority groups]).

    None stands for an empty group. The lower group counts only when it is of a higher
    category, or when the higher group is bool (then the two simply join).
    """
    if higher is None:
        return lower
    if lower is None or higher.is_complex:
        return higher
    if lower.is_complex:
        return higher.to_complex() if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is dtypes.bool or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


_COMBINE_ROWS = _table(_combine)


def _rebuild_scalar_tables() -> None:
    """Refresh the tables that depend on the default dtype (the dtype of a Python float)."""
    kinds = {"bool": dtypes.bool, "int": dtypes.int64,
             "float": _defaults.float, "complex": _defaults.complex}
    _defaults.scalar_rows = {
        tensor_dtype: {scalar_type: row[kinds[kind]]
                       for scalar_type, kind in _SCALAR_KIND_OF_TYPE.items()
                       if kinds[kind] in row}
        for tensor_dtype, row in _COMBINE_ROWS.items()}


_rebuild_scalar_tables()


def _priority_and_dtype(operand) -> tuple:
    """(0 for a tensor with dimensions, 1 for a 0-dim tensor, 2 for a scalar; its dtype)."""
    tensor_dtype = getattr(operand, "_dtype", None)
    if tensor_dtype is not None and hasattr(operand, "_size"):
        return (0 if operand._size else 1), tensor_dtype
    tensor_dtype = getattr(operand, "dtype", None)
    if isinstance(tensor_dtype, dtype) and callable(getattr(operand, "dim", None)):
        return (0 if operand.dim() else 1), tensor_dtype
    return 2, scalar_dtype(operand)


def result_type(*operands) -> dtype:
    """The dtype torch computes for an operation over `operands` (Note [Priority groups]).

    `torch.result_type` itself takes exactly two operands; this function accepts any
    positive number, as the operators built on it do.

    Args:
        *operands: tensors (anything with `_size` and `_dtype`, or with `dim()` and
            `dtype`) and Python or NumPy scalars.

    Returns:
        dtype: the dtype of the operation's result.

    Raises:
        RuntimeError: when two dtypes of one group cannot be promoted, or a float8
            meets a complex of lower priority.
        TypeError: for no operands, or an operand that is neither tensor nor number.

    Example::

        >>> torch.result_type(torch.tensor([1, 2], dtype=torch.int8), 1000)
        torch.int8
        >>> torch.result_type(torch.tensor([1, 2], dtype=torch.int8), 1.5)
        torch.float32
        >>> torch.result_type(torch.tensor([1.0], dtype=torch.half), torch.tensor(1.0).double())
        torch.float16
    """
    if not operands:
        raise TypeError("result_type() expected at least one operand")
    groups = [None, None, None]
    for operand in operands:
        priority, operand_dtype = _priority_and_dtype(operand)
        seen = groups[priority]
        groups[priority] = operand_dtype if seen is None else promote_types(seen, operand_dtype)
    return _combine(groups[0], _combine(groups[1], groups[2]))


def result_type_of(self_dtype: dtype, self_is_0dim: builtins.bool,
                   other_dtype: dtype, other_is_0dim: builtins.bool) -> dtype:
    """Fast path of `result_type` for two tensors, given their dtypes and 0-dim-ness.

    Made for the hot path of binary pointwise operators: one comparison and two dict
    lookups in precomputed tables (~50 ns plus the call); errors take the slow path.

    Args:
        self_dtype (dtype): dtype of the first tensor.
        self_is_0dim (bool): whether the first tensor has no dimensions.
        other_dtype (dtype): dtype of the second tensor.
        other_is_0dim (bool): whether the second tensor has no dimensions.

    Returns:
        dtype: the same as `result_type(self, other)`.

    Example::

        >>> result_type_of(torch.float16, False, torch.float64, True)
        torch.float16
    """
    try:
        if self_is_0dim == other_is_0dim:
            return _PROMOTE_ROWS[self_dtype][other_dtype]
        if other_is_0dim:
            return _COMBINE_ROWS[self_dtype][other_dtype]
        return _COMBINE_ROWS[other_dtype][self_dtype]
    except KeyError:                    # the same steps again, now raising torch's error
        if self_is_0dim == other_is_0dim:
            return promote_types(self_dtype, other_dtype)
        if other_is_0dim:
            return _combine(self_dtype, other_dtype)
        return _combine(other_dtype, self_dtype)


def result_type_with_scalar(tensor_dtype: dtype, scalar) -> dtype:
    """Fast path of `result_type` for one tensor (any dim) and one Python/NumPy scalar.

    Two dict lookups, by `tensor_dtype` then by `type(scalar)`; the table is rebuilt
    when the default dtype changes. The order of the operands does not matter. The
    scalar's value is not looked at: range checks (`scalar_dtype`) are the caller's.

    Args:
        tensor_dtype (dtype): dtype of the tensor.
        scalar: a Python or NumPy number.

    Returns:
        dtype: the same as `result_type(tensor, scalar)`.

    Example::

        >>> result_type_with_scalar(torch.int8, 1.5), result_type_with_scalar(torch.half, 1j)
        (torch.float32, torch.complex32)
    """
    try:
        return _defaults.scalar_rows[tensor_dtype][type(scalar)]
    except KeyError:
        return _combine(tensor_dtype, scalar_dtype(scalar))
