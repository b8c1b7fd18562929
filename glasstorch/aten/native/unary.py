"""Unary elementwise math: neg, exp, ... (see aten/pointwise.py for what a declaration gets)."""
from __future__ import annotations

import numpy as np

from ...c10 import dtype as dtypes
from ...c10.tensor_impl import TensorBase
from ..meta.pointwise import Promotion
from ..pointwise import pointwise


def _check_neg(self):
    if isinstance(self, TensorBase) and self._dtype is dtypes.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


@pointwise("neg(Tensor self) -> Tensor", inplace=True, out=True, check=_check_neg,
           grad={"self": "-grad"})
def neg(self, *, out):
    """The negation of each element.

    Example::

        >>> torch.neg(torch.tensor([1, -2]))
        tensor([-1,  2])
    """
    np.negative(self, out=out)


@pointwise("exp(Tensor self) -> Tensor", promotion=Promotion.INT_TO_FLOAT, inplace=True,
           out=True, grad={"self": "grad * result.conj()"})
def exp(self, *, out):
    """The exponential of each element; integers compute in the default float dtype.

    Example::

        >>> torch.exp(torch.tensor([0., 1.]))
        tensor([1.0000, 2.7183])
    """
    np.exp(self, out=out)
