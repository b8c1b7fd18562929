"""The meta rule of elementwise operators: torch's TensorIterator, without the iterating.

From the operands (tensors, and Python numbers standing in for tensors) it settles:
  * the common dtype, by torch's promotion (`c10/promotion.py`), and from it the
    result dtype and the compute dtype according to the operator's promotion kind;
  * the result shape, by broadcasting;
  * the result strides: row-major when every tensor operand is, else the layout of
    the operands (TensorIterator's dimension permutation), so ``x.t() + 1`` is
    laid out as ``x.t()``.
"""
from __future__ import annotations

import enum

from ...c10 import dtype as dtypes
from ...c10.dtype import scalar_type_name
from ...c10.promotion import (get_default_dtype, result_type, result_type_of,
                              result_type_with_scalar)
from ...c10.tensor_impl import TensorBase, contiguous_strides
from ..structured import TensorMeta
from .shape import broadcast_shapes, dense_strides_in_order


class Promotion(enum.Enum):
    """How an operator's result dtype follows from the common dtype (torch's kinds)."""

    DEFAULT = "default"                   # the common dtype
    INT_TO_FLOAT = "int_to_float"         # integers and bool become the default float
    ALWAYS_BOOL = "always_bool"           # predicates (isnan, signbit, ...)
    COMPARISON = "comparison"             # eq, lt, logical_and...: bool, no opmath
    COMPLEX_TO_FLOAT = "complex_to_float"  # abs: complex gives its real dtype
    BOOL_TO_LONG = "bool_to_long"         # bool becomes int64
    DOUBLE = "double"                     # float_power: float64, or complex128 if complex
    INT_TO_FLOAT_COMPLEX_TO_FLOAT = "int_to_float_complex_to_float"   # angle: both

    # members are singletons compared by identity: hashed by identity too, in C (Enum's
    # own hash is a Python frame, paid by every table look-up keyed by a kind)
    __hash__ = object.__hash__


# float16 / bfloat16 are computed in float32 and rounded once ("opmath"); complex32 too.
_OPMATH = {dtypes.float16: dtypes.float32, dtypes.bfloat16: dtypes.float32,
           dtypes.complex32: dtypes.complex64}


class ElementwiseMeta(TensorMeta):
    """A TensorMeta that also names the dtypes the kernel reads and writes.

    `compute` is the dtype operands are converted to; `target` the dtype the kernel
    writes: the compute dtype, except for kinds whose result is another kind of number
    (comparisons write bool, `abs` of complex writes real), where the kernel writes the
    result dtype directly.
    """

    __slots__ = ("compute", "target", "casts_to_out")

    def __init__(self, shape, dtype, stride, compute, target, casts_to_out: bool = True) -> None:
        super().__init__(shape, dtype, stride)
        self.compute = compute
        self.target = target
        # An out= of another dtype receives the result through a temporary of the result
        # dtype (TensorIterator's cast_common_dtype_to_outputs); comparisons write it
        # directly. torch resizes a misshaped out once more on the temporary's way back.
        self.casts_to_out = casts_to_out


def common_dtype(operands) -> dtypes.dtype:
    """Promotion over tensors and numbers, with fast paths for the one- and two-operand cases."""
    if len(operands) == 1:
        only = operands[0]
        return only._dtype if isinstance(only, TensorBase) else result_type(only)
    if len(operands) == 2:
        a, b = operands
        a_is, b_is = isinstance(a, TensorBase), isinstance(b, TensorBase)
        if a_is and b_is:
            return result_type_of(a._dtype, not a._size, b._dtype, not b._size)
        if a_is:
            return result_type_with_scalar(a._dtype, b)
        if b_is:
            return result_type_with_scalar(b._dtype, a)
    return result_type(*operands)


_INT_TO_FLOAT = (Promotion.INT_TO_FLOAT, Promotion.INT_TO_FLOAT_COMPLEX_TO_FLOAT)
_COMPLEX_TO_FLOAT = (Promotion.COMPLEX_TO_FLOAT, Promotion.INT_TO_FLOAT_COMPLEX_TO_FLOAT)


def result_and_compute(common: dtypes.dtype, kind: Promotion) -> tuple:
    """(result, compute, target) dtypes for a common dtype under a promotion kind."""
    if kind in _INT_TO_FLOAT and not (common.is_floating_point or common.is_complex):
        common = get_default_dtype()
    elif kind is Promotion.BOOL_TO_LONG and common is dtypes.bool:
        common = dtypes.int64
    elif kind is Promotion.DOUBLE:
        common = dtypes.complex128 if common.is_complex else dtypes.float64
    if kind is Promotion.COMPARISON and common is not dtypes.complex32:
        # torch's comparison kernels (logical_and & co. are comparisons there) read the
        # operands in the common dtype, without opmath: a number or 0-dim operand is
        # rounded to float16/bfloat16 first, so float16 2048 == 2049 holds
        return dtypes.bool, common, dtypes.bool
    compute = _OPMATH.get(common, common)
    if kind is Promotion.ALWAYS_BOOL or kind is Promotion.COMPARISON:
        return dtypes.bool, compute, dtypes.bool
    if kind in _COMPLEX_TO_FLOAT and common.is_complex:
        return common.to_real(), compute, compute.to_real()
    return common, compute, compute


def elementwise_meta(operands, kind: Promotion, inputs=None) -> ElementwiseMeta:
    """Describe the result of an elementwise operation over `operands`.

    `inputs`, when given, are all the tensors that shape the result, in schema order:
    the operands and masks such as `where`'s condition, which take no part in promotion.
    """
    tensors = [t for t in (operands if inputs is None else inputs) if isinstance(t, TensorBase)]
    result, compute, target = result_and_compute(common_dtype(operands), kind)
    if len(tensors) == 1:
        t = tensors[0]
        shape, stride = t._size, _layout_of((t,), t._size)
    elif not tensors:
        shape, stride = (), None
    else:
        shape = tensors[0]._size
        for t in tensors[1:]:
            if t._size != shape:
                shape = broadcast_shapes(*(t._size for t in tensors))
                break
        stride = _layout_of(tensors, shape)
    return ElementwiseMeta(shape, result, stride, compute, target, kind not in _DIRECT_TO_OUT)


# Kinds whose torch kernels hand an out= of another dtype the result without
# TensorIterator's temporary (comparisons; abs and angle make their own real result).
_DIRECT_TO_OUT = (Promotion.ALWAYS_BOOL, Promotion.COMPARISON, Promotion.COMPLEX_TO_FLOAT,
                  Promotion.INT_TO_FLOAT_COMPLEX_TO_FLOAT)


def _layout_of(tensors, shape: tuple):
    """None (row-major) when every operand is row-major, else TensorIterator's layout."""
    for t in tensors:
        if t._size and t._stride != contiguous_strides(t._size):
            return permuted_strides(tensors, shape)
    return None


def permuted_strides(tensors, shape: tuple) -> tuple:
    """Dense strides for `shape` whose dimension order follows the operands' strides
    (TensorIterator's order, `iteration_strides`): the result is laid out densely in it."""
    return iteration_strides([_broadcast_strides(t, shape) for t in tensors], shape)


def iteration_strides(operand_strides: list, shape: tuple) -> tuple:
    """The dense strides of TensorIterator's order over `shape` for operands with
    `operand_strides` (aligned to `shape`, in elements or bytes): an element's place
    in the iteration is its index dotted with them."""
    return dense_strides_in_order(shape, compare_strides(operand_strides, shape))


def stride_comparison(tensors, shape: tuple):
    """TensorIterator's comparison of two dims of `shape` by the strides of `tensors`."""
    return compare_strides([_broadcast_strides(t, shape) for t in tensors], shape)


def compare_strides(operand_strides: list, shape: tuple):
    """TensorIterator's comparison of two dims by operand strides aligned to `shape`.

    Dimensions are ordered innermost-first by comparing strides operand by operand:
    the first operand whose strides at two dims differ (ignoring broadcast, stride 0,
    dims) decides; equal strides keep the natural order.
    """
    def outer_first(d0: int, d1: int) -> int:     # >0: d0 should be outside d1
        for strides in operand_strides:
            s0, s1 = strides[d0], strides[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:          # equal strides: the smaller size goes inside
                return 1
        return 0
    return outer_first


def _broadcast_strides(t: TensorBase, shape: tuple) -> tuple:
    """`t`'s strides aligned to `shape` (leading and stretched dims get stride 0)."""
    lead = len(shape) - len(t._size)
    return (0,) * lead + tuple(0 if s == 1 and n != 1 else st
                               for s, st, n in zip(t._size, t._stride, shape[lead:]))


def check_not_bool(op: str, operands, message: str) -> None:
    """Refuse an operator on bool tensors (torch's `bool - bool`, `-bool` errors)."""
    if all(isinstance(t, TensorBase) and t._dtype is dtypes.bool for t in operands):
        raise RuntimeError(message)


def check_integral(op: str, operands, what: str = "") -> None:
    """Refuse floating and complex operands (bitwise operators)."""
    for t in operands:
        dtype = t._dtype if isinstance(t, TensorBase) else None
        if dtype is not None and (dtype.is_floating_point or dtype.is_complex):
            raise RuntimeError(f"\"{op}_cpu\" not implemented for '{scalar_type_name(dtype)}'")
