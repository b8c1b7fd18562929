"""Rounding: floor, ceil, round (with `decimals`), trunc/fix, frac.

Elementwise (aten/pointwise.py). Integer inputs keep their dtype and come back
unchanged (as a new tensor); bool and complex inputs are refused by the CPU kernels
(Note [Kernel-only dtype errors] in unary.py). None of these ops is differentiable
in a useful way: the gradient is zero almost everywhere, except for `frac`'s.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.tensor_impl import TensorBase
from ...backends import register_meta
from .unary import BOOL, COMPLEX, INTEGRAL, exact_dtype_out, refuse, unary

_SAME_DTYPE = {"inplace": True, "out": True, "check_out": exact_dtype_out}
_ZERO_GRAD = {"self": "zeros_like(grad)"}


def _round_integers_or(self, out, kernel: str, name: str, rounding) -> None:
    """Shared by floor/ceil/trunc/round: refuse bool and complex, copy integers, else
    apply `rounding` (a NumPy ufunc)."""
    refuse(self, kernel, BOOL)
    if self.dtype in COMPLEX:
        raise NotImplementedError(f"{name} is not supported for complex inputs")
    if self.dtype in INTEGRAL:
        np.copyto(out, self)
    else:
        rounding(self, out=out)


@unary("floor(Tensor self) -> Tensor", **_SAME_DTYPE, grad=_ZERO_GRAD)
def floor(self, *, out):
    """The largest integer not above each element (integers come back unchanged).

    Example::

        >>> torch.floor(torch.tensor([-1.5, 0.5, 2.0]))
        tensor([-2.,  0.,  2.])
    """
    _round_integers_or(self, out, "floor_vml_cpu", "floor", np.floor)


@unary("ceil(Tensor self) -> Tensor", **_SAME_DTYPE, grad=_ZERO_GRAD)
def ceil(self, *, out):
    """The smallest integer not below each element (integers come back unchanged).

    Example::

        >>> torch.ceil(torch.tensor([-1.5, 0.5, 2.0]))
        tensor([-1.,  1.,  2.])
    """
    _round_integers_or(self, out, "ceil_vml_cpu", "ceil", np.ceil)


@unary("trunc(Tensor self) -> Tensor", aliases=("fix",), **_SAME_DTYPE, grad=_ZERO_GRAD)
def trunc(self, *, out):
    """Each element rounded toward zero (integers come back unchanged).

    Example::

        >>> torch.trunc(torch.tensor([-1.5, 0.5, 2.7]))
        tensor([-1.,  0.,  2.])
    """
    _round_integers_or(self, out, "trunc_vml_cpu", "trunc", np.trunc)


@unary("round(Tensor self) -> Tensor", **_SAME_DTYPE, grad=_ZERO_GRAD)
def round(self, *, out):
    """Each element rounded to the nearest integer, halves to even (integers unchanged).

    Args:
        input (Tensor): the input.
        decimals (int): round to this many decimal places instead (negative: to the
            left of the point); then only floating point inputs are accepted.

    Example::

        >>> torch.round(torch.tensor([0.5, 1.5, -2.5, 2.7]))
        tensor([ 0.,  2., -2.,  3.])
        >>> torch.round(torch.tensor([1.2345, 123.0]), decimals=2)
        tensor([  1.2300, 123.0000])
    """
    refuse(self, "round_vml_cpu", BOOL | COMPLEX)
    if self.dtype in INTEGRAL:
        np.copyto(out, self)
    else:
        np.rint(self, out=out)


@unary("round.decimals(Tensor self, *, int decimals) -> Tensor", **_SAME_DTYPE,
       grad=_ZERO_GRAD)
def round_decimals(self, decimals, *, out):
    """`round` to `decimals` decimal places: scale by a power of ten in the compute
    dtype, round halves to even, scale back (so the result is the nearest value
    torch's kernel finds, not always the nearest decimal)."""
    refuse(self, "round_vml_cpu" if decimals == 0 else "round_cpu", BOOL | COMPLEX | INTEGRAL)
    if decimals == 0:
        np.rint(self, out=out)
        return
    scale = out.dtype.type(np.power(10.0, abs(decimals)))      # inf past float's range
    if decimals > 0:
        np.multiply(self, scale, out=out)
        np.rint(out, out=out)
        np.divide(out, scale, out=out)
    else:
        np.divide(self, scale, out=out)
        np.rint(out, out=out)
        np.multiply(out, scale, out=out)


def _check_frac_on_meta(self):
    """torch's meta `frac` is ``self - trunc(self)``: bool meta tensors meet the
    refusal of bool subtraction (on CPU the kernel refuses bool instead)."""
    if isinstance(self, TensorBase) and self._dtype is dtypes.bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")


@unary("frac(Tensor self) -> Tensor", **_SAME_DTYPE, grad={"self": "grad"})
def frac(self, *, out):
    """The fractional part of each element, ``input - trunc(input)`` (floats only).

    Example::

        >>> torch.frac(torch.tensor([1.25, -2.5]))
        tensor([ 0.2500, -0.5000])
    """
    refuse(self, "frac_cpu", BOOL | INTEGRAL | COMPLEX)
    np.subtract(self, np.trunc(self), out=out)          # `out` may be `self` (frac_)


register_meta(frac, _check_frac_on_meta)
