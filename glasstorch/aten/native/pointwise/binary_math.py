"""Binary math functions: atan2, hypot, logaddexp, logaddexp2, xlogy, copysign, heaviside,
gcd, lcm (elementwise, see aten/pointwise.py).

Where torch's formula differs from NumPy's function at special values, the kernel
spells out torch's: `heaviside(nan, v)` is 0, `xlogy(0, nan)` is nan, `logaddexp`
follows torch's max + log1p form. Kernels write `out` last, as it may be an input.
"""
from __future__ import annotations

import math

import numpy as np

from ...meta.pointwise import Promotion
from ...pointwise import pointwise
from .binary import (alias_of, all_of, operand_dtype, reduced_float, refuse,
                     refuse_complex_half, tensor_needed)

_ATAN2 = dict(promotion=Promotion.INT_TO_FLOAT, inplace=True, out=True, numbers=(),
              kernel_check=refuse("atan2_cpu", complex_=True),
              grad={"self": "grad * other / (self * self + other * other)",
                    "other": "grad * -self / (self * self + other * other)"})


@pointwise("atan2(Tensor self, Tensor other) -> Tensor", **_ATAN2)
def atan2(self, other, *, out):
    """The angle of the point (`other`, `input`): the arctangent of ``input / other``
    in the quadrant the signs of both select, in radians.

    Args:
        input (Tensor): the y coordinates.
        other (Tensor): the x coordinates.

    Example::

        >>> torch.atan2(torch.tensor([1., -1.]), torch.tensor([-1., -1.]))
        tensor([ 2.3562, -2.3562])
    """
    np.arctan2(self, other, out=out)


arctan2 = pointwise("arctan2(Tensor self, Tensor other) -> Tensor",
                    **_ATAN2)(alias_of(atan2.declaration.kernel, "atan2"))


@pointwise("hypot(Tensor self, Tensor other) -> Tensor", inplace=True, out=True, numbers=(),
           kernel_check=refuse("hypot_cpu", bool_=True, integral=True, complex_=True),
           grad={"self": "grad * self / result", "other": "grad * other / result"})
def hypot(self, other, *, out):
    """The hypotenuse ``sqrt(input**2 + other**2)``, without overflow in the squares.

    Args:
        input (Tensor): the first leg.
        other (Tensor): the second leg.

    Example::

        >>> torch.hypot(torch.tensor([3.]), torch.tensor([4.]))
        tensor([5.])
    """
    np.hypot(self, other, out=out)


def _logaddexp_real(self, other, out: np.ndarray, exp, scale: float) -> None:
    """torch's ``max + log1p(exp(-|a - b|)) * scale``; equal infinities give themselves."""
    big = np.maximum(self, other)
    tail = np.log1p(exp(-np.abs(np.subtract(self, other))))
    if scale != 1:
        tail *= out.dtype.type(scale)
    result = np.add(big, tail, dtype=out.dtype)
    same_infinity = np.isinf(self) & (np.equal(self, other))
    np.copyto(out, np.where(same_infinity, self, result))


def _logaddexp_complex(self, other, out: np.ndarray) -> None:
    """torch's complex log-add-exp: order by real part, NaN is infectious, equal
    infinite real parts are special-cased."""
    x, y = np.broadcast_arrays(np.asarray(self), np.asarray(other))
    x_nan, y_nan = np.isnan(x), np.isnan(y)
    y_first = x.real >= y.real                      # torch's min is y unless x is smaller
    low = np.where(y_nan, y, np.where(x_nan, x, np.where(y_first, y, x)))
    high = np.where(y_nan, y, np.where(x_nan, x, np.where(y_first, x, y)))
    general = np.log1p(np.exp(low - high)) + high
    both_infinite = ~np.isfinite(low.real) & (low.real == high.real)
    plus_infinity = np.log(np.exp(low) + np.exp(high))
    special = np.where(low.real < 0, low, plus_infinity)
    result = np.where(both_infinite, special, general)
    nan = out.dtype.type(complex(math.nan, math.nan))
    np.copyto(out, np.where(np.isnan(low), nan, result))


@pointwise("logaddexp(Tensor self, Tensor other) -> Tensor", out=True, numbers=(),
           kernel_check=all_of(refuse("logaddexp_cpu", bool_=True, integral=True),
                               refuse_complex_half("logaddexp_cpu")),
           grad={"self": "grad / (1 + (other - self).exp())",
                 "other": "grad / (1 + (self - other).exp())"})
def logaddexp(self, other, *, out):
    """``log(exp(input) + exp(other))``, computed without overflow.

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand.

    Example::

        >>> torch.logaddexp(torch.tensor([-100., 0.]), torch.tensor([-100., 0.]))
        tensor([-99.3069,   0.6931])
    """
    if out.dtype.kind == "c":
        _logaddexp_complex(self, other, out)
    else:
        _logaddexp_real(self, other, out, np.exp, 1)


@pointwise("logaddexp2(Tensor self, Tensor other) -> Tensor", out=True, numbers=(),
           kernel_check=refuse("logaddexp2_cpu", bool_=True, integral=True, complex_=True),
           grad={"self": "grad / (1 + pow(2, other - self))",
                 "other": "grad / (1 + pow(2, self - other))"})
def logaddexp2(self, other, *, out):
    """``log2(2**input + 2**other)``, computed without overflow.

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand.

    Example::

        >>> torch.logaddexp2(torch.tensor([1., 3.]), torch.tensor([1., 3.]))
        tensor([2., 4.])
    """
    _logaddexp_real(self, other, out, np.exp2, 1 / math.log(2))


@pointwise("xlogy.Tensor(Tensor self, Tensor other) -> Tensor",
           promotion=Promotion.INT_TO_FLOAT, inplace=True, out=True,
           out_overload="OutTensor",
           check=tensor_needed("xlogy"), kernel_check=refuse("xlogy_cpu", complex_=True),
           grad={"self": "xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0)",
                 "other": "grad * self / other"})
def xlogy(self, other, *, out, result=None):
    """``input * log(other)``, taken to be 0 where `input` is 0 (unless `other` is NaN).

    Args:
        input (Tensor or Number): the factor.
        other (Tensor or Number): the argument of the logarithm.

    Example::

        >>> torch.xlogy(torch.tensor([0., 2.]), torch.tensor([0., 1.]))
        tensor([0., 0.])
    """
    logarithm = np.log(other)
    if reduced_float(result):       # torch's float16 / bfloat16 kernel rounds the log
        logarithm = logarithm.astype(result).astype(out.dtype)
    product = np.multiply(self, logarithm)
    result = np.where(np.equal(self, 0), 0, product)
    np.copyto(out, np.where(np.isnan(other), other, result), casting="unsafe")


@pointwise("copysign.Tensor(Tensor self, Tensor other) -> Tensor",
           promotion=Promotion.INT_TO_FLOAT, inplace=True, out=True,
           kernel_check=refuse("copysign_cpu", complex_=True), numbers=("other",),
           grad={"self": "where(self == 0, zeros_like(grad), grad * result / self)",
                 "other": "zeros_like(other)"})
def copysign(self, other, *, out):
    """The magnitude of `input` with the sign of `other` (the sign bit: -0.0 is negative).

    Args:
        input (Tensor): the magnitudes.
        other (Tensor or Number): the signs.

    Example::

        >>> torch.copysign(torch.tensor([1., 2.]), -0.0)
        tensor([-1., -2.])
    """
    np.copysign(self, other, out=out)


def _check_heaviside_out(target, described, inplace: bool = False) -> None:
    """torch's heaviside takes an out= of the operands' dtype only."""
    if target._dtype.is_complex:
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if target._dtype is not described.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")


def _check_heaviside(self, values):
    """torch's kernel checks (its meta functions do not)."""
    dtypes = [operand_dtype(self), operand_dtype(values)]
    if any(d.is_complex for d in dtypes):
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if dtypes[0] is not dtypes[1]:
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")


@pointwise("heaviside(Tensor self, Tensor values) -> Tensor", inplace=True, out=True, numbers=(),
           kernel_check=_check_heaviside, check_out=_check_heaviside_out)
def heaviside(self, values, *, out):
    """The Heaviside step: 0 where `input` < 0, 1 where > 0, `values` where == 0
    (and 0 where `input` is NaN).

    Args:
        input (Tensor): the points.
        values (Tensor): the value at zero (same dtype as `input`).

    Example::

        >>> torch.heaviside(torch.tensor([-1., 0., 2.]), torch.tensor([0.5]))
        tensor([0.0000, 0.5000, 1.0000])
    """
    np.copyto(out, np.where(np.equal(self, 0), values, np.greater(self, 0)), casting="unsafe")


def _integer_only(label: str):
    return refuse(label, bool_=True, floating=True, complex_=True)


@pointwise("gcd(Tensor self, Tensor other) -> Tensor", inplace=True, out=True, numbers=(),
           kernel_check=_integer_only("gcd_cpu"))
def gcd(self, other, *, out):
    """The greatest common divisor (non-negative; ``gcd(0, 0)`` is 0) of integers.

    Args:
        input (Tensor): integers.
        other (Tensor): integers.

    Example::

        >>> torch.gcd(torch.tensor([12, -18]), torch.tensor([8, 12]))
        tensor([4, 6])
    """
    np.gcd(self, other, out=out)


@pointwise("lcm(Tensor self, Tensor other) -> Tensor", inplace=True, out=True, numbers=(),
           kernel_check=_integer_only("lcm_cpu"))
def lcm(self, other, *, out):
    """The least common multiple (non-negative; 0 if either is 0) of integers.

    Args:
        input (Tensor): integers.
        other (Tensor): integers.

    Example::

        >>> torch.lcm(torch.tensor([4, -6]), torch.tensor([6, 4]))
        tensor([12, 12])
    """
    np.lcm(self, other, out=out)

