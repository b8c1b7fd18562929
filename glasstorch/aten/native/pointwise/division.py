"""Division with rounding: div's rounding modes, floor_divide, remainder, fmod, and the
division aliases (divide, true_divide).

Integer kernels refuse a zero divisor with torch's ``RuntimeError: ZeroDivisionError``
before writing anything; floating ones follow IEEE (inf, nan). `remainder` takes the
sign of the divisor (Python's ``%``), `fmod` the sign of the dividend (C's ``fmod``).
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ...meta.pointwise import Promotion
from ...pointwise import pointwise
from . import binary_scalar  # noqa: F401  (div.Scalar declared first: Note [Declaration order])
from .binary import (DIV, alias_of, computed_dtype, div, not_implemented,
                     raise_at_kernel, refuse, refuse_complex_half, tensor_needed)

_ROUNDING_MODES = (None, "trunc", "floor")
_refuse_complex_half = refuse_complex_half("div_cpu")


def _check_divisor(other, out: np.ndarray) -> None:
    """Integer division by zero is an error in torch (floats give inf or nan)."""
    if out.dtype.kind in "iu" and not np.all(other):
        raise RuntimeError("ZeroDivisionError")


def floor_divide_kernel(self, other, out: np.ndarray) -> None:
    """Division rounded down. For floats this is Python's algorithm, as torch's and
    NumPy's: ``(a - fmod(a, b)) / b`` corrected by one, then floored."""
    _check_divisor(other, out)
    np.floor_divide(self, other, out=out)


def trunc_divide_kernel(self, other, out: np.ndarray) -> None:
    """Division rounded towards zero (C's integer division)."""
    _check_divisor(other, out)
    if out.dtype.kind == "i":
        # floor and trunc differ by one where the division is inexact and the signs
        # differ; decided before `out` (which may be an input) is written.
        inexact_negative = (np.fmod(self, other) != 0) & ((self < 0) != (other < 0))
        np.floor_divide(self, other, out=out)
        np.add(out, inexact_negative, out=out, casting="unsafe")
    elif out.dtype.kind == "u":
        np.floor_divide(self, other, out=out)
    else:
        np.true_divide(self, other, out=out)
        np.trunc(out, out=out)


# ----------------------------------------------------------------------------------
# div with rounding_mode, and the aliases of div
# ----------------------------------------------------------------------------------
def _check_rounding(self, other, rounding_mode=None):
    if rounding_mode not in _ROUNDING_MODES:
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")


def _check_rounding_kernel(self, other, rounding_mode=None):
    """torch's division kernels: no complex32 loop, none for complex or bool rounding."""
    if rounding_mode is None:
        _refuse_complex_half(self, other)
    else:
        dtype = computed_dtype(self, other)
        if dtype.is_complex or dtype is dtypes.bool:
            raise_at_kernel(not_implemented(f"div_{rounding_mode}_cpu", dtype), (self, other))


def _rounding_promotion(self, other, rounding_mode=None) -> Promotion:
    """True division makes integers float; the rounding modes keep the common dtype."""
    return Promotion.INT_TO_FLOAT if rounding_mode is None else Promotion.DEFAULT


_DIV_MODE = dict(
    promotion=_rounding_promotion, inplace=True, out=True, out_overload="out_mode",
    numbers_as_given=True,
    check=_check_rounding, kernel_check=_check_rounding_kernel,
    grad={"self": "grad / other.conj() if rounding_mode is None else zeros_like(grad)",
          "other": "-grad * ((self / other) / other).conj() if rounding_mode is None "
                   "else zeros_like(grad)"})


@pointwise("div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
           **_DIV_MODE)
def div_mode(self, other, rounding_mode, *, out):
    """Division with a rounding mode (see `torch.div`)."""
    if rounding_mode is None:
        np.true_divide(self, other, out=out)
    elif rounding_mode == "trunc":
        trunc_divide_kernel(self, other, out)
    else:
        floor_divide_kernel(self, other, out)


divide = pointwise("divide.Tensor(Tensor self, Tensor other) -> Tensor",
                   **DIV)(alias_of(div.declaration.kernel, "div"))
divide_mode = pointwise(
    "divide.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
    **_DIV_MODE)(alias_of(div_mode.declaration.kernel, "div"))
true_divide = pointwise("true_divide.Tensor(Tensor self, Tensor other) -> Tensor",
                        **DIV)(alias_of(div.declaration.kernel, "div"))


# ----------------------------------------------------------------------------------
# floor_divide, remainder, fmod
# ----------------------------------------------------------------------------------
@pointwise("floor_divide(Tensor self, Tensor other) -> Tensor", inplace=True, out=True,
           numbers_as_given=True,
           kernel_check=refuse("div_floor_cpu", bool_=True, complex_=True))
def floor_divide(self, other, *, out):
    """Division rounded down (towards minus infinity), in the operands' common dtype.

    Args:
        input (Tensor): the dividend.
        other (Tensor or Number): the divisor.

    Example::

        >>> torch.floor_divide(torch.tensor([7, -7]), 2)
        tensor([ 3, -4])
    """
    floor_divide_kernel(self, other, out)


@pointwise("remainder.Tensor(Tensor self, Tensor other) -> Tensor", inplace=True, out=True,
           out_overload="Tensor_out",
           check=tensor_needed("remainder"),
           kernel_check=refuse("remainder_cpu", bool_=True, complex_=True),
           grad={"self": "grad",
                 "other": "-grad * self.div(other, rounding_mode='floor')"})
def remainder(self, other, *, out):
    """The remainder of floor division: it has the sign of the divisor (Python's ``%``).

    Args:
        input (Tensor or Number): the dividend.
        other (Tensor or Number): the divisor.

    Example::

        >>> torch.remainder(torch.tensor([-3, 3]), 2)
        tensor([1, 1])
    """
    if out.dtype.kind in "iu":
        _check_divisor(other, out)
        np.remainder(self, other, out=out)
        return
    # torch: fmod, then add the divisor where the signs differ. Unlike NumPy's
    # remainder, an exact zero keeps fmod's sign (remainder(-0., 1.) is -0.).
    mod = np.empty(out.shape, out.dtype)
    np.fmod(self, other, out=mod)
    differ = (mod != 0) & ((other < 0) != (mod < 0))
    np.add(mod, other, out=mod, where=differ)
    np.copyto(out, mod)


@pointwise("fmod.Tensor(Tensor self, Tensor other) -> Tensor", inplace=True, out=True,
           out_overload="Tensor_out", kernel_check=refuse("fmod_cpu", bool_=True, complex_=True),
           numbers=("other",),
           grad={"self": "grad",
                 "other": "-grad * self.div(other, rounding_mode='trunc')"})
def fmod(self, other, *, out):
    """The remainder of truncated division: it has the sign of the dividend (C's fmod).

    Args:
        input (Tensor): the dividend.
        other (Tensor or Number): the divisor.

    Example::

        >>> torch.fmod(torch.tensor([-3, 3]), 2)
        tensor([-1,  1])
    """
    _check_divisor(other, out)
    np.fmod(self, other, out=out)
