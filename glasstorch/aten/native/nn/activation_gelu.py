"""gelu and gelu_backward, exact (through erf) or in the tanh approximation.

Note [Fast float32 erf]
    SciPy's erf computes float32 through float64 with branches, at ~30 ns an element:
    ten times torch's whole gelu. torch's own vectorized float kernel evaluates erf by
    the Abramowitz-Stegun polynomial ``1 - (p1 t + ... + p5 t^5) exp(-x^2)`` with
    ``t = 1 / (1 + p |x|)`` (absolute error below 1.5e-7), and so does this file for
    float32 (and float16 / bfloat16, computed in float32). The ~20 NumPy passes run
    over cache-sized blocks (blocks.py, Note [Chained passes in blocks]), so they cost
    L2 rather than memory bandwidth. float64 keeps SciPy's exact erf, as torch's double
    kernel is exact.
"""
from __future__ import annotations

import math

import numpy as np

from ...derivatives import derivative_helper
from ...pointwise import pointwise
from .activation import BACKWARD, NN, NOT_FLOATING
from .activation_smooth import scratch
from ..pointwise.blocks import constant, in_blocks
from ..pointwise.special import scipy_special
from ..pointwise.unary import refuse

_SQRT1_2 = math.sqrt(0.5)
_TANH_BETA = math.sqrt(2.0 / math.pi)
_TANH_KAPPA = 0.044715
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_F32 = np.dtype(np.float32)
_ONE, _HALF, _MINUS_HALF = (constant(v, _F32) for v in (1, 0.5, -0.5))
_ERF_P_SCALED = constant(np.float32(0.3275911 * math.sqrt(0.5)), _F32)  # p, for |x| / sqrt 2
_ERF_COEFFICIENTS = tuple(constant(np.float32(c), _F32) for c in (
    1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592))
_SIGN_BIT = constant(0x80000000, np.dtype(np.uint32))


def gauss_tail_float32(x: np.ndarray, magnitude: np.ndarray | None = None) -> tuple:
    """For float32 `x`: ``(q, e)`` with ``e = exp(-x^2 / 2)`` and ``q = erfc(|x| / sqrt 2)``
    by the Abramowitz-Stegun polynomial ``q = (p1 t + ... + p5 t^5) e``, ``t = 1 / (1 +
    p |x| / sqrt 2)`` (Note [Fast float32 erf]). Both are new arrays; `magnitude`, when
    given, receives ``|x|``."""
    if magnitude is None:
        magnitude = scratch(x)
    np.abs(x, out=magnitude)
    t = np.multiply(magnitude, _ERF_P_SCALED, out=scratch(x))
    np.add(t, _ONE, out=t)
    np.divide(_ONE, t, out=t)                  # as np.reciprocal, at half its cost
    q = np.multiply(t, _ERF_COEFFICIENTS[0], out=scratch(x))
    for coefficient in _ERF_COEFFICIENTS[1:]:
        np.add(q, coefficient, out=q)
        np.multiply(q, t, out=q)
    e = np.multiply(magnitude, magnitude, out=t)   # |x| |x| is x x, bit for bit
    np.multiply(e, _MINUS_HALF, out=e)
    np.exp(e, out=e)
    np.multiply(q, e, out=q)
    return q, e


def _gelu_exact_float32(x: np.ndarray, out: np.ndarray) -> None:
    """x Phi(x) = (x + |x| erf(|x| / sqrt 2)) / 2 = (x + |x| (1 - q)) / 2: erf is odd, so
    x erf(x / sqrt 2) is even and needs no sign (and gelu(inf) stays inf)."""
    magnitude = scratch(x)
    q, _ = gauss_tail_float32(x, magnitude)
    np.subtract(_ONE, q, out=q)
    np.multiply(q, magnitude, out=q)
    np.add(q, x, out=q)
    np.multiply(q, _HALF, out=out)


def _gelu_derivative_float32(x: np.ndarray) -> np.ndarray:
    """Phi(x) + x phi(x), sharing one exponential: Phi = (1 + sign(x) (1 - q)) / 2 and
    phi = e / sqrt(2 pi). ``1 - q`` is not negative, so times sign(x) it only takes x's
    sign bit (two bitwise passes where `np.sign` and a product cost three times more;
    at x = 0, where sign(x) is 0, q is 1: either way the product is a zero)."""
    q, e = gauss_tail_float32(x)
    np.subtract(_ONE, q, out=q)
    sign = np.bitwise_and(x.view(np.uint32), _SIGN_BIT, out=np.empty(x.shape, np.uint32))
    np.bitwise_or(q.view(np.uint32), sign, out=q.view(np.uint32))
    np.add(q, _ONE, out=q)
    np.multiply(q, _HALF, out=q)
    np.multiply(e, constant(_INV_SQRT_2PI, _F32), out=e)
    np.multiply(e, x, out=e)
    return np.add(q, e, out=q)


def _cdf(x: np.ndarray) -> np.ndarray:
    """Phi(x) = (1 + erf(x / sqrt 2)) / 2 with SciPy's exact erf, in a new array."""
    gate = np.multiply(x, constant(_SQRT1_2, x.dtype), out=scratch(x))
    scipy_special("gelu").erf(gate, out=gate)
    np.add(gate, constant(1, x.dtype), out=gate)
    np.multiply(gate, constant(0.5, x.dtype), out=gate)
    return gate


def _tanh_inner(x: np.ndarray) -> np.ndarray:
    """tanh(sqrt(2/pi) (x + 0.044715 x^3)), in a new array."""
    inner = np.multiply(x, x, out=scratch(x))
    np.multiply(inner, constant(_TANH_KAPPA, x.dtype), out=inner)
    np.add(inner, constant(1, x.dtype), out=inner)
    np.multiply(inner, x, out=inner)
    np.multiply(inner, constant(_TANH_BETA, x.dtype), out=inner)
    return np.tanh(inner, out=inner)


def _check_approximate(self, approximate="none") -> None:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")


def _gelu_block(x: np.ndarray, *, out: np.ndarray, approximate: str) -> None:
    if approximate == "none" and x.dtype == np.float32:
        _gelu_exact_float32(x, out)
        return
    if approximate == "tanh":                  # the gate in a temporary: `out` may be x
        gate = _tanh_inner(x)
        np.add(gate, constant(1, x.dtype), out=gate)
        np.multiply(gate, constant(0.5, x.dtype), out=gate)
    else:
        gate = _cdf(x)
    np.multiply(gate, x, out=out)


@pointwise("gelu(Tensor self, *, str approximate=\"none\") -> Tensor", inplace=True, out=True,
           check=_check_approximate, **NN,
           grad={"self": "gelu_backward(grad, self, approximate=approximate)"})
def gelu(self, approximate, *, out):
    """The Gaussian error linear unit ``x * Phi(x)`` (Phi the standard normal CDF); with
    ``approximate='tanh'``, ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``.

    Example::

        >>> torch.nn.functional.gelu(torch.tensor([-1., 0., 1.]))
        tensor([-0.1587,  0.0000,  0.8413])
    """
    refuse(self, "GeluKernelImpl", NOT_FLOATING)
    in_blocks(lambda x, out: _gelu_block(x, out=out, approximate=approximate), (self,), out)


def _check_backward_approximate(grad_output, self, approximate="none") -> None:
    _check_approximate(self, approximate)


def _tanh_derivative(x: np.ndarray) -> np.ndarray:
    """d/dx 0.5 x (1 + t) = 0.5 (1 + t) + 0.5 x (1 - t^2) u', u' = beta (1 + 3 kappa x^2),
    in a new array."""
    c = {v: constant(v, x.dtype) for v in (3 * _TANH_KAPPA, 1, _TANH_BETA * 0.5, 0.5)}
    t = _tanh_inner(x)
    slope = np.multiply(x, x, out=scratch(x))
    np.multiply(slope, c[3 * _TANH_KAPPA], out=slope)
    np.add(slope, c[1], out=slope)
    np.multiply(slope, c[_TANH_BETA * 0.5], out=slope)
    np.multiply(slope, x, out=slope)
    derivative = np.multiply(t, t, out=scratch(x))
    np.subtract(c[1], derivative, out=derivative)
    np.multiply(derivative, slope, out=derivative)
    np.add(derivative, c[0.5], out=derivative)
    np.multiply(t, c[0.5], out=t)
    return np.add(derivative, t, out=derivative)


def _gelu_backward_block(grad: np.ndarray, x: np.ndarray, *, out: np.ndarray,
                         approximate: str) -> None:
    if approximate == "tanh":
        derivative = _tanh_derivative(x)
    elif x.dtype == np.float32:
        derivative = _gelu_derivative_float32(x)
    else:                                             # Phi(x) + x phi(x)
        density = np.multiply(x, x, out=scratch(x))
        np.multiply(density, constant(-0.5, x.dtype), out=density)
        np.exp(density, out=density)
        np.multiply(density, constant(_INV_SQRT_2PI, x.dtype), out=density)
        np.multiply(density, x, out=density)
        derivative = _cdf(x)
        np.add(derivative, density, out=derivative)
    np.multiply(derivative, grad, out=out)


@derivative_helper
def gelu_double_backward(grad, grad_output, self, approximate: str):
    """gelu''(x) * grad * grad_output: ``phi(x) (2 - x^2)`` for the exact form; for the
    tanh form, with u = beta (x + kappa x^3) and t = tanh(u),
    ``(1 - t^2) (u' + x (u'' - 2 t u'^2) / 2)``."""
    if approximate == "tanh":
        square = self * self
        t = ((self + _TANH_KAPPA * square * self) * _TANH_BETA).tanh()
        slope = _TANH_BETA * (1 + 3 * _TANH_KAPPA * square)
        curve = _TANH_BETA * 6 * _TANH_KAPPA * self
        second = (1 - t * t) * (slope + 0.5 * self * (curve - 2 * t * slope * slope))
    else:
        density = (self * self * -0.5).exp() * _INV_SQRT_2PI
        second = density * (2 - self * self)
    return grad * grad_output * second


@pointwise("gelu_backward(Tensor grad_output, Tensor self, *, str approximate=\"none\") "
           "-> Tensor", check=_check_backward_approximate, **BACKWARD,
           grad={"grad_output": "gelu_backward(grad, self, approximate=approximate)",
                 "self": "gelu_double_backward(grad, grad_output, self, approximate)"})
def gelu_backward(grad_output, self, approximate, *, out):
    """The gradient of `gelu`: ``grad_output * (Phi(x) + x * phi(x))`` (or the tanh form's
    derivative)."""
    in_blocks(lambda grad, x, out: _gelu_backward_block(grad, x, out=out,
                                                        approximate=approximate),
              (grad_output, self), out)
