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
from ..pointwise.blocks import in_blocks
from ..pointwise.special import scipy_special
from ..pointwise.unary import refuse

_SQRT1_2 = math.sqrt(0.5)
_TANH_BETA = math.sqrt(2.0 / math.pi)
_TANH_KAPPA = 0.044715
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_ERF_P_SCALED = np.float32(0.3275911 * math.sqrt(0.5))    # p, for |x| / sqrt 2
_ERF_COEFFICIENTS = tuple(np.float32(c) for c in (1.061405429, -1.453152027, 1.421413741,
                                                   -0.284496736, 0.254829592))


def gauss_tail_float32(x: np.ndarray) -> tuple:
    """For float32 `x`: ``(q, e)`` with ``e = exp(-x^2 / 2)`` and ``q = erfc(|x| / sqrt 2)``
    by the Abramowitz-Stegun polynomial ``q = (p1 t + ... + p5 t^5) e``, ``t = 1 / (1 +
    p |x| / sqrt 2)`` (Note [Fast float32 erf]). Both are new arrays."""
    t = np.abs(x, out=scratch(x))
    np.multiply(t, _ERF_P_SCALED, out=t)
    np.add(t, 1, out=t)
    np.reciprocal(t, out=t)
    q = np.multiply(t, _ERF_COEFFICIENTS[0], out=scratch(x))
    for coefficient in _ERF_COEFFICIENTS[1:]:
        np.add(q, coefficient, out=q)
        np.multiply(q, t, out=q)
    e = np.multiply(x, x, out=t)
    np.multiply(e, np.float32(-0.5), out=e)
    np.exp(e, out=e)
    np.multiply(q, e, out=q)
    return q, e


def _gelu_exact_float32(x: np.ndarray, out: np.ndarray) -> None:
    """x Phi(x) = (x + |x| erf(|x| / sqrt 2)) / 2 = (x + |x| (1 - q)) / 2: erf is odd, so
    x erf(x / sqrt 2) is even and needs no sign (and gelu(inf) stays inf)."""
    q, e = gauss_tail_float32(x)
    np.subtract(1, q, out=q)
    np.multiply(q, np.abs(x, out=e), out=q)
    np.add(q, x, out=q)
    np.multiply(q, np.float32(0.5), out=out)


def _gelu_derivative_float32(x: np.ndarray) -> np.ndarray:
    """Phi(x) + x phi(x), sharing one exponential: Phi = (1 + sign(x) (1 - q)) / 2 and
    phi = e / sqrt(2 pi)."""
    q, e = gauss_tail_float32(x)
    np.subtract(1, q, out=q)
    np.multiply(q, np.sign(x), out=q)
    np.add(q, 1, out=q)
    np.multiply(q, np.float32(0.5), out=q)
    np.multiply(e, np.float32(_INV_SQRT_2PI), out=e)
    np.multiply(e, x, out=e)
    return np.add(q, e, out=q)


def _cdf(x: np.ndarray) -> np.ndarray:
    """Phi(x) = (1 + erf(x / sqrt 2)) / 2 with SciPy's exact erf, in a new array."""
    gate = np.multiply(x, _SQRT1_2, out=scratch(x))
    scipy_special("gelu").erf(gate, out=gate)
    np.add(gate, 1, out=gate)
    np.multiply(gate, 0.5, out=gate)
    return gate


def _tanh_inner(x: np.ndarray) -> np.ndarray:
    """tanh(sqrt(2/pi) (x + 0.044715 x^3)), in a new array."""
    inner = np.multiply(x, x, out=scratch(x))
    np.multiply(inner, _TANH_KAPPA, out=inner)
    np.add(inner, 1, out=inner)
    np.multiply(inner, x, out=inner)
    np.multiply(inner, _TANH_BETA, out=inner)
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
        np.add(gate, 1, out=gate)
        np.multiply(gate, 0.5, out=gate)
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


def _gelu_backward_block(grad: np.ndarray, x: np.ndarray, *, out: np.ndarray,
                         approximate: str) -> None:
    if approximate == "tanh":
        t = _tanh_inner(x)
        # d/dx 0.5 x (1 + t) = 0.5 (1 + t) + 0.5 x (1 - t^2) u',  u' = beta (1 + 3 kappa x^2)
        slope = np.multiply(x, x, out=scratch(x))
        np.multiply(slope, 3 * _TANH_KAPPA, out=slope)
        np.add(slope, 1, out=slope)
        np.multiply(slope, _TANH_BETA * 0.5, out=slope)
        np.multiply(slope, x, out=slope)
        derivative = np.multiply(t, t, out=scratch(x))
        np.subtract(1, derivative, out=derivative)
        np.multiply(derivative, slope, out=derivative)
        np.add(derivative, 0.5, out=derivative)
        np.multiply(t, 0.5, out=t)
        np.add(derivative, t, out=derivative)
    elif x.dtype == np.float32:
        derivative = _gelu_derivative_float32(x)
    else:                                             # Phi(x) + x phi(x)
        density = np.multiply(x, x, out=scratch(x))
        np.multiply(density, -0.5, out=density)
        np.exp(density, out=density)
        np.multiply(density, _INV_SQRT_2PI, out=density)
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
