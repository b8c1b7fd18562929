"""Type promotion: torch's lattice of dtypes, and its rules for scalars and 0-dim tensors.

`promote_types(a, b)` is the join of two dtypes in torch's lattice. `result_type`
adds torch's category rule: operands are split into three priority groups
(tensors with dimensions, 0-dim tensors, Python scalars); a lower-priority group can
only raise the result's *category* (bool < integer < floating < complex), never its
width within the category. So ``int8_tensor + 1000`` stays int8, while
``int8_tensor + 1.5`` becomes the default float dtype.
"""
from __future__ import annotations

import builtins

from . import dtype as d
from .dtype import dtype, scalar_type_name

_CATEGORY = {"b": 0, "i": 1, "f": 2, "c": 3}

# Signed integer (and bool) dtypes in increasing width, the floating ladder, and the
# complex ladder; promotion inside a ladder takes the wider one.
_SIGNED_INTS = (d.bool, d.int8, d.int16, d.int32, d.int64)
_UNSIGNED_INTS = (d.uint8, d.uint16, d.uint32, d.uint64)


def category(t: dtype) -> int:
    """0 bool, 1 integer, 2 floating, 3 complex."""
    return _CATEGORY[t._kind]


def _promote_integers(a: dtype, b: dtype) -> dtype:
    if a is d.uint8 and b in _SIGNED_INTS:
        return d.int16 if b in (d.int8,) else (d.uint8 if b is d.bool else b)
    if b is d.uint8 and a in _SIGNED_INTS:
        return _promote_integers(b, a)
    if a in _SIGNED_INTS and b in _SIGNED_INTS:
        return max(a, b, key=_SIGNED_INTS.index)
    if a in _UNSIGNED_INTS and b in _UNSIGNED_INTS and (a is d.uint8 or b is d.uint8 or a is b):
        return max(a, b, key=_UNSIGNED_INTS.index)
    if a is d.bool and b in _UNSIGNED_INTS:
        return b
    if b is d.bool and a in _UNSIGNED_INTS:
        return a
    raise TypeError(f"Promotion for uint16, uint32, uint64 types is not supported, attempted "
                    f"to promote {scalar_type_name(a)} and {scalar_type_name(b)}")


def _promote_floats(a: dtype, b: dtype) -> dtype:
    if a is b:
        return a
    if {a, b} == {d.float16, d.bfloat16}:
        return d.float32
    order = (d.float16, d.bfloat16, d.float32, d.float64)
    return max(a, b, key=order.index)


def _build_table() -> dict:
    table = {}
    regular = [t for t in d.ALL_DTYPES if t not in d.FLOAT8_DTYPES]
    for a in regular:
        for b in regular:
            ca, cb = category(a), category(b)
            if ca <= 1 and cb <= 1:
                try:
                    table[a, b] = _promote_integers(a, b)
                except TypeError:
                    continue
            elif ca == 3 or cb == 3:
                ra = a.to_real() if ca >= 2 else None
                rb = b.to_real() if cb >= 2 else None
                reals = [r for r in (ra, rb) if r is not None]
                best = reals[0] if len(reals) == 1 else _promote_floats(*reals)
                table[a, b] = d.complex128 if best is d.float64 else d.complex64
            elif ca == 2 and cb == 2:
                table[a, b] = _promote_floats(a, b)
            else:
                table[a, b] = a if ca == 2 else b
    return table


PROMOTION_TABLE = _build_table()


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """The smallest dtype both `type1` and `type2` convert to without losing their kind.

    Args:
        type1, type2: dtypes.

    Returns:
        The promoted dtype.

    Example::

        >>> torch.promote_types(torch.int32, torch.float16)
        torch.float16
    """
    if type1 is type2:
        return type1
    try:
        return PROMOTION_TABLE[type1, type2]
    except KeyError:
        pass
    if type1 in d.FLOAT8_DTYPES or type2 in d.FLOAT8_DTYPES:
        raise TypeError(f"Promotion for Float8 Types is not supported, attempted to promote "
                        f"{scalar_type_name(type1)} and {scalar_type_name(type2)}")
    _promote_integers(type1, type2)           # raises torch's unsigned-promotion error
    raise TypeError(f"cannot promote {type1} and {type2}")


def can_cast(from_: dtype, to: dtype) -> bool:
    """Whether torch's casting rule allows `from_` -> `to` in an operation's output.

    Only lowering the category is refused: complex to non-complex, floating to
    integer, and anything but bool to bool.
    """
    return _CATEGORY[from_._kind] <= _CATEGORY[to._kind]


def scalar_dtype(value) -> dtype:
    """The dtype a Python (or NumPy) scalar stands for in promotion."""
    if isinstance(value, (builtins.bool,)) or type(value).__name__ == "bool_":
        return d.bool
    if isinstance(value, builtins.int) or hasattr(value, "__index__"):
        return d.int64
    if isinstance(value, builtins.complex):
        return default_complex_dtype()
    return default_float_dtype()


class _Defaults:
    float = d.float32


_defaults = _Defaults()


def default_float_dtype() -> dtype:
    return _defaults.float


def default_complex_dtype() -> dtype:
    return d.complex128 if _defaults.float is d.float64 else d.complex64


def set_default_dtype(value: dtype) -> None:
    """Make `value` the dtype of Python floats in tensors (float32 unless changed).

    Raises:
        TypeError: for anything but float16, bfloat16, float32 or float64.
    """
    if value not in (d.float32, d.float64, d.float16, d.bfloat16):
        raise TypeError("only floating-point types are supported as the default type")
    _defaults.float = value


def get_default_dtype() -> dtype:
    """The current default floating point dtype."""
    return _defaults.float
