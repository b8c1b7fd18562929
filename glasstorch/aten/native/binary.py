"""Binary arithmetic: add, sub, mul, div and friends (elementwise, see aten/pointwise.py)."""
from __future__ import annotations

import numpy as np

from ...c10 import dtype as dtypes
from ...c10.tensor_impl import TensorBase
from ..meta.pointwise import Promotion
from ..pointwise import pointwise


def _check_alpha(self, other, alpha=1):
    """torch refuses a floating `alpha` when the operands are integers (or bool)."""
    if alpha == 1 or not isinstance(alpha, (float, complex)):
        return
    for t in (self, other):
        if isinstance(t, TensorBase) and not (t._dtype.is_floating_point or t._dtype.is_complex):
            raise RuntimeError("For integral input tensors, argument alpha must not be a "
                               "floating point number.")


def _check_sub(self, other, alpha=1):
    if all(isinstance(t, TensorBase) and t._dtype is dtypes.bool for t in (self, other)):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    _check_alpha(self, other, alpha)


@pointwise("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
           inplace=True, out=True, check=_check_alpha,
           grad={"self": "grad", "other": "grad * alpha"})
def add(self, other, alpha, *, out):
    """Add `other`, scaled by `alpha`, to `self`: ``self + alpha * other``.

    Args:
        input (Tensor): the first operand.
        other (Tensor or Number): the second operand (broadcast against `input`).
        alpha (Number): the multiplier for `other`.

    Example::

        >>> torch.add(torch.tensor([1, 2]), torch.tensor([10, 20]), alpha=2)
        tensor([21, 42])
    """
    if alpha == 1:
        np.add(self, other, out=out)
    else:
        np.multiply(other, alpha, out=out, casting="unsafe")
        np.add(self, out, out=out)


@pointwise("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
           inplace=True, out=True, check=_check_sub,
           grad={"self": "grad", "other": "-grad * alpha"})
def sub(self, other, alpha, *, out):
    """Subtract `other`, scaled by `alpha`, from `self`: ``self - alpha * other``.

    Example::

        >>> torch.sub(torch.tensor([5, 6]), 1)
        tensor([4, 5])
    """
    if alpha == 1:
        np.subtract(self, other, out=out)
    else:
        np.multiply(other, alpha, out=out, casting="unsafe")
        np.subtract(self, out, out=out)


@pointwise("mul.Tensor(Tensor self, Tensor other) -> Tensor", inplace=True, out=True,
           grad={"self": "grad * other.conj()", "other": "grad * self.conj()"})
def mul(self, other, *, out):
    """Multiply elementwise.

    Example::

        >>> torch.mul(torch.tensor([1., 2.]), 3)
        tensor([3., 6.])
    """
    np.multiply(self, other, out=out)


@pointwise("div.Tensor(Tensor self, Tensor other) -> Tensor", promotion=Promotion.INT_TO_FLOAT,
           inplace=True, out=True,
           grad={"self": "grad / other.conj()",
                 "other": "-grad * ((self / other) / other).conj()"})
def div(self, other, *, out):
    """True division: integers divide into the default floating dtype.

    Example::

        >>> torch.div(torch.tensor([1, 2]), 4)
        tensor([0.2500, 0.5000])
    """
    np.true_divide(self, other, out=out)
