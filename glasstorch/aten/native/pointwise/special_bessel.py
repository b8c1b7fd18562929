"""Bessel functions of torch.special: the Bessel functions J0, J1, Y0, Y1, the modified
ones I0, I1, K0, K1 (K0 and K1 also scaled by exp(x)), the spherical j0 and Airy's Ai,
and the exponentially scaled i0e, i1e with the plain i1.

Elementwise (aten/pointwise.py): integers and bool compute in the default float dtype.
The kernels call `scipy.special` (Cephes, as torch's kernels are), imported on first use
(`special.scipy_special`). torch's kernels for the first group are written for float and
double only: they refuse half precision as they refuse complex (`refuse_kinds`), and
their results are not differentiable (torch records no gradient for them). i0e, i1 and
i1e take float16 and bfloat16 (computed in float32) and have derivatives.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.type_info import finfo
from ...derivatives import NOT_DIFFERENTIABLE, derivative_helper
from ...meta.pointwise import Promotion
from ...pointwise import pointwise
from .binary import computed_dtype, not_implemented, raise_at_kernel
from .special import scipy_special

_REDUCED = (dtypes.float16, dtypes.bfloat16)


def refuse_kinds(label: str, operands: int = 1, reduced: bool = True):
    """A `kernel_check` with torch's error for complex operands, and for half precision
    when `reduced` (kernels written for float and double only)."""
    def check(*args):
        dtype = computed_dtype(*args[:operands])
        if dtype.is_complex or (reduced and dtype in _REDUCED):
            raise_at_kernel(not_implemented(label, dtype), args[:operands])
    return check


def special_function(name: str, compute, doc: str, *, argument: str = "self",
                     reduced: bool = False, grad: dict | None = None):
    """Declare ``torch.special.<name>`` (with its out= form), an elementwise function
    whose kernel writes ``compute(x)`` (x in the compute dtype) into `out`.

    Args:
        name: the name in torch.special (the operator is ``special_<name>``).
        compute: the math, ndarray to ndarray.
        doc: the docstring.
        argument: the schema's name for the input (torch says ``x`` for some).
        reduced: whether float16 and bfloat16 are accepted (computed in float32).
        grad: the derivative formulas; by default the result is not differentiable.
    """
    def kernel(*args, out):
        np.copyto(out, compute(args[0]), casting="unsafe")
    kernel.__name__ = kernel.__qualname__ = f"special_{name}"
    kernel.__doc__ = doc
    return pointwise(f"special_{name}(Tensor {argument}) -> Tensor",
                     promotion=Promotion.INT_TO_FLOAT, out=True, numbers=(), method=False,
                     python_module="special",
                     kernel_check=refuse_kinds(f"{name}_cpu", reduced=not reduced),
                     grad=grad or {argument: NOT_DIFFERENTIABLE})(kernel)


def _scipy(function_name: str):
    """``scipy.special.<function_name>``, looked up when the kernel first runs."""
    def compute(x):
        return getattr(scipy_special(f"special.{function_name}"), function_name)(x)
    return compute


def _doc(summary: str, name: str, example: str) -> str:
    return f"""{summary}

    Args:
        input (Tensor): the input tensor.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.special.{name}(torch.tensor([0.0, 0.5, 2.0]))
        {example}
    """


# ----------------------------------------------------------------------------------
# Bessel functions of the first and second kind
# ----------------------------------------------------------------------------------
# Note [torch's Bessel functions J and Y]
#     torch evaluates J0, J1, Y0 and Y1 with Cephes' rational approximations (below 5)
#     and asymptotic forms (above), but sums each table of coefficients as it is, where
#     Cephes' denominators carry a leading coefficient of 1 that their tables leave out.
#     So torch's values differ from SciPy's (Cephes') by up to ~1e-6 relatively for
#     |x| below about 6, and Ai's in [-2.6, -2.09]. The kernels here take Cephes'
#     published coefficients and sum them as torch does, in the compute dtype, for
#     torch's values.
_J0_NUMERATOR = (-4.79443220978201773821e+09, 1.95617491946556577543e+12,
                 -2.49248344360967716204e+14, 9.70862251047306323952e+15)
_J0_DENOMINATOR = (4.99563147152651017219e+02, 1.73785401676374683123e+05,
                   4.84409658339962045305e+07, 1.11855537045356834862e+10,
                   2.11277520115489217587e+12, 3.10518229857422583814e+14,
                   3.18121955943204943306e+16, 1.71086294081043136091e+18)
_J0_ZEROS_SQUARED = (5.78318596294678452118e+00, 3.04712623436620863991e+01)
_J1_NUMERATOR = (-8.99971225705559398224e+08, 4.52228297998194034323e+11,
                 -7.27494245221818276015e+13, 3.68295732863852883286e+15)
_J1_DENOMINATOR = (6.20836478118054335476e+02, 2.56987256757748830383e+05,
                   8.35146791431949253037e+07, 2.21511595479792499675e+10,
                   4.74914122079991414898e+12, 7.84369607876235854894e+14,
                   8.95222336184627338078e+16, 5.32278620332680085395e+18)
_J1_ZEROS_SQUARED = (1.46819706421238932572e+01, 4.92184563216946036703e+01)
_Y0_NUMERATOR = (1.55924367855235737965e+04, -1.46639295903971606143e+07,
                 5.43526477051876500413e+09, -9.82136065717911466409e+11,
                 8.75906394395366999549e+13, -3.46628303384729719441e+15,
                 4.42733268572569800351e+16, -1.84950800436986690637e+16)
_Y0_DENOMINATOR = (1.04128353664259848412e+03, 6.26107330137134956842e+05,
                   2.68919633393814121987e+08, 8.64002487103935000337e+10,
                   2.02979612750105546709e+13, 3.17157752842975028269e+15,
                   2.50596256172653059228e+17)
_Y1_NUMERATOR = (1.26320474790178026440e+09, -6.47355876379160291031e+11,
                 1.14509511541823727583e+14, -8.12770255501325109621e+15,
                 2.02439475713594898196e+17, -7.78877196265950026825e+17)
_Y1_DENOMINATOR = (5.94301592346128195359e+02, 2.35564092943068577943e+05,
                   7.34811944459721705660e+07, 1.87601316108706159478e+10,
                   3.88231277496238566008e+12, 6.20557727146953693363e+14,
                   6.87141087355300489866e+16, 3.97270608116560655612e+18)
_TWO_OVER_PI = 0.636619772367581343075535053490057448
_SQRT_TWO_OVER_PI = 0.797884560802865355879892119868763737
# the asymptotic forms' tables: (P numerator, P denominator, Q numerator, Q denominator)
_J0_FAR = ((7.96936729297347051624e-04, 8.28352392107440799803e-02,
            1.23953371646414299388e+00, 5.44725003058768775090e+00,
            8.74716500199817011941e+00, 5.30324038235394892183e+00,
            9.99999999999999997821e-01),
           (9.24408810558863637013e-04, 8.56288474354474431428e-02,
            1.25352743901058953537e+00, 5.47097740330417105182e+00,
            8.76190883237069594232e+00, 5.30605288235394617618e+00,
            1.00000000000000000218e+00),
           (-1.13663838898469149931e-02, -1.28252718670509318512e+00,
            -1.95539544257735972385e+01, -9.32060152123768231369e+01,
            -1.77681167980488050595e+02, -1.47077505154951170175e+02,
            -5.14105326766599330220e+01, -6.05014350600728481186e+00),
           (6.43178256118178023184e+01, 8.56430025976980587198e+02,
            3.88240183605401609683e+03, 7.24046774195652478189e+03,
            5.93072701187316984827e+03, 2.06209331660327847417e+03,
            2.42005740240291393179e+02))
_J1_FAR = ((7.62125616208173112003e-04, 7.31397056940917570436e-02,
            1.12719608129684925192e+00, 5.11207951146807644818e+00,
            8.42404590141772420927e+00, 5.21451598682361504063e+00,
            1.00000000000000000254e+00),
           (5.71323128072548699714e-04, 6.88455908754495404082e-02,
            1.10514232634061696926e+00, 5.07386386128601488557e+00,
            8.39985554327604159757e+00, 5.20982848682361821619e+00,
            9.99999999999999997461e-01),
           (5.10862594750176621635e-02, 4.98213872951233449420e+00,
            7.58238284132545283818e+01, 3.66779609360150777800e+02,
            7.10856304998926107277e+02, 5.97489612400613639965e+02,
            2.11688757100572135698e+02, 2.52070205858023719784e+01),
           (7.42373277035675149943e+01, 1.05644886038262816351e+03,
            4.98641058337653607651e+03, 9.56231892404756170795e+03,
            7.99704160447350683650e+03, 2.82619278517639096600e+03,
            3.36093607810698293419e+02))


def _horner(z: np.ndarray, coefficients: tuple) -> np.ndarray:
    """The polynomial with `coefficients` (highest power first) at z, in z's dtype."""
    total = np.zeros_like(z)
    for coefficient in coefficients:
        total = total * z + z.dtype.type(coefficient)
    return total


def _far(x, tables, phase: float, second_kind: bool):
    """The asymptotic form for x > 5: ``sqrt(2 / (pi x))`` times ``P cos(t) - 5/x Q sin(t)``
    (first kind) or ``P sin(t) + 5/x Q cos(t)`` (second kind), ``t = x - phase``."""
    kind = x.dtype.type
    z = (kind(5) / x) * (kind(5) / x)
    p = _horner(z, tables[0]) / _horner(z, tables[1])
    q = _horner(z, tables[2]) / _horner(z, tables[3])
    t = x - kind(phase)
    if second_kind:
        value = p * np.sin(t) + kind(5) / x * q * np.cos(t)
    else:
        value = p * np.cos(t) - kind(5) / x * q * np.sin(t)
    return value * kind(_SQRT_TWO_OVER_PI) / np.sqrt(x)


def _bessel(x, near, tables, phase: float, second_kind: bool):
    """``near(x)`` where ``|x| <= 5``, the asymptotic form elsewhere (Note [torch's Bessel
    functions J and Y]); the first kind is even (J0) or odd (J1) in x."""
    with np.errstate(all="ignore"):
        size = x if second_kind else np.abs(x)
        value = np.where(size <= 5, near(x), _far(size, tables, phase, second_kind))
    return value


def _j0_near(x):
    z = x * x
    low, high = (z.dtype.type(c) for c in _J0_ZEROS_SQUARED)
    value = (z - low) * (z - high) * _horner(z, _J0_NUMERATOR) / _horner(z, _J0_DENOMINATOR)
    return np.where(np.abs(x) < 1e-5, 1 - z / 4, value)


def _j1_near(x):
    z = x * x
    low, high = (z.dtype.type(c) for c in _J1_ZEROS_SQUARED)
    ratio = _horner(z, _J1_NUMERATOR) / _horner(z, _J1_DENOMINATOR)
    return ratio * x * (z - low) * (z - high)


def _y0_near(x):
    z = x * x
    ratio = _horner(z, _Y0_NUMERATOR) / _horner(z, _Y0_DENOMINATOR)
    value = ratio + x.dtype.type(_TWO_OVER_PI) * np.log(x) * _j0_near(x)
    return np.where(x == 0, -np.inf, value)


def _y1_near(x):
    z = x * x
    ratio = _horner(z, _Y1_NUMERATOR) / _horner(z, _Y1_DENOMINATOR)
    value = x * ratio + x.dtype.type(_TWO_OVER_PI) * (_j1_near(x) * np.log(x) - 1 / x)
    return np.where(x == 0, -np.inf, value)


_QUARTER_PI, _THREE_QUARTERS_PI = np.pi / 4, 3 * np.pi / 4


def _j1(x):
    """J1 is odd: its asymptotic form is taken at |x|, and negated for negative x."""
    value = _bessel(x, _j1_near, _J1_FAR, _THREE_QUARTERS_PI, False)
    return np.where((x < 0) & (np.abs(x) > 5), -value, value)


special_bessel_j0 = special_function(
    "bessel_j0", lambda x: _bessel(x, _j0_near, _J0_FAR, _QUARTER_PI, False), _doc(
        "The Bessel function of the first kind of order 0, elementwise.", "bessel_j0",
        "tensor([1.0000, 0.9385, 0.2239])"))
special_bessel_j1 = special_function(
    "bessel_j1", _j1, _doc(
        "The Bessel function of the first kind of order 1, elementwise.", "bessel_j1",
        "tensor([0.0000, 0.2423, 0.5767])"))
special_bessel_y0 = special_function(
    "bessel_y0", lambda x: _bessel(x, _y0_near, _J0_FAR, _QUARTER_PI, True), _doc(
        "The Bessel function of the second kind of order 0 (``-inf`` at 0, NaN below).",
        "bessel_y0", "tensor([   -inf, -0.4445,  0.5104])"))
special_bessel_y1 = special_function(
    "bessel_y1", lambda x: _bessel(x, _y1_near, _J1_FAR, _THREE_QUARTERS_PI, True), _doc(
        "The Bessel function of the second kind of order 1 (``-inf`` at 0, NaN below).",
        "bessel_y1", "tensor([   -inf, -1.4715, -0.1070])"))


# ----------------------------------------------------------------------------------
# Modified Bessel functions
# ----------------------------------------------------------------------------------
special_modified_bessel_i0 = special_function("modified_bessel_i0", _scipy("i0"), _doc(
    "The modified Bessel function of the first kind of order 0, elementwise.",
    "modified_bessel_i0", "tensor([1.0000, 1.0635, 2.2796])"))
special_modified_bessel_i1 = special_function("modified_bessel_i1", _scipy("i1"), _doc(
    "The modified Bessel function of the first kind of order 1, elementwise.",
    "modified_bessel_i1", "tensor([0.0000, 0.2579, 1.5906])"))
special_modified_bessel_k0 = special_function("modified_bessel_k0", _scipy("k0"), _doc(
    "The modified Bessel function of the second kind of order 0 (``inf`` at 0).",
    "modified_bessel_k0", "tensor([   inf, 0.9244, 0.1139])"))
special_modified_bessel_k1 = special_function("modified_bessel_k1", _scipy("k1"), _doc(
    "The modified Bessel function of the second kind of order 1 (``inf`` at 0).",
    "modified_bessel_k1", "tensor([   inf, 1.6564, 0.1399])"))
special_scaled_modified_bessel_k0 = special_function(
    "scaled_modified_bessel_k0", _scipy("k0e"), _doc(
        "``exp(x) * K0(x)``: the modified Bessel function K0 scaled so that it stays "
        "representable for large x.", "scaled_modified_bessel_k0",
        "tensor([   inf, 1.5241, 0.8416])"), argument="x")
special_scaled_modified_bessel_k1 = special_function(
    "scaled_modified_bessel_k1", _scipy("k1e"), _doc(
        "``exp(x) * K1(x)``: the modified Bessel function K1 scaled so that it stays "
        "representable for large x.", "scaled_modified_bessel_k1",
        "tensor([   inf, 2.7310, 1.0335])"), argument="x")


# ----------------------------------------------------------------------------------
# The spherical Bessel function j0 and the Airy function Ai
# ----------------------------------------------------------------------------------
def _spherical_j0(x: np.ndarray) -> np.ndarray:
    """``sin(x) / x``, 1 at 0 and 0 at ``±inf`` (torch's limits, not inf / inf)."""
    with np.errstate(all="ignore"):
        value = np.sin(x) / x
    value = np.where(x == 0, x.dtype.type(1), value)
    return np.where(np.isinf(x), x.dtype.type(0), value)


# Ai's asymptotic form below -2.09, as torch sums it (Note [torch's Bessel functions J and
# Y]: the denominators' leading 1 is left out): (f numerator, f denominator, g numerator,
# g denominator), Cephes' coefficients
_AIRY_NEGATIVE = ((-1.31696323418331795333e-01, -6.26456544431912369773e-01,
                   -6.93158036036933542233e-01, -2.79779981545119124951e-01,
                   -4.91900132609500318020e-02, -4.06265923594885404393e-03,
                   -1.59276496239262096340e-04, -2.77649108155232920844e-06,
                   -1.67787698489114633780e-08),
                  (1.33560420706553243746e+01, 3.26825032795224613948e+01,
                   2.67367040941499554804e+01, 9.18707402907259625840e+00,
                   1.47529146771666414581e+00, 1.15687173795188044134e-01,
                   4.40291641615211203805e-03, 7.54720348287414296618e-05,
                   4.51850092970580378464e-07),
                  (1.97339932091685679179e-02, 3.91103029615688277255e-01,
                   1.06579897599595591108e+00, 9.39169229816650230044e-01,
                   3.51465656105547619242e-01, 6.33888919628925490927e-02,
                   5.85804113048388458567e-03, 2.82851600836737019778e-04,
                   6.98793669997260967291e-06, 8.11789239554389293311e-08,
                   3.41551784765923618484e-10),
                  (9.30892908077441974853e+00, 1.98352928718312140417e+01,
                   1.55646628932864612953e+01, 5.47686069422975497931e+00,
                   9.54293611618961883998e-01, 8.64580826352392193095e-02,
                   4.12656523824222607191e-03, 1.01259085116509135510e-04,
                   1.17166733214413521882e-06, 4.91834570062930015649e-09))
_ONE_OVER_SQRT_PI = 5.64189583547756286948e-01


def _airy_negative(x: np.ndarray) -> np.ndarray:
    """Ai(x) for x < -2.09: ``(sin(t) (1 + z^2 f) - cos(t) z g) / (sqrt(pi) (-x)^(1/4))``,
    ``zeta = 2/3 (-x)^(3/2)``, ``z = 1 / zeta``, ``t = zeta + pi / 4``."""
    kind = x.dtype.type
    zeta = kind(-2) * x * np.sqrt(-x) / kind(3)
    z = kind(1) / zeta
    squared = z * z
    f = _horner(squared, _AIRY_NEGATIVE[0]) / _horner(squared, _AIRY_NEGATIVE[1])
    g = _horner(squared, _AIRY_NEGATIVE[2]) / _horner(squared, _AIRY_NEGATIVE[3])
    t = zeta + kind(0.25 * np.pi)
    return kind(_ONE_OVER_SQRT_PI) / np.sqrt(np.sqrt(-x)) * (
        np.sin(t) * (1 + squared * f) - np.cos(t) * (z * g))


def _airy_ai(x: np.ndarray) -> np.ndarray:
    """Ai(x): torch's asymptotic form below -2.09, SciPy's (Cephes') elsewhere; NaN at
    ``±inf`` and 0 above 103.892, as torch's kernel gives."""
    with np.errstate(all="ignore"):
        value = np.where(x < -2.09, _airy_negative(np.minimum(x, -2.09)),
                         scipy_special("special.airy_ai").airy(x)[0])
    value = np.where(x > 103.892, x.dtype.type(0), value)
    return np.where(np.isinf(x), x.dtype.type(np.nan), value)


special_spherical_bessel_j0 = special_function("spherical_bessel_j0", _spherical_j0, _doc(
    "The spherical Bessel function of the first kind of order 0, ``sin(x) / x``.",
    "spherical_bessel_j0", "tensor([1.0000, 0.9589, 0.4546])"), argument="x")
special_airy_ai = special_function("airy_ai", _airy_ai, _doc(
    "The Airy function Ai, a solution of ``y'' = x y`` decaying for large x.", "airy_ai",
    "tensor([0.3550, 0.2317, 0.0349])"), argument="x")


# ----------------------------------------------------------------------------------
# The exponentially scaled i0e, i1e and the plain i1 (differentiable)
# ----------------------------------------------------------------------------------
@derivative_helper
def i1_backward(grad, self, result, scaled: bool):
    """The gradient of i1 (``i0(x) - i1(x) / x``) or of i1e (``i0e(x) - i1e(x) (sgn(x) +
    1 / x)``). Both tend to 1/2 at 0, where the formula divides by zero: inputs no larger
    than the dtype's epsilon take that limit, as torch's do."""
    eps = finfo(self.dtype).eps
    not_tiny = self.abs() > eps
    safe = self.where(not_tiny, eps)
    if scaled:
        slope = special_i0e.call(safe) - result * (safe.sgn() + safe.reciprocal())
    else:
        slope = safe.i0() - result * safe.reciprocal()
    return grad * slope.where(not_tiny, 0.5)


special_i1e = special_function("i1e", _scipy("i1e"), _doc(
    "``exp(-abs(x)) * I1(x)``: the modified Bessel function I1 scaled so that it stays "
    "representable for large x.", "i1e", "tensor([0.0000, 0.1564, 0.2153])"),
    reduced=True, grad={"self": "i1_backward(grad, self, result, True)"})
special_i1 = special_function("i1", _scipy("i1"), _doc(
    "The modified Bessel function of the first kind of order 1 (as "
    "`torch.special.modified_bessel_i1`, differentiable).", "i1",
    "tensor([0.0000, 0.2579, 1.5906])"),
    reduced=True, grad={"self": "i1_backward(grad, self, result, False)"})
special_i0e = special_function("i0e", _scipy("i0e"), _doc(
    "``exp(-abs(x)) * I0(x)``: the modified Bessel function I0 scaled so that it stays "
    "representable for large x.", "i0e", "tensor([1.0000, 0.6450, 0.3085])"),
    reduced=True, grad={"self": "grad * (special_i1e(self) - self.sgn() * result)"})
