"""Binary arithmetic: add, sub, rsub, mul, div and their aliases (see aten/pointwise.py).

The helpers at the top are shared by the other binary families (`division.py`,
`power.py`, `minmax.py`, `binary_math.py`, `ternary.py`): the dtype an operand stands
for, torch's "not implemented for" error, and the alias declarations.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.promotion import scalar_dtype
from ....c10.tensor_impl import TensorBase
from ...derivatives import derivative_helper
from ...meta.pointwise import Promotion, common_dtype
from ...meta.shape import broadcast_shapes
from ...pointwise import DtypeRefusal, OptionCheck, pointwise, to_compute_scalar
from ...registry import composite
from .fused_multiply_add import axpy, fma_float32


# ----------------------------------------------------------------------------------
# Shared helpers
# ----------------------------------------------------------------------------------
def operand_dtype(value) -> dtypes.dtype:
    """The dtype of a tensor operand, or the one a Python number stands for (True: bool)."""
    return value._dtype if isinstance(value, TensorBase) else scalar_dtype(value)


def computed_dtype(*operands) -> dtypes.dtype:
    """The common dtype of the operands (None ones left out), as the kernel dispatches on."""
    return common_dtype([v for v in operands if v is not None])


def not_implemented(label: str, dtype: dtypes.dtype):
    """torch's dtype dispatch failure: ``"atan2_cpu" not implemented for 'ComplexFloat'``."""
    return NotImplementedError(f"\"{label}\" not implemented for '{scalar_type_name(dtype)}'")


def raise_at_kernel(error: Exception, operands) -> None:
    """Raise `error` as torch raises it from its CPU kernel: after the operands broadcast
    (a shape mismatch is reported first). For `kernel_check`s: the Meta key runs none."""
    tensors = [t for t in operands if isinstance(t, TensorBase)]
    broadcast_shapes(*(t._size for t in tensors))
    raise error


def refuse(label: str, *, bool_: bool = False, integral: bool = False,
           floating: bool = False, complex_: bool = False, operands: int = 2) -> DtypeRefusal:
    """A `kernel_check` raising `not_implemented` for the common dtype kinds torch has no
    kernel for; the operands are the first `operands` arguments."""
    def refuses(dtype: dtypes.dtype) -> bool:
        return ((bool_ and dtype is dtypes.bool)
                or (integral and dtype is not dtypes.bool and not dtype.is_floating_point
                    and not dtype.is_complex)
                or (floating and dtype.is_floating_point)
                or (complex_ and dtype.is_complex))

    def check(*args):
        dtype = computed_dtype(*args[:operands])
        if refuses(dtype):
            raise_at_kernel(not_implemented(label, dtype), args[:operands])
    return DtypeRefusal(refuses, check)


def refuse_complex_half(label: str):
    """A `kernel_check` for operators torch has no complex32 kernel for (``x / 1j``, x
    float16)."""
    def check(self, other, *rest):
        if _is_half(self) or _is_half(other):
            dtype = computed_dtype(self, other)
            if dtype is dtypes.complex32:
                raise_at_kernel(not_implemented(label, dtype), (self, other))
    return check


def _is_half(value) -> bool:
    return isinstance(value, TensorBase) and value._dtype in (dtypes.float16, dtypes.complex32)


def tensor_needed(name: str, second: str = "other", first: str | None = None):
    """A `check` for operators whose torch overloads all take a tensor (``pow(2, 3)`` is a
    TypeError in torch, where ``add(2, 3)`` is not): torch's message for numbers alone.
    `first` names the first argument where the schema does not call it `self`."""
    tensor_first, number_first = (first, first) if first else ("input", "self")

    def check(self, other, *rest):
        if isinstance(self, TensorBase) or isinstance(other, TensorBase):
            return
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got "
            f"({type(self).__name__}, {type(other).__name__}), but expected one of:\n"
            f" * (Tensor {tensor_first}, Tensor {second}, *, Tensor out = None)\n"
            f" * (Number {number_first}, Tensor {second}, *, Tensor out = None)\n"
            f" * (Tensor {tensor_first}, Number {second}, *, Tensor out = None)\n")
    return check


def all_of(*checks):
    """One `check` running several in turn."""
    def check(*args):
        for one in checks:
            one(*args)
    return check


def reduced_float(result) -> bool:
    """Whether a kernel's `result` dtype is float16 or bfloat16 (computed in float32)."""
    return result is not None and result.itemsize == 2


def alias_of(kernel, target: str):
    """A kernel for an alias (``multiply`` of ``mul``): the same math, its own docstring."""
    def alias(*args, **keywords):
        kernel(*args, **keywords)
    alias.__name__ = alias.__qualname__ = f"{target}_alias"
    alias.__doc__ = f"Alias for :func:`torch.{target}`."
    alias.__wrapped__ = kernel          # its signature is the kernel's (`result` included)
    alias.aliased = kernel              # autograd records the main operator's node
    return alias


# ----------------------------------------------------------------------------------
# add, sub, rsub
# ----------------------------------------------------------------------------------
@derivative_helper
def conj(value):
    """The conjugate of a tensor or of a number (a Scalar argument: ``alpha``)."""
    return value.conj() if isinstance(value, TensorBase) else value.conjugate()


@derivative_helper
def maybe_multiply(grad, value):
    """``grad * value``, or `grad` itself when `value` is a real number equal to 1 (torch's
    helper of the same name): the default ``alpha=1`` / ``beta=1`` cost no pass over the
    gradient, and a double backward records no MulBackward0, as in torch."""
    if isinstance(value, (int, float)) and value == 1:
        return grad
    return grad * value


def _check_alpha(self, other, alpha=1):
    """torch's alpha checks, against the common dtype of the operands."""
    if type(alpha) is int:
        return
    if type(alpha) is float and isinstance(self, TensorBase) and self._dtype.is_floating_point:
        return                          # the common dtype is floating (or complex)
    dtype = computed_dtype(self, other)
    if isinstance(alpha, bool) and dtype is not dtypes.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, complex)) and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("For integral input tensors, argument alpha must not be a "
                           "floating point number.")
    if isinstance(alpha, complex) and not dtype.is_complex:
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                           "complex number.")


def _check_sub(self, other, alpha=1):
    """torch refuses bool operands (wrapped numbers count: ``x - True``) in subtraction."""
    first, second = operand_dtype(self) is dtypes.bool, operand_dtype(other) is dtypes.bool
    if first and second:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if first or second:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    _check_alpha(self, other, alpha)


def _scaled(self, other, alpha, out, result=None) -> None:
    """``self + alpha * other`` rounded once, as torch's fused multiply-add does.

    float32 (and float16 / bfloat16 computed in it) rounds once (Note [Fused
    multiply-add in float32]); other dtypes round the product and the sum separately,
    integers wrap. Complex operands are always multiplied by alpha, even 1, as torch
    does: ``nan + 1j`` times ``1`` is ``nan + nanj`` in complex arithmetic. For a float16
    / bfloat16 `result`, alpha is first rounded to it, as torch converts alpha to the
    tensor's type.
    """
    if reduced_float(result):
        alpha = float(np.asarray(alpha).astype(result))
    if out.dtype == np.float32:
        if not axpy(np.float32(alpha), other, self, out):
            fma_float32(np.float32(alpha), other, self, out)
        return
    product = np.multiply(other, to_compute_scalar(alpha, out.dtype), dtype=out.dtype)
    np.add(self, product, out=out, casting="unsafe")


@pointwise("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
           inplace=True, out=True, check=OptionCheck(_check_alpha), ufunc=np.add,
           grad={"self": "grad", "other": "maybe_multiply(grad, conj(alpha))"})
def add(self, other, alpha, *, out, result=None):
    """Add `other`, scaled by `alpha`, to `self`: ``self + alpha * other``.

    Args:
        input (Tensor): the first operand.
        other (Tensor or Number): the second operand (broadcast against `input`).
        alpha (Number): the multiplier for `other`.

    Example::

        >>> torch.add(torch.tensor([1, 2]), torch.tensor([10, 20]), alpha=2)
        tensor([21, 42])
    """
    if alpha == 1 and out.dtype.kind != "c":
        np.add(self, other, out=out)
    else:
        _scaled(self, other, alpha, out, result)


_SUB = dict(inplace=True, out=True, check=_check_sub, ufunc=np.subtract,
            grad={"self": "grad", "other": "maybe_multiply(-grad, conj(alpha))"})


@pointwise("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", **_SUB)
def sub(self, other, alpha, *, out, result=None):
    """Subtract `other`, scaled by `alpha`, from `self`: ``self - alpha * other``.

    Args:
        input (Tensor): the tensor to subtract from.
        other (Tensor or Number): what is subtracted (broadcast against `input`).
        alpha (Number): the multiplier for `other`.

    Example::

        >>> torch.sub(torch.tensor([5, 6]), 1)
        tensor([4, 5])
    """
    if alpha == 1 and out.dtype.kind != "c":
        np.subtract(self, other, out=out)
    else:
        _scaled(self, other, -alpha, out, result)


subtract = pointwise("subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
                     **_SUB)(alias_of(sub.declaration.kernel, "sub"))


@composite("rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
           grad={"self": "-grad * conj(alpha)", "other": "grad"})
def rsub(self, other, alpha=1):
    """Subtract `input`, scaled by `alpha`, from `other`: ``other - alpha * input``.

    It is `sub` with the operands swapped, so the result is laid out after `other`.

    Args:
        input (Tensor): the tensor that is scaled and subtracted.
        other (Tensor or Number): the tensor or number subtracted from.
        alpha (Number): the multiplier for `input`.

    Example::

        >>> torch.rsub(torch.tensor([1, 2]), 10)
        tensor([9, 8])
    """
    return sub.call(other, self, alpha)


@composite("rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
           grad={"self": "-grad * conj(alpha)"})
def rsub_scalar(self, other, alpha=1):
    """`rsub` of a number: ``other - alpha * input``."""
    return sub.call(other, self, alpha)


# ----------------------------------------------------------------------------------
# mul, div
# ----------------------------------------------------------------------------------
_MUL = dict(inplace=True, out=True, numbers_as_given=True, ufunc=np.multiply,
            grad={"self": "grad * other.conj()", "other": "grad * self.conj()"})


@pointwise("mul.Tensor(Tensor self, Tensor other) -> Tensor", **_MUL)
def mul(self, other, *, out):
    """Multiply elementwise.

    Args:
        input (Tensor): the first factor.
        other (Tensor or Number): the second factor (broadcast against `input`).

    Example::

        >>> torch.mul(torch.tensor([1., 2.]), 3)
        tensor([3., 6.])
    """
    np.multiply(self, other, out=out)


multiply = pointwise("multiply.Tensor(Tensor self, Tensor other) -> Tensor",
                     **_MUL)(alias_of(mul.declaration.kernel, "mul"))

DIV = dict(promotion=Promotion.INT_TO_FLOAT, inplace=True, out=True, numbers_as_given=True,
           ufunc=np.true_divide,
           kernel_check=refuse_complex_half("div_cpu"),
           grad={"self": "grad / other.conj()",
                 "other": "-grad * ((self / other) / other).conj()"})


@pointwise("div.Tensor(Tensor self, Tensor other) -> Tensor", **DIV)
def div(self, other, *, out):
    """True division: integers divide into the default floating dtype.

    Args:
        input (Tensor): the dividend.
        other (Tensor or Number): the divisor (broadcast against `input`).
        rounding_mode (str, optional): None (true division), ``'trunc'`` (round towards
            zero) or ``'floor'`` (round down); the rounding modes keep integer dtypes.

    Example::

        >>> torch.div(torch.tensor([1, 2]), 4)
        tensor([0.2500, 0.5000])
        >>> torch.div(torch.tensor([-7, 7]), 2, rounding_mode='floor')
        tensor([-4,  3])
    """
    np.true_divide(self, other, out=out)
