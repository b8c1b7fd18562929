"""Special functions: sigmoid and logit, the error functions, the gamma family (with the
incomplete gamma functions igamma and igammac), i0, and those torch has only under
torch.special (``python_module="special"``: `special_entr` is ``torch.special.entr``).

Elementwise (aten/pointwise.py): integers and bool compute in the default float dtype,
float16/bfloat16 in float32, rounded once. The kernels call SciPy's `scipy.special`,
the field's standard implementations (Cephes, as torch's own kernels mostly are).
SciPy is an optional dependency: it is imported by the kernels, when first needed, so
`import glasstorch` works without it and only these operators ask for it.

Where torch's results differ from the mathematical function at special points, the
kernels follow torch (documented at each): ``lgamma(-inf)`` is ``inf``, ``i0(inf)`` is
NaN, `polygamma(1, x)` is torch's trigamma series (finite at the poles).

Note [Float64 evaluation]
    SciPy's float32 loop for `erfinv` is a float32 algorithm whose last bits differ
    where torch evaluates in double and rounds; such kernels evaluate in float64 and
    round once (`_in_float64`), matching torch's bits.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype, scalar_type_name
from ....c10.promotion import can_cast
from ...derivatives import derivative_helper
from ...meta.pointwise import ElementwiseMeta, Promotion, elementwise_meta, result_and_compute
from ...pointwise import pointwise
from ...backends import register_meta
from ...registry import composite, op
from ...schema import SchemaKind
from ...meta.shape import check_no_internal_overlap as check_writable
from .binary import reduced_float, refuse as refuse_kinds
from .blocks import logistic
from .unary import COMPLEX, FLOAT_RESULT, refuse

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
_SQRT_PI_OVER_TWO = math.sqrt(math.pi) / 2


def scipy_special(op_name: str):
    """`scipy.special`, imported on first use.

    Raises:
        ImportError: naming the operator, when SciPy is not installed.
    """
    try:
        from scipy import special
    except ImportError as error:
        raise ImportError(f"torch.{op_name} needs SciPy (scipy.special), which is not "
                          f"installed: pip install scipy") from error
    return special


def float_result(self: np.ndarray) -> np.dtype:
    """The result dtype of a float-valued op on `self` (integers and bool give the
    default float); structured kernels need it, as out= may be of another dtype."""
    return result_and_compute(from_numpy_dtype(self.dtype), Promotion.INT_TO_FLOAT)[0]._np


def _in_float64(function, self: np.ndarray, out: np.ndarray) -> None:
    """`out` = `function(self)` evaluated in float64, rounded once (Note [Float64 evaluation])."""
    if self.dtype == np.float64:
        function(self, out=out)
    else:
        np.copyto(out, function(self.astype(np.float64)), casting="unsafe")


# ----------------------------------------------------------------------------------
# The logistic function and its inverse
# ----------------------------------------------------------------------------------
@pointwise("sigmoid(Tensor self) -> Tensor", **FLOAT_RESULT,
           grad={"self": "sigmoid_backward(grad, result)"})
def sigmoid(self, *, out):
    """The logistic sigmoid ``1 / (1 + exp(-input))`` of each element (complex too).

    Example::

        >>> torch.sigmoid(torch.tensor([0., 2.]))
        tensor([0.5000, 0.8808])
    """
    if self.dtype in COMPLEX:
        np.negative(self, out=out)
        np.exp(out, out=out)
        np.add(out, 1, out=out)
        np.reciprocal(out, out=out)
    else:
        logistic(self, out)


def _float_result_meta(self, eps=None, out=None):
    """A float result laid out as `self` (integers and bool give the default float)."""
    if out is not None:
        check_writable(out)
    return elementwise_meta([self], Promotion.INT_TO_FLOAT)


@derivative_helper
def logit_backward(grad, self, eps):
    """The gradient of `logit`: ``grad / (x (1 - x))``; NaN outside [0, 1] without eps,
    zero outside [eps, 1 - eps] (where the input was clamped) with it."""
    slope = grad / (self * (1 - self))
    if eps is None or eps < 0:                 # a negative eps clamps nothing
        return slope.where((self >= 0) & (self <= 1), float("nan"))
    # a NaN input keeps its NaN gradient (torch's scalar loop; its vectorized one gives 0)
    return slope.where(~((self < eps) | (self > 1 - eps)), 0)


@op("logit(Tensor self, float? eps=None) -> Tensor", meta=_float_result_meta, inplace=True,
    out=True, method=True, grad={"self": "logit_backward(grad, self, eps)"})
def logit(self, eps, *, out):
    """The log-odds ``log(p / (1 - p))`` of each element, the inverse of `sigmoid`.

    Args:
        input (Tensor): probabilities.
        eps (float, optional): when given (and not negative), inputs are first clamped
            to ``[eps, 1 - eps]``, which keeps the result finite.

    Example::

        >>> torch.logit(torch.tensor([0.25, 0.5, 1.0]))
        tensor([-1.0986,  0.0000,     inf])
        >>> torch.logit(torch.tensor([0.0, 1.0]), eps=1e-6)
        tensor([-13.8155,  13.8023])
    """
    refuse(self, "logit_cpu", COMPLEX)
    dtype = float_result(self)
    x = self.astype(dtype, copy=False)
    if eps is not None and eps >= 0:
        # torch's comparison chain, not a clip: with eps > 0.5 the bounds cross and
        # the lower one is tested first. NaN stays NaN.
        low, high = dtype.type(eps), dtype.type(1 - eps)
        x = np.where(x < low, low, np.where(x > high, high, x))
    # The ratio is rounded to the result dtype (float16 and bfloat16 too: torch does
    # this step in the tensor's own type), then its log taken in (at least) float32.
    ratio = x / (dtype.type(1) - x)
    result = np.log(ratio.astype(np.promote_types(dtype, np.float32))).astype(dtype)
    np.copyto(out, result, casting="unsafe")        # rounded to the result dtype first


# ----------------------------------------------------------------------------------
# The error function family
# ----------------------------------------------------------------------------------
@pointwise("erf(Tensor self) -> Tensor", **FLOAT_RESULT,
           grad={"self": f"grad * {_TWO_OVER_SQRT_PI!r} * (-self * self).exp()"})
def erf(self, *, out):
    """The error function ``2/sqrt(pi) * integral(exp(-t**2), 0, x)`` of each element.

    Example::

        >>> torch.erf(torch.tensor([0., -1., 10.]))
        tensor([ 0.0000, -0.8427,  1.0000])
    """
    refuse(self, "erf_vml_cpu", COMPLEX)
    scipy_special("erf").erf(self, out=out)


@pointwise("erfc(Tensor self) -> Tensor", **FLOAT_RESULT,
           grad={"self": f"-grad * {_TWO_OVER_SQRT_PI!r} * (-self * self).exp()"})
def erfc(self, *, out):
    """The complementary error function ``1 - erf(x)``, accurate where erf is near 1.

    Example::

        >>> torch.erfc(torch.tensor([0., -1., 10.]))
        tensor([1.0000e+00, 1.8427e+00, 1.4013e-45])
    """
    refuse(self, "erfc_vml_cpu", COMPLEX)
    scipy_special("erfc").erfc(self, out=out)


@pointwise("erfinv(Tensor self) -> Tensor", **FLOAT_RESULT,
           grad={"self": f"grad * {_SQRT_PI_OVER_TWO!r} * (result * result).exp()"})
def erfinv(self, *, out):
    """The inverse error function: ``erf(erfinv(x)) == x`` on ``(-1, 1)``, ``±inf`` at
    ``±1`` and NaN outside.

    Example::

        >>> torch.erfinv(torch.tensor([0., 0.5, -1.]))
        tensor([0.0000, 0.4769,   -inf])
    """
    refuse(self, "erfinv_vml_cpu", COMPLEX)
    _in_float64(scipy_special("erfinv").erfinv, self, out)
    # erfinv is odd; SciPy loses the sign of -0.0, torch keeps it.
    np.copysign(out, self, out=out)


# ----------------------------------------------------------------------------------
# The gamma family
# ----------------------------------------------------------------------------------
@pointwise("lgamma(Tensor self) -> Tensor", **FLOAT_RESULT,
           grad={"self": "grad * self.digamma()"})
def lgamma(self, *, out):
    """``log(abs(gamma(x)))`` of each element: ``inf`` at the poles (0 and the negative
    integers) and at ``±inf``.

    Example::

        >>> torch.lgamma(torch.tensor([0.5, 1., -2.5, -1.]))
        tensor([ 0.5724,  0.0000, -0.0562,     inf])
    """
    refuse(self, "lgamma_vml_cpu", COMPLEX)
    _lgamma_values(self, out)


def _lgamma_values(self: np.ndarray, out: np.ndarray) -> np.ndarray:
    scipy_special("lgamma").gammaln(self, out=out)
    np.copyto(out, np.inf, where=np.isneginf(self))    # C's lgamma(-inf); SciPy says -inf
    return out


@pointwise("digamma(Tensor self) -> Tensor", **FLOAT_RESULT,
           grad={"self": "grad * polygamma(1, self)"})
def digamma(self, *, out):
    """The logarithmic derivative of the gamma function, ``gamma'(x) / gamma(x)``.

    ``-inf`` at 0, ``inf`` at -0.0, NaN at the negative integers.

    Example::

        >>> torch.digamma(torch.tensor([1., 0.5, 0., -1.]))
        tensor([-0.5772, -1.9635,    -inf,     nan])
    """
    _digamma_values(self, out)


def _digamma_values(self: np.ndarray, out: np.ndarray) -> None:
    refuse(self, "digamma", COMPLEX)
    if self.dtype == np.float32:
        np.copyto(out, _digamma_float32(self))
    else:
        scipy_special("digamma").psi(self, out=out)


# psi(x) ~ log(x) - 1/(2x) - z * P(z), z = 1/x**2: Bernoulli terms, highest power first
_PSI_SERIES = tuple(np.float32(c) for c in (1 / 12, -691 / 32760, 1 / 132, -1 / 240, 1 / 252,
                                             -1 / 120, 1 / 12))
_PSI_10 = np.float32(2.25175258906672110764)        # psi(10)


def _digamma_float32(x: np.ndarray) -> np.ndarray:
    """digamma in float32 arithmetic, step by step as torch's float kernel: reflection
    for negative x, the recurrence up to 10, then the asymptotic series. SciPy's psi
    is more accurate; this gives torch's last bits (99.9% bit-identical)."""
    negative = x < 0
    pole = negative & (x == np.trunc(x))
    fraction = np.fmod(x.astype(np.float64), 1.0)
    reflection = (np.pi / np.tan(np.pi * fraction)).astype(np.float32)
    x = np.where(negative, 1 - x, x)
    result = np.zeros_like(x)
    for _ in range(10):
        small = x < 10
        result = np.where(small, result - 1 / x, result)
        x = np.where(small, x + 1, x)
    z = 1 / (x * x)
    series = np.zeros_like(x)
    for coefficient in _PSI_SERIES:
        series = series * z + coefficient
    series = np.where(x < np.float32(1e17), z * series, np.float32(0))
    log = np.log(x.astype(np.float64)).astype(np.float32)      # C's logf, correctly rounded
    result = np.where(x == 10, result + _PSI_10, ((result + log) - np.float32(0.5) / x) - series)
    result = np.where(negative, result - reflection, result)
    return np.where(pole, np.float32(np.nan), result)


def _check_polygamma(n, self):
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")


@pointwise("polygamma(int n, Tensor self) -> Tensor", promotion=Promotion.INT_TO_FLOAT,
           out=True, check=_check_polygamma, grad={"self": "grad * polygamma(n + 1, self)"})
def polygamma(n, self, *, out):
    """The `n`-th derivative of `digamma` (``polygamma(0, x)`` is ``digamma(x)``).

    Args:
        n (int): the order of the derivative, at least 0.
        input (Tensor): the points.

    Example::

        >>> torch.polygamma(1, torch.tensor([1., 0.5]))
        tensor([1.6449, 4.9348])
        >>> torch.tensor([1.]).polygamma(2)
        tensor([-2.4041])
    """
    if n == 0:
        _digamma_values(self, out)
    elif n == 1:
        refuse(self, "trigamma", COMPLEX)
        _trigamma(self, out)
    else:
        refuse(self, "polygamma", COMPLEX)
        np.copyto(out, _polygamma_from_zeta(n, self.astype(np.float64)), casting="unsafe")


def _trigamma(self: np.ndarray, out: np.ndarray) -> None:
    """polygamma(1, x) as torch computes it: reflection below 1/2, six steps of the
    recurrence ``psi1(x) = psi1(x + 1) + 1/x**2``, then the asymptotic series.

    torch's reflection uses ``sin(pi * x)`` as computed, so the poles (0 and the
    negative integers) give huge finite values rather than ``inf``; reproduced here.
    """
    kind = self.dtype.type
    x = self.copy()
    result = np.zeros_like(x)
    reflect = x < 0.5
    if reflect.any():
        sin_pi_x = np.sin(kind(math.pi) * x[reflect])
        result[reflect] = -(kind(math.pi) * kind(math.pi)) / (sin_pi_x * sin_pi_x)
        x[reflect] = 1 - x[reflect]
    for _ in range(6):
        result += 1 / (x * x)
        x += 1
    # torch's series mixes x's dtype with double constants: the C++ promotions, kept
    inverse_square = (1 / (x * x)).astype(np.float64)
    series = inverse_square * (1 / 6 - inverse_square * (1 / 30 - inverse_square / 42))
    tail = ((1 + 1 / (2 * x)).astype(np.float64) + series) / x.astype(np.float64)
    np.add(result, tail, out=result, casting="unsafe")
    np.copyto(out, np.where(reflect, -result, result))


def _polygamma_from_zeta(n: int, x: np.ndarray) -> np.ndarray:
    """``(-1)**(n+1) * n! * zeta(n + 1, x)`` in float64, as torch computes orders >= 2.

    torch's Hurwitz zeta gives NaN at ``x = inf`` (SciPy's gives 0): kept.
    """
    special = scipy_special("polygamma")
    sign = 1.0 if n % 2 else -1.0
    result = sign * math.exp(math.lgamma(n + 1.0)) * special.zeta(n + 1.0, x)
    return np.where(np.isposinf(x), np.nan, result)


@composite("polygamma_(Tensor(a!) self, int n) -> Tensor(a!)", method=True, function=False)
def polygamma_(self, n):
    """In-place `polygamma`: ``self.polygamma_(n)`` writes ``polygamma(n, self)`` into self."""
    return polygamma.declaration.overloads[SchemaKind.out].call(n, self, self)


def _mvlgamma_meta(self, p, out=None):
    """torch's kernel checks, then `_mvlgamma_result` (its meta function, the Meta
    registration below, skips the checks)."""
    if self._dtype is dtypes.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return _mvlgamma_result(self, p, out)


def _mvlgamma_result(self, p, out=None):
    """A row-major result, of an `out` that can hold it."""
    described = elementwise_meta([self], Promotion.INT_TO_FLOAT)
    if out is not None and not can_cast(described.dtype, out._dtype):
        # torch's wording names the input's dtype first, then the result's
        raise RuntimeError(f"mvlgamma: result type {scalar_type_name(self._dtype)} can't be "
                           f"cast to the desired output type "
                           f"{scalar_type_name(described.dtype)}")
    if out is not None:
        check_writable(out)
    # torch computes it as a sum over a new last dimension, whose result is row-major
    return ElementwiseMeta(described.shape, described.dtype, None, described.compute,
                           described.target)


@derivative_helper
def mvlgamma_backward(grad, self, p):
    """The gradient of `mvlgamma`: ``grad * sum(digamma(x - j / 2) for j in range(p))``."""
    total = self.digamma()
    for j in range(1, p):
        total = total + (self - j / 2).digamma()
    return grad * total


@op("mvlgamma(Tensor self, int p) -> Tensor", meta=_mvlgamma_meta, inplace=True, out=True,
    method=True, grad={"self": "mvlgamma_backward(grad, self, p)"})
def mvlgamma(self, p, *, out):
    """The multivariate log-gamma function of dimension `p`, elementwise:
    ``sum(lgamma(x - j / 2) for j in range(p)) + p * (p - 1) / 4 * log(pi)``.

    Args:
        input (Tensor): the points (finite results need every element > (p - 1) / 2).
        p (int): the dimension, at least 1.

    Example::

        >>> torch.mvlgamma(torch.tensor([2.5, 3.0]), 2)
        tensor([0.8570, 1.5502])
    """
    refuse(self, "arange_cpu", COMPLEX)
    scipy_special("mvlgamma")               # without SciPy, the error names this operator
    # torch sums lgamma over a new dimension of arguments x - (p-1)/2, ..., x - 1/2, x,
    # each rounded to the result dtype, accumulating in float32 (float64 for double)
    # and adding the constant last: the same steps, for the same last bits.
    dtype = float_result(self)
    accumulate = np.promote_types(dtype, np.float32)
    x = self.astype(dtype, copy=False)
    total = np.zeros(x.shape, accumulate)
    for j in range(p - 1, -1, -1):
        argument = np.asarray(x + dtype.type(-j / 2), dtype=np.float64)
        total += _lgamma_values(argument, argument).astype(dtype)
    total = total.astype(dtype).astype(accumulate)
    total += accumulate.type(p * (p - 1) / 4 * math.log(math.pi))
    np.copyto(out, total.astype(dtype), casting="unsafe")


register_meta(mvlgamma, _mvlgamma_result)


# ----------------------------------------------------------------------------------
# Bessel (the others are in special_bessel.py; i0's derivative is its operator special_i1)
# ----------------------------------------------------------------------------------
@pointwise("i0(Tensor self) -> Tensor", **FLOAT_RESULT,
           grad={"self": "grad * special_i1(self)"})
def i0(self, *, out):
    """The modified Bessel function of the first kind of order 0, elementwise.

    Example::

        >>> torch.i0(torch.tensor([0., 1., -2.]))
        tensor([1.0000, 1.2661, 2.2796])
    """
    refuse(self, "i0_vml_cpu", COMPLEX)
    scipy_special("i0").i0(self, out=out)
    # torch's large-argument branch computes exp(x) / sqrt(x) * ...: inf / inf at ±inf
    np.copyto(out, np.nan, where=np.isinf(self))


# ----------------------------------------------------------------------------------
# The regularized incomplete gamma functions
# ----------------------------------------------------------------------------------
def _incomplete_gamma(a: np.ndarray, x: np.ndarray, out: np.ndarray, lower: bool) -> None:
    """P(a, x) (`lower`) or Q(a, x) = 1 - P(a, x): SciPy's gammainc / gammaincc in
    float64, rounded once, with torch's answers at its special points, decided in this
    order: NaN for a negative argument; at a = 0, the limit for x > 0 (NaN at 0); at
    x = 0, P = 0; at a = inf, P = 0 (NaN if x is inf too); at x = inf, P = 1. So
    ``igamma(nan, 0)`` is 0 where SciPy says NaN."""
    special = scipy_special("igamma" if lower else "igammac")
    a, x = np.asarray(a, np.float64), np.asarray(x, np.float64)
    value = (special.gammainc if lower else special.gammaincc)(a, x)
    low, high = (0.0, 1.0) if lower else (1.0, 0.0)        # P's 0 and 1 seen from Q
    value = np.where(np.isinf(x), high, value)
    value = np.where(np.isinf(a), np.where(np.isinf(x), np.nan, low), value)
    value = np.where(x == 0, low, value)
    value = np.where(a == 0, np.where(x > 0, high, np.nan), value)
    value = np.where((x < 0) | (a < 0), np.nan, value)
    np.copyto(out, value, casting="unsafe")


@pointwise("igamma(Tensor self, Tensor other) -> Tensor", inplace=True, out=True, numbers=(),
           kernel_check=refuse_kinds("igamma_cpu", bool_=True, integral=True, complex_=True),
           grad={"self": "not_implemented('igamma: input')",
                 "other": "grad * exp((self - 1) * log(other) - other - lgamma(self))"})
def igamma(self, other, *, out):
    """The regularized lower incomplete gamma function ``P(input, other)``: the integral
    of ``t^(a-1) e^-t`` from 0 to `other`, divided by ``Gamma(input)``.

    Args:
        input (Tensor): the shape parameter a (nonnegative).
        other (Tensor): the upper limit x (nonnegative).

    Example::

        >>> torch.igamma(torch.tensor([1., 2.]), torch.tensor([0.5, 3.]))
        tensor([0.3935, 0.8009])
    """
    _incomplete_gamma(self, other, out, lower=True)


@pointwise("igammac(Tensor self, Tensor other) -> Tensor", inplace=True, out=True, numbers=(),
           kernel_check=refuse_kinds("igammac_cpu", bool_=True, integral=True, complex_=True),
           grad={"self": "not_implemented('igammac: input')",
                 "other": "-grad * exp((self - 1) * log(other) - other - lgamma(self))"})
def igammac(self, other, *, out):
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 -
    P(input, other)`` (see `igamma`), computed directly where it is small.

    Example::

        >>> torch.igammac(torch.tensor([1., 2.]), torch.tensor([0.5, 3.]))
        tensor([0.6065, 0.1991])
    """
    _incomplete_gamma(self, other, out, lower=False)


# ----------------------------------------------------------------------------------
# Entropy
# ----------------------------------------------------------------------------------
@pointwise("special_entr(Tensor self) -> Tensor", promotion=Promotion.INT_TO_FLOAT, out=True,
           numbers=(), method=False, python_module="special",
           grad={"self": "grad * (-(1 + self.log()))"})
def special_entr(self, *, out, result=None):
    """The entropy term ``-x * ln(x)`` of each element: 0 at 0, ``-inf`` for negative
    inputs (NaN stays NaN).

    Args:
        input (Tensor): the input tensor.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.special.entr(torch.tensor([-0.5, 0.0, 0.5]))
        tensor([  -inf, 0.0000, 0.3466])
    """
    refuse(self, "entr_cpu", COMPLEX)
    logarithm = np.log(self)
    if reduced_float(result):       # torch's float16 / bfloat16 kernel rounds the log
        logarithm = logarithm.astype(result).astype(out.dtype)
    np.multiply(np.negative(self), logarithm, out=out)
    np.copyto(out, 0, where=self == 0)                  # not 0 * -inf
    np.copyto(out, -np.inf, where=self < 0)
