"""Elementwise maximum and minimum: `maximum` / `minimum` propagate NaN, `fmax` / `fmin`
ignore it (the other operand wins), as C's fmax does. Complex numbers have no order:
torch refuses them."""
from __future__ import annotations

import numpy as np

from ....c10.tensor_impl import TensorBase
from ...pointwise import pointwise


def _refuse_complex(name: str):
    """A `kernel_check`: torch's kernels refuse complex tensors (its meta functions do not)."""
    def check(self, other):
        for t in (self, other):
            if isinstance(t, TensorBase) and t._dtype.is_complex:
                raise RuntimeError(f"{name} not implemented for complex tensors.")
    return check


@pointwise("maximum(Tensor self, Tensor other) -> Tensor", out=True, numbers=(), ufunc=np.maximum,
           kernel_check=_refuse_complex("maximum"),
           grad={"self": "where(self == other, grad / 2, grad).masked_fill(self < other, 0)",
                 "other": "where(self == other, grad / 2, grad).masked_fill(self > other, 0)"})
def maximum(self, other, *, out):
    """The larger of two elements; NaN if either is NaN.

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand (broadcast against `input`).

    Example::

        >>> torch.maximum(torch.tensor([1., 5.]), torch.tensor([3., float('nan')]))
        tensor([3., nan])
    """
    np.maximum(self, other, out=out)


@pointwise("minimum(Tensor self, Tensor other) -> Tensor", out=True, numbers=(), ufunc=np.minimum,
           kernel_check=_refuse_complex("minimum"),
           grad={"self": "where(self == other, grad / 2, grad).masked_fill(self > other, 0)",
                 "other": "where(self == other, grad / 2, grad).masked_fill(self < other, 0)"})
def minimum(self, other, *, out):
    """The smaller of two elements; NaN if either is NaN.

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand (broadcast against `input`).

    Example::

        >>> torch.minimum(torch.tensor([1., 5.]), torch.tensor([3., float('nan')]))
        tensor([1., nan])
    """
    np.minimum(self, other, out=out)


@pointwise("fmax(Tensor self, Tensor other) -> Tensor", out=True, numbers=(),
           kernel_check=_refuse_complex("fmax"),
           grad={"self": "grad.masked_fill(((self >= other) | other.isnan()).logical_not(), 0)",
                 "other": "grad.masked_fill(((self >= other) | other.isnan()), 0)"})
def fmax(self, other, *, out):
    """The larger of two elements, ignoring NaN: NaN only where both are NaN.

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand (broadcast against `input`).

    Example::

        >>> torch.fmax(torch.tensor([1., float('nan')]), torch.tensor([3., 2.]))
        tensor([3., 2.])
    """
    np.fmax(self, other, out=out)


@pointwise("fmin(Tensor self, Tensor other) -> Tensor", out=True, numbers=(),
           kernel_check=_refuse_complex("fmin"),
           grad={"self": "grad.masked_fill(((self <= other) | other.isnan()).logical_not(), 0)",
                 "other": "grad.masked_fill(((self <= other) | other.isnan()), 0)"})
def fmin(self, other, *, out):
    """The smaller of two elements, ignoring NaN: NaN only where both are NaN.

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand (broadcast against `input`).

    Example::

        >>> torch.fmin(torch.tensor([1., float('nan')]), torch.tensor([3., 2.]))
        tensor([1., 2.])
    """
    np.fmin(self, other, out=out)
