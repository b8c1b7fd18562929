"""The binary functions of torch.special: `xlog1py` (``x * log1p(y)``, 0 where x is 0)
and the Hurwitz zeta function `zeta`.

Elementwise (aten/pointwise.py); either operand may be a Python number, not both.
`zeta` calls `scipy.special.zeta` (imported on first use) in float64 and rounds once;
torch's kernel is written for float and double only.
"""
from __future__ import annotations

import numpy as np

from ...meta.pointwise import Promotion
from ...pointwise import pointwise
from .binary import reduced_float, refuse, tensor_needed
from .special import scipy_special
from .special_bessel import refuse_kinds


@pointwise("special_xlog1py(Tensor self, Tensor other) -> Tensor",
           promotion=Promotion.INT_TO_FLOAT, out=True, method=False, python_module="special",
           check=tensor_needed("special_xlog1py"), kernel_check=refuse("xlog1py_cpu",
                                                                       complex_=True),
           grad={"self": "grad * special_xlog1py(self != 0, other)",
                 "other": "grad * self / (other + 1)"})
def special_xlog1py(self, other, *, out, result=None):
    """``input * log1p(other)``, taken to be 0 where `input` is 0 (unless `other` is NaN).

    Args:
        input (Tensor or Number): the factor.
        other (Tensor or Number): the argument of ``log1p``.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.special.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 1.0]))
        tensor([0.0000, 1.3863])
    """
    logarithm = np.log1p(other)
    if reduced_float(result):       # torch's float16 / bfloat16 kernel rounds the log
        logarithm = logarithm.astype(result).astype(out.dtype)
    product = np.where(np.equal(self, 0), 0, np.multiply(self, logarithm))
    np.copyto(out, np.where(np.isnan(other), other, product), casting="unsafe")


@pointwise("special_zeta(Tensor self, Tensor other) -> Tensor",
           promotion=Promotion.INT_TO_FLOAT, out=True, method=False, python_module="special",
           check=tensor_needed("special_zeta"), kernel_check=refuse_kinds("zeta_cpu", 2),
           grad={"self": "not_implemented('zeta')",
                 "other": "grad * -self * special_zeta(self + 1., other)"})
def special_zeta(self, other, *, out):
    """The Hurwitz zeta function ``sum((k + other) ** -input for k >= 0)``; with
    ``other = 1`` it is Riemann's zeta function.

    Args:
        input (Tensor or Number): the exponent (``> 1`` for a finite sum).
        other (Tensor or Number): the shift q.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.special.zeta(torch.tensor([2.0, 4.0]), 1.0)
        tensor([1.6449, 1.0823])
    """
    value = scipy_special("special.zeta").zeta(np.asarray(self, np.float64),
                                               np.asarray(other, np.float64))
    # torch's kernel divides by q**x on the way: NaN at q = inf, where SciPy gives 0
    np.copyto(out, np.where(np.isposinf(other), np.nan, value), casting="unsafe")
