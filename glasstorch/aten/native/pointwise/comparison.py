"""Comparisons: eq, ne, lt, le, gt, ge and their aliases; isclose, allclose, equal.

The six comparisons are elementwise operators whose result is bool
(`Promotion.COMPARISON`): the operands are promoted to their common dtype, compared
there (float16 and bfloat16 too: no float32 opmath, as in torch), and the answer is written as bool, or cast into the dtype of `out` / of `self`
for the out= and in-place forms (``x.lt_(y)`` writes 1 and 0 into `x`). Ordering
comparisons refuse complex operands, as torch's CPU kernels do.

None of them is differentiable: their result holds no gradient (derivatives.yaml
declares these inputs ``non_differentiable``).
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype, scalar_type_name
from ....c10.promotion import get_default_dtype, promote_types
from ...backends import no_meta_kernel
from ...dispatcher import ops
from ...meta.pointwise import Promotion, elementwise_meta
from ...pointwise import pointwise
from ...registry import composite, op
from .binary import refuse

_aten = ops.aten

# derivatives.yaml's word for an input through which no gradient flows
NOT_DIFFERENTIABLE = "non_differentiable"
_NO_GRAD = {"self": NOT_DIFFERENTIABLE, "other": NOT_DIFFERENTIABLE}


def _refuse_complex_operands(name: str):
    """torch's CPU kernels of the ordering comparisons have no complex loop. Promotion
    can only reach complex from a complex operand, so other calls skip the full check
    (comparisons are hot: masks, loops)."""
    full_check = refuse(f"{name}_cpu", complex_=True)

    def check(self, other, *rest):
        if _complex_operand(self) or _complex_operand(other):
            full_check(self, other)
    return check


def _complex_operand(value) -> bool:
    dtype = getattr(value, "_dtype", None)
    return dtype.is_complex if dtype is not None else isinstance(value, complex)


_refuse_complex = {name: _refuse_complex_operands(name) for name in ("lt", "le", "gt", "ge")}


def _comparison(name: str, ufunc, doc: str, ordered_as: str | None = None):
    """Declare ``name.Tensor`` (with ``name_.Tensor`` and ``name.Tensor_out``) as
    `ufunc` with a bool result. `ordered_as` names the ordering kernel whose complex
    refusal applies (an alias reports the name of the operator it stands for)."""
    def kernel(self, other, *, out):
        ufunc(self, other, out=out)
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    return pointwise(f"{name}.Tensor(Tensor self, Tensor other) -> Tensor",
                     promotion=Promotion.COMPARISON, inplace=True, out=True,
                     out_overload="Tensor_out", grad=_NO_GRAD, numbers=("other",), ufunc=ufunc,
                     kernel_check=_refuse_complex[ordered_as] if ordered_as else None)(kernel)


_COMPARISON_DOC = """Computes ``input {symbol} other`` elementwise.

    The operands are promoted to their common dtype and compared there; `other` may be
    a tensor broadcastable with `input`, or a number.{extra}

    Args:
        input (Tensor): the tensor to compare.
        other (Tensor or Number): what to compare it with.

    Keyword args:
        out (Tensor, optional): the output tensor (any dtype: the bools are cast).

    Returns:
        A bool tensor, True where the comparison holds.

    Example::

        >>> torch.{name}(torch.tensor([1, 2, 3]), 2)
        tensor({example})
"""
_ORDERED = "\n\n    Complex numbers have no order: complex operands are refused."


def _doc(name: str, symbol: str, example: str, ordered: bool) -> str:
    return _COMPARISON_DOC.format(symbol=symbol, name=name, example=example,
                                  extra=_ORDERED if ordered else "")


eq = _comparison("eq", np.equal, _doc("eq", "==", "[False,  True, False]", False))
ne = _comparison("ne", np.not_equal, _doc("ne", "!=", "[ True, False,  True]", False))
lt = _comparison("lt", np.less, _doc("lt", "<", "[ True, False, False]", True), "lt")
le = _comparison("le", np.less_equal, _doc("le", "<=", "[ True,  True, False]", True), "le")
gt = _comparison("gt", np.greater, _doc("gt", ">", "[False, False,  True]", True), "gt")
ge = _comparison("ge", np.greater_equal, _doc("ge", ">=", "[False,  True,  True]", True),
                 "ge")

# Aliases: torch exposes them as operators of their own (with in-place and out= forms).
greater = _comparison("greater", np.greater, "Alias for :func:`torch.gt`.", "gt")
greater_equal = _comparison("greater_equal", np.greater_equal, "Alias for :func:`torch.ge`.",
                            "ge")
less = _comparison("less", np.less, "Alias for :func:`torch.lt`.", "lt")
less_equal = _comparison("less_equal", np.less_equal, "Alias for :func:`torch.le`.", "le")
not_equal = _comparison("not_equal", np.not_equal, "Alias for :func:`torch.ne`.")


# ----------------------------------------------------------------------------------
# isclose, allclose
# ----------------------------------------------------------------------------------
def _check_close_args(self, other, rtol: float, atol: float) -> None:
    if self._dtype is not other._dtype:
        raise RuntimeError(f"{scalar_type_name(self._dtype)} did not match "
                           f"{scalar_type_name(other._dtype)}")
    for name, value in (("rtol", rtol), ("atol", atol)):
        if not value >= 0:                       # NaN is refused too
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got "
                               f"{value:g}")


def _isclose_meta(self, other, rtol, atol, equal_nan):
    _check_close_args(self, other, rtol, atol)
    return elementwise_meta([self, other], Promotion.ALWAYS_BOOL)


_REDUCED = {dtypes.float16: np.dtype(np.float32), dtypes.bfloat16: np.dtype(np.float32)}


def _close_into(self: np.ndarray, other: np.ndarray, dtype, rtol: float, atol: float,
                equal_nan: bool, out: np.ndarray) -> None:
    """Write ``|self - other| <= atol + rtol * |other|`` (or equality) into bool `out`.

    Each step rounds to the operands' dtype as torch's chain of operators does
    (float16 / bfloat16 compute each step in float32 and round it back). Integers and
    bool are compared in the default float dtype: their difference must not wrap.
    """
    compute = _REDUCED.get(dtype, dtype._np)
    a, b = self.astype(compute, copy=False), other.astype(compute, copy=False)
    np.equal(a, b, out=out)
    inexact = dtype.is_floating_point or dtype.is_complex
    if equal_nan and inexact:
        out |= np.isnan(a) & np.isnan(b)
    if rtol == 0 and atol == 0:
        return
    if not inexact:
        dtype = get_default_dtype()
        compute = dtype._np
        a, b = a.astype(compute), b.astype(compute)

    def rounded(values):
        return values if compute == dtype._np else values.astype(dtype._np).astype(compute)
    real = np.finfo(compute).dtype.type
    allowed = rounded(real(atol) + np.abs(rounded(b * compute.type(rtol))))
    actual = np.abs(rounded(a - b))
    out |= np.isfinite(actual) & (actual <= allowed)


@op("isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, "
    "bool equal_nan=False) -> Tensor", meta=_isclose_meta, method=True, grad=_NO_GRAD)
def isclose(self, other, rtol, atol, equal_nan, *, out):
    """Tells, elementwise, whether `input` is close to `other`.

    Close means ``|input - other| <= atol + rtol * |other|``; equal values (infinities
    of one sign included) are always close, and NaNs are close to each other only with
    `equal_nan`. Both tensors must have one dtype; they broadcast.

    Args:
        input (Tensor): the first tensor.
        other (Tensor): the second tensor.
        rtol (float): the tolerance relative to `other`. Default: 1e-05.
        atol (float): the absolute tolerance. Default: 1e-08.
        equal_nan (bool): count two NaNs as close. Default: False.

    Returns:
        A bool tensor of the broadcast shape.

    Example::

        >>> torch.isclose(torch.tensor([1., 2.]), torch.tensor([1.000001, 2.1]))
        tensor([ True, False])
    """
    with np.errstate(all="ignore"):         # inf - inf and friends, silent as in torch
        _close_into(self, other, from_numpy_dtype(self.dtype), rtol, atol, equal_nan, out)


@composite("allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, "
           "bool equal_nan=False) -> bool", method=True)
def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Tells whether every element of `input` is close to `other` (see `torch.isclose`).

    Returns:
        A Python bool.

    Example::

        >>> torch.allclose(torch.tensor([1., 2.]), torch.tensor([1.000001, 2.]))
        True
    """
    close = isclose.call(self, other, rtol, atol, equal_nan)
    # as torch, all().item(): on meta, item() refuses (there is no value)
    return bool(_aten._local_scalar_dense.default.call(_aten.all.default.call(close)))


def _equal_meta(self, other):
    """Nothing to check: the answer is the kernel's (torch has no meta kernel: below)."""


@op("equal(Tensor self, Tensor other) -> bool", meta=_equal_meta, method=True)
def equal(self, other):
    """Tells whether two tensors have the same sizes and the same elements.

    Elements are compared in the operands' promoted dtype, so tensors of different
    dtypes can be equal; NaN equals nothing, and ``0.0`` equals ``-0.0``.

    Returns:
        A Python bool.

    Example::

        >>> torch.equal(torch.tensor([1, 2]), torch.tensor([1., 2.]))
        True
    """
    if self.shape != other.shape:
        return False
    common = promote_types(from_numpy_dtype(self.dtype), from_numpy_dtype(other.dtype))
    compute = _REDUCED.get(common, common._np)
    return bool(np.array_equal(self.astype(compute, copy=False),
                               other.astype(compute, copy=False)))


no_meta_kernel(equal)
