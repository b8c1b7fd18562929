"""Powers: pow (tensor or number base, tensor or number exponent) and float_power.

One kernel serves torch's three pow overloads, because an operand may be a number
(torch's wrapped numbers); the kernel tells them apart as torch's kernels do:
  * a number exponent (``pow.Tensor_Scalar``): 0 gives ones and 1 a copy, and the
    common exponents take the exact shortcuts torch takes (``x * x`` for 2, ``sqrt``
    for 0.5, ``1 / x`` for -1, ...); an integer tensor refuses a negative integer;
  * a number base of 1 (``pow.Scalar``) gives ones;
  * integers raised to tensors of negative exponents give 0, except for bases 1 and -1
    (torch's integer power, where NumPy would raise).
``pow.Scalar`` and ``pow.Tensor_Scalar`` are overloads of their own, which the bindings
choose for a number base or exponent as torch's do: their nodes have one edge.
"""
from __future__ import annotations

import cmath
import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dispatch_key import DispatchKey
from ....c10.dtype import scalar_type_name
from ....c10.tensor_impl import TensorBase
from ... import functions as at
from ...derivatives import derivative_helper
from ...meta.pointwise import Promotion
from ...pointwise import pointwise
from ...registry import TensorMeta, composite, prepare_out
from ...schema import SchemaKind
from ..creation.conversion import to_dtype
from ..creation.copy import fill_
from .binary import (computed_dtype, not_implemented, operand_dtype, raise_at_kernel,
                     reduced_float, tensor_needed)


_pow_needs_tensor = tensor_needed("pow", "exponent")


def _check_pow(self, exponent):
    _pow_needs_tensor(self, exponent)
    if _integral_number(exponent) and exponent < 0 and isinstance(self, TensorBase) and not (
            self._dtype.is_floating_point or self._dtype.is_complex):
        raise RuntimeError("Integers to negative integer powers are not allowed.")


def _integral_number(value) -> bool:
    return value is not None and not isinstance(value, _NOT_INTEGRAL_NUMBERS)


_NOT_INTEGRAL_NUMBERS = (TensorBase, float, complex, np.inexact)


def _refuse_pow(self, exponent):
    """torch's pow kernels: none for bool or complex32, but ones or a copy, whatever the
    dtype, for an integral exponent 0 or 1."""
    if _integral_number(exponent) and exponent in (0, 1):
        return
    dtype = computed_dtype(self, exponent)
    if dtype is dtypes.bool or dtype is dtypes.complex32:
        raise_at_kernel(not_implemented("pow", dtype), (self, exponent))


def _pow_of_number(base, exponent, out: np.ndarray, result=None) -> None:
    """A tensor raised to a number, with torch's exact shortcuts for common exponents.

    For float16 / bfloat16 results torch rounds the exponent to that dtype first;
    float16 takes no shortcut at all (``pow(-0., -0.5)`` is inf, not 1 / -0.), and
    bfloat16 rounds the square inside ``x * x * x`` and ``1 / (x * x)``.
    """
    if exponent == 0:
        out.fill(1)
    elif exponent == 1:
        np.copyto(out, base)
    elif out.dtype.kind in "iub":
        np.power(base, exponent, out=out)
    elif reduced_float(result):
        exponent = out.dtype.type(np.asarray(exponent).astype(result))
        if result == np.float16:
            np.power(base, exponent, out=out)
        elif exponent in (3, -2):
            square = np.multiply(base, base).astype(result).astype(out.dtype)
            if exponent == 3:
                np.multiply(square, base, out=out)
            else:
                np.divide(1, square, out=out)
        else:
            _pow_of_number(base, exponent, out)
    elif exponent == 2:
        np.multiply(base, base, out=out)
    elif exponent == 3:
        np.multiply(np.multiply(base, base), base, out=out)
    elif exponent == 0.5:
        np.sqrt(base, out=out)
    elif exponent == -0.5:
        np.divide(1, np.sqrt(base), out=out)
    elif exponent == -1:
        np.divide(1, base, out=out)
    elif exponent == -2:
        np.divide(1, np.multiply(base, base), out=out)
    else:
        _power(base, exponent, out)


def _power(base, exponent, out: np.ndarray) -> None:
    """Floating powers; complex ones as C's cpow, ``exp(exponent * log(base))``, without
    NumPy's shortcuts for integral exponents (torch gives ``0 ** 0j`` as nan)."""
    if out.dtype.kind == "c":
        np.exp(np.multiply(exponent, np.log(base), dtype=out.dtype), out=out)
    else:
        np.power(base, exponent, out=out)


def _integer_pow(base, exponent, out: np.ndarray) -> None:
    """Integer powers; a negative exponent gives 0 unless the base is 1 or -1."""
    negative = exponent < 0
    if not np.any(negative):
        np.power(base, exponent, out=out)
        return
    unit = np.where(base == 1, 1, np.where(exponent % 2 == 0, 1, -1))
    special = np.where((base == 1) | (base == -1), unit, 0)
    powered = np.power(base, np.where(negative, 0, exponent))
    np.copyto(out, np.where(negative, special, powered), casting="unsafe")


@derivative_helper
def pow_backward(grad, self, exponent):
    """d(self ** exponent)/d(self): a number exponent (torch's Scalar overload) needs no
    `where` guard; a tensor one guards its zeros (0 ** 0 has slope 0)."""
    if not isinstance(exponent, TensorBase) or \
            getattr(exponent, "_wrapped_number", False) and not exponent.requires_grad:
        value = exponent if not isinstance(exponent, TensorBase) else exponent.item()
        if value == 0:
            return at.zeros_like(self)
        return grad * (value * self.pow(value - 1)).conj()
    return at.where(exponent == 0, at.zeros_like(grad),
                    grad * (exponent * self.pow(exponent - 1)).conj())


_POW_GRAD = {
    "self": "pow_backward(grad, self, exponent)",
    "exponent": "where((self == 0) & (exponent.real >= 0), zeros_like(grad), "
                "grad * (result * self.log()).conj())",
}


@pointwise("pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", inplace=True,
           out=True, check=_check_pow, kernel_check=_refuse_pow, grad=_POW_GRAD,
           numbers=())
def pow(self, exponent, *, out, result=None):
    """`input` raised to the power `exponent`, elementwise.

    Either may be a number. Integer tensors raised to integers stay integers (and
    wrap around on overflow); an integer tensor to a negative integer number is an
    error, while negative exponents in a tensor give 0 (except for bases 1 and -1).

    Args:
        input (Tensor or Number): the base.
        exponent (Tensor or Number): the exponent.

    Example::

        >>> torch.pow(torch.tensor([1., 2., 3.]), 2)
        tensor([1., 4., 9.])
        >>> torch.pow(2, torch.tensor([0, 1, 2]))
        tensor([1, 2, 4])
    """
    if isinstance(exponent, np.generic):
        _pow_of_number(self, exponent, out, result)
    elif isinstance(self, np.generic) and self == 1:
        out.fill(1)
    elif out.dtype.kind in "iu":
        _integer_pow(self, exponent, out)
    else:
        _power(self, exponent, out)


@derivative_helper
def pow_backward_exponent_of_number(grad, base, exponent, result):
    """d(base ** exponent)/d(exponent) for a number `base`, as torch's
    ``pow_backward_exponent``: ``grad * conj(result * log(base))``, and 0 where `base`
    is 0 and the exponent real and not negative. A real base of a complex exponent
    has a complex logarithm; a real exponent keeps the real part. torch's Scalar has no
    logarithm of a bool, and its assertion fails."""
    if isinstance(base, bool):
        raise RuntimeError("false INTERNAL ASSERT FAILED at \"/__w/pytorch/pytorch/c10/core/"
                           "Scalar.cpp\":42, please report a bug to PyTorch. unknown ivalue tag 4")
    complex_exponent = exponent.is_complex()
    if complex_exponent or isinstance(base, complex):
        base = complex(base)
        log_base = complex(-math.inf, 0.0) if base == 0 else cmath.log(base)
    else:
        base = float(base)
        log_base = math.log(base) if base > 0 else -math.inf if base == 0 else math.nan
    slope = (result * log_base).conj()
    if base == 0:
        keep = (exponent.imag == 0) & (exponent.real >= 0) if complex_exponent else \
            exponent >= 0
        slope = at.where(keep, at.zeros((), dtype=grad.dtype), slope)
    gradient = grad * slope
    if gradient.is_complex() and not complex_exponent:
        return gradient.real
    return gradient


@composite("pow.Scalar(Scalar self, Tensor exponent) -> Tensor", out=True,
           out_overload="Scalar_out",
           grad={"exponent": "pow_backward_exponent_of_number(grad, self, exponent, result)"})
def pow_scalar(self, exponent, out=None):
    """A number raised to the powers in a tensor: ``2 ** exponent``.

    The number takes part in promotion as a Python number does (an integer base and
    integer exponents stay integers); a base of 1 gives ones.

    Args:
        input (Number): the base.
        exponent (Tensor): the exponents.

    Example::

        >>> torch.pow(2, torch.tensor([0, 1, 2]))
        tensor([1, 2, 4])
    """
    if out is None:
        return pow.call(self, exponent)
    # torch's meta rule resizes `out` (of its own dtype); a base of 1 (not True) then
    # fills it without the cast check of the Tensor overload that computes the others
    prepare_out(pow_scalar.declaration.overloads[SchemaKind.out], out,
                TensorMeta(exponent._size, out._dtype))
    if type(self) is not bool and self == 1:
        return fill_.call(out, 1)
    return pow.declaration.overloads[SchemaKind.out].call(self, exponent, out)


@composite("pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", method=True,
           out=True, grad={"self": "pow_backward(grad, self, exponent)"})
def pow_tensor_scalar(self, exponent, out=None):
    """A tensor raised to a number: ``x ** 2``, ``torch.pow(x, 0.5)``.

    The number takes part in promotion as a Python number does (an integer tensor to a
    float power is floating); the common exponents take torch's exact shortcuts.

    Args:
        input (Tensor): the bases.
        exponent (Number): the power.

    Example::

        >>> torch.pow(torch.tensor([1., 2., 3.]), 2)
        tensor([1., 4., 9.])
    """
    if out is None:
        return pow.call(self, exponent)
    return pow.declaration.overloads[SchemaKind.out].call(self, exponent, out)


@composite("pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", method=True,
           function=False, grad={"self": "pow_backward(grad, self, exponent)"})
def pow_tensor_scalar_(self, exponent):
    """In-place `pow` with a number exponent: ``x.pow_(2)``, ``x **= 2``."""
    return pow.declaration.overloads[SchemaKind.inplace].call(self, exponent)


def _share_fast_paths() -> None:
    """A plain CPU call with a number exponent computes what ``pow.Tensor_Tensor``'s
    fast path computes with it: the Scalar overloads take those fast paths (and
    their express entries), and their bodies serve the other calls."""
    for kind, scalar in ((SchemaKind.functional, pow_tensor_scalar),
                         (SchemaKind.inplace, pow_tensor_scalar_)):
        fast = pow.declaration.overloads[kind].fast_paths.get(int(DispatchKey.CPU))
        if fast is not None:
            scalar.register_fast_path(DispatchKey.CPU, fast)


_share_fast_paths()


def _double_of(self, exponent) -> dtypes.dtype:
    """float_power's dtype: complex128 when an operand is complex, else float64."""
    complex_ = operand_dtype(self).is_complex or operand_dtype(exponent).is_complex
    return dtypes.complex128 if complex_ else dtypes.float64


def _check_float_power_out(target, described, inplace: bool = False) -> None:
    if target._dtype is not described.dtype:
        raise RuntimeError(f"the output given to float_power has dtype "
                           f"{scalar_type_name(target._dtype)} but the operation's result "
                           f"requires dtype {scalar_type_name(described.dtype)}")


@pointwise("float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", out=True,
           promotion=Promotion.DOUBLE, check=tensor_needed("float_power", "exponent"),
           check_out=_check_float_power_out, grad=_POW_GRAD)
def float_power(self, exponent, *, out):
    """`pow` computed in double precision: the result is float64 (complex128 when an
    operand is complex), whatever the operands' dtypes.

    Args:
        input (Tensor or Number): the base.
        exponent (Tensor or Number): the exponent.

    Example::

        >>> torch.float_power(torch.tensor([2, 3]), 2)
        tensor([4., 9.], dtype=torch.float64)
    """
    pow.declaration.kernel(self, exponent, out=out)


def _float_power_inplace(self, exponent):
    """In place, `self` must already have float_power's dtype; then it is `pow_`."""
    dtype = _double_of(self, exponent)
    if self._dtype is not dtype:
        raise RuntimeError(f"the base given to float_power_ has dtype "
                           f"{scalar_type_name(self._dtype)} but the operation's result "
                           f"requires dtype {scalar_type_name(dtype)}")
    if isinstance(exponent, TensorBase):
        exponent = to_dtype.call(exponent, dtype, False, False, None)
    return pow.declaration.overloads[SchemaKind.inplace].call(self, exponent)


@composite("float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)",
           method=True, function=False)
def float_power_(self, exponent):
    """In-place `float_power`: `self` must be float64 (complex128 for complex)."""
    return _float_power_inplace(self, exponent)


@composite("float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)",
           method=True, function=False)
def float_power_scalar_(self, exponent):
    """In-place `float_power` with a number exponent."""
    return _float_power_inplace(self, exponent)
