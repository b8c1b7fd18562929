"""The orthogonal polynomials of torch.special: Chebyshev T, U, V, W (and shifted to
[0, 1]), Hermite H (physicists') and He (probabilists'), Laguerre L and Legendre P.

Each is ``special_<name>_polynomial_<kind>(Tensor x, Tensor n)``: elementwise in `x` and
the degree `n` (either may be a Python number), promoted to a float dtype. torch's
kernels are written for float and double only, and give no gradient.

Note [Polynomial evaluation]
    torch truncates the degree to an integer (NaN and inf become the most negative
    one), gives 0 for a negative degree and exact values at the ends of the interval
    (``T_n(1) = 1``), evaluates a Chebyshev polynomial of high degree inside (-1, 1) by
    its trigonometric form (``T_n(x) = cos(n acos x)``), and otherwise runs the
    three-term recurrence from degrees 0 and 1, in the compute dtype. The kernels here
    take the same steps in the same order, vectorized: the recurrence runs once per
    degree up to the largest one needed, each element keeping the value of its own
    degree. Huge values overflow as torch's do (``inf - inf`` is NaN).
"""
from __future__ import annotations

import numpy as np

from ...derivatives import NOT_DIFFERENTIABLE
from ...meta.pointwise import Promotion
from ...pointwise import pointwise
from .binary import tensor_needed
from .special_bessel import refuse_kinds

_INT64_RANGE = 2.0 ** 63


def _degree(n: np.ndarray) -> np.ndarray:
    """The float degree cast to int64 as C++ does on x86: truncated; NaN, inf and values
    out of range become the most negative int64 (so count as negative)."""
    inside = np.isfinite(n) & (np.abs(n) < _INT64_RANGE)
    return np.where(inside, n, -1).astype(np.int64)


def _recurrence(degree, first, second, step):
    """The polynomial of each element's degree (>= 0) from degrees 0 and 1 (`first`,
    `second`) and ``step(k, p, q)``, the k-th step of the recurrence (degree k + 1 from
    k - 1 and k). Once every element still climbing is NaN (an overflow ran into
    ``inf - inf``), the rest of the climb is NaN too and is not run."""
    result = np.where(degree == 0, first, second)
    highest = int(degree.max(initial=1))
    p, q = first, second
    for k in range(1, highest):
        p, q = q, step(k, p, q)
        result = np.where(degree == k + 1, q, result)
        if k % 32 == 0 and np.isnan(q[degree > k + 1]).all():
            return np.where(degree > k + 1, q.dtype.type(np.nan), result)
    return result


def _fused(a, b, c):
    """``a * b - c`` rounded once, as torch's compiled kernels compute a recurrence step
    (a fused multiply-add: ``a * b`` may exceed the dtype's range while the difference
    does not). float32 steps run in float64, where the product is exact."""
    if a.dtype == np.float32:
        wide = np.multiply(a, b, dtype=np.float64) - np.asarray(c, np.float64)
        return wide.astype(np.float32)
    return a * b - c


def _finish(degree, result, *branches):
    """`result` with torch's earlier branches applied: each ``(mask, value)`` wins over
    those after it; a negative degree gives 0 first of all."""
    for mask, value in reversed(branches):
        result = np.where(mask, value, result)
    return np.where(degree < 0, result.dtype.type(0), result)


def _parity(degree, x, even, odd):
    """`even` where the degree is even, else `odd` (torch's values at ``x = -1``)."""
    return np.where(degree % 2 == 0, even, odd).astype(x.dtype)


def _rounded(function):
    """`function` evaluated in float64 and rounded to the argument's dtype: the correctly
    rounded float32 result C's ``acosf`` / ``cosf`` / ``sinf`` give, where NumPy's own
    float32 loops may be an ulp off."""
    def evaluate(y):
        return function(y.astype(np.float64)).astype(y.dtype)
    return evaluate


_arccos, _cos, _sin = _rounded(np.arccos), _rounded(np.cos), _rounded(np.sin)


def _acos_inside(y, degree, threshold):
    """(mask, acos(y)): the elements evaluated by the trigonometric form (``|y| < 1``
    and the degree above `threshold`), and the angle they use."""
    inside = (degree > threshold) & (np.abs(y) < 1)
    return inside, _arccos(np.where(inside, y, 0))


# ----------------------------------------------------------------------------------
# Chebyshev polynomials (y is x, or 2x - 1 for the shifted ones)
# ----------------------------------------------------------------------------------
def _chebyshev_recurrence(y, degree, second):
    one = np.ones_like(y)
    return _recurrence(degree, one, second, lambda k, p, q: _fused(y + y, q, p))


def _chebyshev_t(y, degree, threshold, ends):
    nf = degree.astype(y.dtype)
    inside, angle = _acos_inside(y, degree, threshold)
    climbing = np.where(inside, 0, degree)          # the trigonometric form takes these
    return _finish(degree, _chebyshev_recurrence(y, climbing, y),
                   *ends, (inside, _cos(nf * angle)))


def _chebyshev_u(y, degree, threshold, ends):
    nf = degree.astype(y.dtype)
    inside, angle = _acos_inside(y, degree, threshold)
    sine = _sin(angle)
    trig = np.where(sine != 0, _sin((nf + 1) * angle) / sine,
                    (nf + 1) * _cos((nf + 1) * angle) / y)
    climbing = np.where(inside, 0, degree)
    return _finish(degree, _chebyshev_recurrence(y, climbing, y + y), *ends, (inside, trig))


def _chebyshev_v(y, degree, threshold, ends):
    nf = degree.astype(y.dtype)
    inside, angle = _acos_inside(y, degree, threshold)
    trig = np.where(_sin(angle / 2) != 1, _cos((nf + 0.5) * angle) / _cos(angle / 2),
                    _parity(degree, y, nf + nf + 1, -(nf + nf + 1)))
    climbing = np.where(inside, 0, degree)
    return _finish(degree, _chebyshev_recurrence(y, climbing, y + y - 1), *ends,
                   (inside, trig))


def _chebyshev_w(y, degree, threshold, ends, at_one):
    nf = degree.astype(y.dtype)
    inside, angle = _acos_inside(y, degree, threshold)
    trig = np.where(_cos(angle / 2) != 1, _sin((nf + 0.5) * angle) / _sin(angle / 2),
                    at_one)
    climbing = np.where(inside, 0, degree)
    return _finish(degree, _chebyshev_recurrence(y, climbing, y + y + 1), *ends,
                   (inside, trig))


def _ends(x, low, high, at_low, at_high):
    """torch's exact values at the interval's ends: [(x == high, ...), (x == low, ...)]."""
    return [(x == high, at_high), (x == low, at_low)]


def chebyshev_t(x, n):
    degree = _degree(n)
    return _chebyshev_t(x, degree, 6, _ends(x, -1, 1, _parity(degree, x, 1, -1), 1))


def chebyshev_u(x, n):
    degree, nf = _degree(n), _degree(n).astype(x.dtype)
    return _chebyshev_u(x, degree, 8, _ends(x, -1, 1, _parity(degree, x, nf + 1, -(nf + 1)),
                                            nf + 1))


def chebyshev_v(x, n):
    degree, nf = _degree(n), _degree(n).astype(x.dtype)
    odd = _parity(degree, x, nf + nf + 1, -(nf + nf + 1))
    return _chebyshev_v(x, degree, 8, _ends(x, -1, 1, odd, 1))


def chebyshev_w(x, n):
    degree, nf = _degree(n), _degree(n).astype(x.dtype)
    at_one = np.where(x > 0, nf + nf + 1, _parity(degree, x, 1, -1))
    return _chebyshev_w(x, degree, 8, _ends(x, -1, 1, _parity(degree, x, 1, -1), nf + nf + 1),
                        at_one)


def shifted_chebyshev_t(x, n):
    degree = _degree(n)
    return _chebyshev_t(x + x - 1, degree, 6, _ends(x, 0, 1, _parity(degree, x, 1, -1), 1))


def shifted_chebyshev_u(x, n):
    degree, nf = _degree(n), _degree(n).astype(x.dtype)
    return _chebyshev_u(x + x - 1, degree, 6,
                        _ends(x, 0, 1, _parity(degree, x, nf + 1, -(nf + 1)), nf + 1))


def shifted_chebyshev_v(x, n):
    degree, nf = _degree(n), _degree(n).astype(x.dtype)
    odd = _parity(degree, x, nf + nf + 1, -(nf + nf + 1))
    return _chebyshev_v(x + x - 1, degree, 6, _ends(x, 0, 1, odd, 1))


def shifted_chebyshev_w(x, n):
    degree, nf = _degree(n), _degree(n).astype(x.dtype)
    parity = _parity(degree, x, 1, -1)
    return _chebyshev_w(x + x - 1, degree, 4, _ends(x, 0, 1, parity, nf + nf + 1), parity)


# ----------------------------------------------------------------------------------
# Hermite, Laguerre, Legendre
# ----------------------------------------------------------------------------------
def hermite_h(x, n):
    degree = _degree(n)
    values = _recurrence(degree, np.ones_like(x), x + x,
                         lambda k, p, q: _fused(x + x, q, (k + k) * p))
    return _finish(degree, values)


def hermite_he(x, n):
    degree = _degree(n)
    values = _recurrence(degree, np.ones_like(x), x, lambda k, p, q: _fused(x, q, k * p))
    return _finish(degree, values)


def laguerre_l(x, n):
    degree = _degree(n)
    values = _recurrence(degree, np.ones_like(x), 1 - x,
                         lambda k, p, q: _fused((k + k) + (1 - x), q, k * p) / (k + 1))
    return _finish(degree, values, (x == 0, 1))


def legendre_p(x, n):
    degree = _degree(n)
    values = _recurrence(degree, np.ones_like(x), x,
                         lambda k, p, q: _fused((k + k + 1) * x, q, k * p) / (k + 1))
    at_ends = np.where(x > 0, 1, _parity(degree, x, 1, -1))
    return _finish(degree, values, (np.abs(x) == 1, at_ends))


# ----------------------------------------------------------------------------------
# The declarations
# ----------------------------------------------------------------------------------
def _declare(name: str, compute, summary: str, example: str):
    """Declare ``torch.special.<name>(input, n)`` (and its out= form) over `compute`."""
    def kernel(x, n, *, out):
        np.copyto(out, compute(x, n), casting="unsafe")
    kernel.__name__ = kernel.__qualname__ = f"special_{name}"
    kernel.__doc__ = f"""{summary}

    Args:
        input (Tensor): the points x.
        n (Tensor): the degrees (truncated to integers; a negative degree gives 0).

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.special.{name}(torch.tensor([0.5, 2.0]), 3)
        {example}
    """
    return pointwise(f"special_{name}(Tensor x, Tensor n) -> Tensor",
                     promotion=Promotion.INT_TO_FLOAT, out=True, method=False,
                     python_module="special", check=tensor_needed(f"special_{name}", "n", "x"),
                     kernel_check=refuse_kinds(f"{name}_cpu", 2),
                     grad={"x": NOT_DIFFERENTIABLE, "n": NOT_DIFFERENTIABLE})(kernel)


special_chebyshev_polynomial_t = _declare(
    "chebyshev_polynomial_t", chebyshev_t, "The Chebyshev polynomial of the first kind "
    "T_n, with ``T_n(cos t) = cos(n t)``.", "tensor([-1., 26.])")
special_chebyshev_polynomial_u = _declare(
    "chebyshev_polynomial_u", chebyshev_u, "The Chebyshev polynomial of the second kind "
    "U_n, with ``U_n(cos t) = sin((n + 1) t) / sin(t)``.", "tensor([-1., 56.])")
special_chebyshev_polynomial_v = _declare(
    "chebyshev_polynomial_v", chebyshev_v, "The Chebyshev polynomial of the third kind "
    "V_n, with ``V_n(cos t) = cos((n + 1/2) t) / cos(t / 2)``.", "tensor([-1., 41.])")
special_chebyshev_polynomial_w = _declare(
    "chebyshev_polynomial_w", chebyshev_w, "The Chebyshev polynomial of the fourth kind "
    "W_n, with ``W_n(cos t) = sin((n + 1/2) t) / sin(t / 2)``.", "tensor([-1., 71.])")
special_shifted_chebyshev_polynomial_t = _declare(
    "shifted_chebyshev_polynomial_t", shifted_chebyshev_t, "The Chebyshev polynomial T_n "
    "shifted to [0, 1]: ``T_n(2x - 1)``.", "tensor([-0., 99.])")
special_shifted_chebyshev_polynomial_u = _declare(
    "shifted_chebyshev_polynomial_u", shifted_chebyshev_u, "The Chebyshev polynomial U_n "
    "shifted to [0, 1]: ``U_n(2x - 1)``.", "tensor([ -0., 204.])")
special_shifted_chebyshev_polynomial_v = _declare(
    "shifted_chebyshev_polynomial_v", shifted_chebyshev_v, "The Chebyshev polynomial V_n "
    "shifted to [0, 1]: ``V_n(2x - 1)``.", "tensor([  1., 169.])")
special_shifted_chebyshev_polynomial_w = _declare(
    "shifted_chebyshev_polynomial_w", shifted_chebyshev_w, "The Chebyshev polynomial W_n "
    "shifted to [0, 1]: ``W_n(2x - 1)``.", "tensor([ -1., 239.])")
special_hermite_polynomial_h = _declare(
    "hermite_polynomial_h", hermite_h, "The physicists' Hermite polynomial H_n "
    "(``H_3(x) = 8x^3 - 12x``).", "tensor([-5., 40.])")
special_hermite_polynomial_he = _declare(
    "hermite_polynomial_he", hermite_he, "The probabilists' Hermite polynomial He_n "
    "(``He_3(x) = x^3 - 3x``).", "tensor([-1.3750,  2.0000])")
special_laguerre_polynomial_l = _declare(
    "laguerre_polynomial_l", laguerre_l, "The Laguerre polynomial L_n "
    "(``L_1(x) = 1 - x``).", "tensor([-0.1458, -0.3333])")
special_legendre_polynomial_p = _declare(
    "legendre_polynomial_p", legendre_p, "The Legendre polynomial P_n "
    "(``P_2(x) = (3x^2 - 1) / 2``).", "tensor([-0.4375, 17.0000])")
