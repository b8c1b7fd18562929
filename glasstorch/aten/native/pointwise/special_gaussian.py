"""The Gaussian functions of torch.special: the standard normal distribution function
`ndtr`, its inverse `ndtri`, its logarithm `log_ndtr`, and the scaled complementary
error function `erfcx` (``exp(x**2) * erfc(x)``) that keeps their tails accurate.

`ndtr` is a composite of `erf`, as torch's is (its gradient flows through erf); the
others are elementwise kernels over `scipy.special` (imported on first use), written in
torch for float and double only.
"""
from __future__ import annotations

import math

import numpy as np

from ... import functions as at
from ...dispatcher import ops
from ...registry import TensorMeta, composite, prepare_out
from .special_bessel import special_function
from .special import scipy_special

_SQRT_2PI = math.sqrt(2 * math.pi)
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _gaussian_doc(summary: str, name: str, values: str, example: str) -> str:
    return f"""{summary}

    Args:
        input (Tensor): the input tensor.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.special.{name}(torch.tensor({values}))
        {example}
    """


@composite("special_ndtr(Tensor self) -> Tensor", out=True, python_module="special")
def special_ndtr(self, out=None):
    """The standard normal distribution function ``(1 + erf(x / sqrt(2))) / 2``: the
    probability that a standard normal draw is at most x.

    Args:
        input (Tensor): the input tensor.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.special.ndtr(torch.tensor([-1.0, 0.0, 2.0]))
        tensor([0.1587, 0.5000, 0.9772])
    """
    value = (1 + at.erf(self * math.sqrt(0.5))) * 0.5
    if out is None:
        return value
    # torch's out= form computes the result, then resizes out (warning once) and copies
    prepare_out(ops.aten.special_ndtr.out, out, TensorMeta(tuple(value.shape), value.dtype))
    return out.copy_(value)


def _ndtri(x):
    return scipy_special("special.ndtri").ndtri(x)


def _log_ndtr(x):
    return scipy_special("special.log_ndtr").log_ndtr(x)


def _erfcx(x):
    """SciPy's erfcx in float64; for negative float32 inputs ``2 exp(x**2) - erfcx(-x)``
    with x**2 rounded to float32 first, as torch's float kernel computes it (the rounding
    shows, magnified, in the exponential)."""
    special = scipy_special("special.erfcx")
    value = special.erfcx(x.astype(np.float64))
    if x.dtype == np.float32:
        square = (x * x).astype(np.float64)
        reflected = 2 * np.exp(square) - special.erfcx(-x.astype(np.float64))
        value = np.where(x < 0, reflected, value)
    return value


special_ndtri = special_function("ndtri", _ndtri, _gaussian_doc(
    "The inverse of `ndtr`: the x whose standard normal probability ``ndtr(x)`` is the "
    "input (``-inf`` at 0, ``inf`` at 1, NaN outside [0, 1]).", "ndtri", "[0.0, 0.25, 0.5]",
    "tensor([   -inf, -0.6745,  0.0000])"),
    grad={"self": f"grad * {_SQRT_2PI!r} * (result.square() / 2).exp()"})
special_log_ndtr = special_function("log_ndtr", _log_ndtr, _gaussian_doc(
    "``log(ndtr(x))``, accurate far into the lower tail where ndtr underflows.",
    "log_ndtr", "[-4.0, 0.0, 2.0]", "tensor([-10.3601,  -0.6931,  -0.0230])"),
    grad={"self": f"grad / {_SQRT_2PI!r} * (result + self.pow(2) / 2).neg().exp()"})
special_erfcx = special_function("erfcx", _erfcx, _gaussian_doc(
    "The scaled complementary error function ``exp(x**2) * erfc(x)``, finite where "
    "erfc underflows.", "erfcx", "[0.0, 1.0, 30.0]", "tensor([1.0000, 0.4276, 0.0188])"),
    grad={"self": f"(2.0 * self * result - {_TWO_OVER_SQRT_PI!r}) * grad"})
