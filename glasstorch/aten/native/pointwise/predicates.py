"""Elementwise predicates: isnan, isinf, isposinf, isneginf, isfinite, isreal, signbit.

Each gives a bool tensor of the input's shape (aten/pointwise.py's ALWAYS_BOOL kind).
Integers and bool are never NaN nor infinite. torch exposes out= only for `isposinf`,
`isneginf` and `signbit`, and those want a bool out= tensor. Not differentiable.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.tensor_impl import TensorBase
from ...backends import register_meta
from ...meta.pointwise import Promotion
from .unary import COMPLEX, unary

_BOOL = Promotion.ALWAYS_BOOL


def _bool_out(name: str):
    def check_out(target: TensorBase, described, inplace: bool) -> None:
        if target._dtype is not dtypes.bool:
            raise RuntimeError(f"{name} does not support non-boolean outputs.")
    return check_out


@unary("isnan(Tensor self) -> Tensor", promotion=_BOOL)
def isnan(self, *, out):
    """Whether each element is NaN (a complex number is when either part is).

    Example::

        >>> torch.isnan(torch.tensor([1.0, float('nan')]))
        tensor([False,  True])
    """
    np.isnan(self, out=out)


@unary("isinf(Tensor self) -> Tensor", promotion=_BOOL)
def isinf(self, *, out):
    """Whether each element is plus or minus infinity (either part, for complex ones).

    Example::

        >>> torch.isinf(torch.tensor([1.0, float('-inf')]))
        tensor([False,  True])
    """
    np.isinf(self, out=out)


@unary("isfinite(Tensor self) -> Tensor", promotion=_BOOL)
def isfinite(self, *, out):
    """Whether each element is neither NaN nor infinite.

    Example::

        >>> torch.isfinite(torch.tensor([1.0, float('inf'), float('nan')]))
        tensor([ True, False, False])
    """
    np.isfinite(self, out=out)


def _refuse_complex(name: str, meta_words: bool = False):
    """The refusal of complex inputs, in the words of torch's kernel or, for the Meta
    registration, of its meta rule."""
    def check(self):
        if not (isinstance(self, TensorBase) and self._dtype.is_complex):
            return
        if meta_words:
            raise RuntimeError(f"Complex dtype is not supported for {name}, got dtype "
                               f"{self._dtype}")
        raise RuntimeError(f"{name} does not support complex inputs.")
    return check


@unary("isposinf(Tensor self) -> Tensor", promotion=_BOOL, out=True,
       check=_refuse_complex("isposinf"), check_out=_bool_out("isposinf"))
def isposinf(self, *, out):
    """Whether each element is positive infinity (real inputs only).

    Example::

        >>> torch.isposinf(torch.tensor([float('inf'), float('-inf'), 1.0]))
        tensor([ True, False, False])
    """
    np.equal(self, np.inf, out=out)


register_meta(isposinf, _refuse_complex("isposinf", meta_words=True))


@unary("isneginf(Tensor self) -> Tensor", promotion=_BOOL, out=True,
       check=_refuse_complex("isneginf"), check_out=_bool_out("isneginf"))
def isneginf(self, *, out):
    """Whether each element is negative infinity (real inputs only).

    Example::

        >>> torch.isneginf(torch.tensor([float('inf'), float('-inf'), 1.0]))
        tensor([False,  True, False])
    """
    np.equal(self, -np.inf, out=out)


register_meta(isneginf, _refuse_complex("isneginf", meta_words=True))


@unary("isreal(Tensor self) -> Tensor", promotion=_BOOL)
def isreal(self, *, out):
    """Whether each element is real: True for real dtypes, ``imag == 0`` for complex.

    Example::

        >>> torch.isreal(torch.tensor([1 + 0j, 1j]))
        tensor([ True, False])
    """
    if self.dtype in COMPLEX:
        np.equal(self.imag, 0, out=out)
    else:
        out.fill(True)


@unary("signbit(Tensor self) -> Tensor", promotion=_BOOL, out=True,
       check_out=_bool_out("signbit"))
def signbit(self, *, out):
    """Whether each element has its sign bit set: True for -0.0 and negative NaNs too.

    Example::

        >>> torch.signbit(torch.tensor([-0.0, 0.0, -2.0]))
        tensor([ True, False,  True])
    """
    if self.dtype in COMPLEX:
        raise NotImplementedError("signbit is not implemented for complex tensors.")
    if self.dtype.kind == "f":
        np.signbit(self, out=out)
    else:
        np.less(self, 0, out=out)
