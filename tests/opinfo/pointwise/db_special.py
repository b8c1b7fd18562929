"""OpInfo entries for the special functions (`aten/native/pointwise/special.py`); the helpers
here are shared with `db_clamp.py`.

References are SciPy's (`scipy.special`) and NumPy's, adjusted where torch's convention
at a special point differs from SciPy's (each adjustment names it). Without SciPy these
entries are skipped (`scipy` is optional for glasstorch).
"""
import math

import numpy as np
import pytest

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import (BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput,
                   make_tensor, tensor_pairs, tensors)
from .db_unary import no_kernel

try:
    from scipy import special as sc
except ImportError:                       # the entries below skip themselves
    sc = None

REAL = BOOL + INTEGRAL + FLOATING
NOT_BOOL_REAL = INTEGRAL + FLOATING


class _EveryTest(dict):
    """Marks for an entry: the same mark for every test."""

    def __init__(self, mark) -> None:
        super().__init__()
        self.mark = mark

    def get(self, test_name, default=None):
        return self.mark


def marks(scipy: bool = False, **extra) -> dict:
    """An entry's marks: every test skipped for a SciPy-backed kernel without SciPy."""
    if scipy and sc is None:
        return _EveryTest(pytest.mark.skip(reason="SciPy is not installed"))
    return dict(extra)


# Error inputs whose meta-tensor outcome differs: on meta, torch runs its Python
# reference (torch._refs), with other checks and messages than its CPU kernels.
_META_REF = "clamp/special: on meta, torch runs its Python reference (torch._refs): "
META_CAST = _META_REF + "'Attempting to cast from torch.float32 to out tensor ...' wording"
EXTREMES = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 0.5, -0.5, 1.0, -1.0, -2.0,
            -3.0, 2.5, -2.5, 1e-30, 30.0, 3e38]


# ----- references --------------------------------------------------------------------
def quiet(ref):
    """A reference computing silently (NaN comparisons, casts overflowing to inf)."""
    def run(*args, **kwargs):
        with np.errstate(all="ignore"):
            return ref(*args, **kwargs)
    return run


def _float_ref(function):
    """`function` in torch's compute dtype: float32 for integers, bool, float16 and
    bfloat16 (the result then rounded to the input's own floating dtype)."""
    def ref(a, *args, **kwargs):
        a = np.asarray(a)
        floating = a.dtype.kind in "fc" or a.dtype.kind == "V"
        result = np.dtype(np.float32) if not floating else a.dtype
        compute = a.dtype if a.dtype in (np.float64, np.complex64, np.complex128) \
            else np.dtype(np.float32)
        with np.errstate(all="ignore"):
            value = np.asarray(function(a.astype(compute), *args, **kwargs))
            return value.astype(result)
    return ref


def _erfinv(x):
    return np.copysign(sc.erfinv(x.astype(np.float64)), x)      # torch keeps -0.0


def _lgamma(x):
    return np.where(np.isneginf(x), np.inf, sc.gammaln(x))       # C's lgamma(-inf) = inf


def _i0(x):
    return np.where(np.isinf(x), np.nan, sc.i0(x))               # torch: inf / inf


@quiet
def _polygamma(n, x):
    x = np.asarray(x)
    floating = x.dtype.kind == "f" or x.dtype.kind == "V"
    result = x.dtype if floating else np.dtype(np.float32)
    with np.errstate(all="ignore"):
        value = sc.polygamma(n, x.astype(np.float64))
        if n >= 2:                                                # torch's zeta: nan at inf
            value = np.where(np.isposinf(x), np.nan, value)
    return value.astype(result)


@quiet
def _mvlgamma(x, p):
    x = np.asarray(x)
    result = x.dtype if x.dtype.kind in "fV" else np.dtype(np.float32)
    total = sum(sc.gammaln(x.astype(np.float64) - j / 2) for j in range(p))
    return (total + p * (p - 1) / 4 * math.log(math.pi)).astype(result)


@quiet
def _logit(x, eps=None):
    """torch rounds the ratio x / (1 - x) to the input's own dtype (float16 too)."""
    x = np.asarray(x)
    dtype = x.dtype if x.dtype.kind in "fV" else np.dtype(np.float32)
    x = x.astype(dtype)
    if eps is not None and eps >= 0:
        low, high = dtype.type(eps), dtype.type(1 - eps)
        x = np.where(x < low, low, np.where(x > high, high, x))
    with np.errstate(all="ignore"):
        ratio = x / (dtype.type(1) - x)
        return np.log(ratio.astype(np.promote_types(dtype, np.float32))).astype(dtype)


def _entr(x):
    value = np.where(x == 0, 0, -x * np.log(x))             # not 0 * -inf
    return np.where(x < 0, -np.inf, value)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


# ----- samples -----------------------------------------------------------------------
def _values(values, dtype):
    with np.errstate(all="ignore"):
        return gt.from_numpy(np.array(values).astype(numpy_dtype(dtype)))


def sample_special(dtype, extremes=EXTREMES, low=None, high=None):
    """Standard shapes and layouts, then the extremes (nan, ±inf, ±0, poles)."""
    for x in tensors(dtype, low=low, high=high):
        yield SampleInput(x)
    if dtype.is_floating_point:
        yield SampleInput(_values(extremes, dtype))
    else:
        yield SampleInput(make_tensor((5,), dtype, "strided", low=low, high=high))


def sample_probabilities(dtype):
    inexact = dtype.is_floating_point
    for sample in sample_special(dtype, low=0.01 if inexact else None,
                                 high=0.99 if inexact else None):
        yield sample
        if dtype.is_floating_point:
            yield SampleInput(sample.input, eps=0.05)
    yield SampleInput(make_tensor((6,), dtype, "transposed"), eps=-1.0)
    if dtype.is_floating_point:
        yield SampleInput(_values([0.0, 1.0, 0.5, 0.2, float("nan")], dtype), eps=0.7)


def sample_erfinv(dtype):
    inside = [-1.0, 1.0, -0.999, 0.999, -0.0, 0.0, 1.5, float("nan")]
    yield from sample_special(dtype, inside, low=-1, high=1)


# trigamma at its poles is torch's own large finite number (checked in test_special.py)
_TRIGAMMA_SAFE = [float("nan"), float("inf"), 0.5, -0.5, 1.0, 2.5, -2.5, 1e-30, 30.0]


def sample_polygamma(dtype):
    """Orders 0 to 3; order 1 away from its poles (integers from 1 up, no bool)."""
    for n in (0, 1, 2, 3):
        if n == 1 and dtype is gt.bool:
            continue
        extremes, low = (_TRIGAMMA_SAFE, 0.1 if dtype.is_floating_point else 1) if n == 1 \
            else (EXTREMES, None)
        for sample in sample_special(dtype, extremes, low=low):
            yield SampleInput(n, sample.input)


def _writable(samples):
    """In-place ops refuse selves whose elements share memory (expanded layouts)."""
    for sample in samples:
        if 0 not in sample.input.stride() or sample.input.numel() <= 1:
            yield sample


def sample_polygamma_(dtype):
    for sample in sample_polygamma(dtype):
        yield SampleInput(sample.args[1], sample.args[0])


def sample_mvlgamma(dtype):
    for p in (1, 3):
        for x in tensors(dtype, low=(p - 1) / 2 + 0.1, high=8):
            yield SampleInput(x, p)
    if dtype.is_floating_point:
        yield SampleInput(_values([float("nan"), float("inf"), 1.25, 20.0], dtype), 2)


def sample_unary(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)
    if dtype.is_floating_point or dtype.is_complex:
        yield SampleInput(_values(EXTREMES, dtype))


# ----- error inputs ------------------------------------------------------------------
def _x(dtype, shape=(3,)):
    return make_tensor(shape, dtype)


def errors_polygamma():
    yield ErrorInput(SampleInput(-1, _x(gt.float32)), RuntimeError,
                     r"^polygamma\(n, x\) does not support negative n\.$")
    for n, kernel in ((0, "digamma"), (1, "trigamma"), (2, "polygamma")):
        yield ErrorInput(SampleInput(n, _x(gt.complex64)), NotImplementedError,
                         rf"^\"{kernel}\" not implemented for 'ComplexFloat'$")


def errors_polygamma_():
    yield ErrorInput(SampleInput(_x(gt.float32), -2), RuntimeError,
                     r"^polygamma\(n, x\) does not support negative n\.$")
    yield ErrorInput(SampleInput(_x(gt.int64), 1), RuntimeError,
                     r"^result type Float can't be cast to the desired output type Long$",
                     known_bug_on_meta=META_CAST)


def errors_mvlgamma():
    yield ErrorInput(SampleInput(_x(gt.bool), 2), RuntimeError,
                     r"^The input tensor may not be a boolean tensor\.$")
    yield ErrorInput(SampleInput(_x(gt.float32), 0), RuntimeError,
                     r"^p has to be greater than or equal to 1$")
    yield ErrorInput(SampleInput(_x(gt.complex64), 1), NotImplementedError,
                     r"^\"arange_cpu\" not implemented for 'ComplexFloat'$")
    yield ErrorInput(SampleInput(_x(gt.float32), 1, out=gt.empty(3, dtype=gt.int64)),
                     RuntimeError, r"^mvlgamma: result type Float can't be cast to the "
                                   r"desired output type Float$", known_bug_on_meta=META_CAST)


def errors_entr():
    yield from no_kernel("entr_cpu", COMPLEX[:1])()
    yield ErrorInput(SampleInput(2.0), TypeError, r"^special_entr\(\): argument 'input' "
                                                  r"\(position 1\) must be Tensor, not float$")


# ----- the entries -------------------------------------------------------------------
def special(name: str, ref, kernel: str, samples=sample_special, **extra_marks):
    """A SciPy-referenced real unary entry (function, method, in-place, out=), whose
    CPU kernel `kernel` refuses complex inputs."""
    return OpInfo(name, variants=(name, f"Tensor.{name}"), ref=ref, dtypes=REAL,
                  sample_inputs=samples, error_inputs=no_kernel(kernel, COMPLEX[:1]),
                  out=name, inplace=f"Tensor.{name}_", marks=marks(True, **extra_marks))


def _out_differs(reason: str) -> dict:
    """A strict xfail of test_out_matches_torch (owner: special.py / clamp.py)."""
    return {"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=reason)}


# Seen only through out= of a wider dtype, where float64 tolerances apply to a result
# torch computes in float32 (or bfloat16) arithmetic of its own.
I0_FLOAT32 = _out_differs("special: torch's float32 i0 runs Cephes' series in float32; "
                          "glasstorch's SciPy i0 is correctly rounded (1-2 ulp apart)")
POLYGAMMA_NARROW = _out_differs("special: torch evaluates bfloat16/float16 polygamma's zeta "
                                "in float32; glasstorch in float64 (ulps of bfloat16 apart)")
MVLGAMMA_NARROW = _out_differs("special: torch's bfloat16 mvlgamma rounds its partial sums "
                               "in an order glasstorch does not reproduce (1 bf16 ulp)")
IGAMMA_FLOAT32 = _out_differs("special: torch's float32 igamma / igammac run their series in "
                              "float32; glasstorch's SciPy ones run in float64 and round "
                              "once (a few float32 ulp apart, seen through a float64 out=)")
IGAMMA_META = ("special: on meta torch runs its Python reference, which promotes integers "
               "to float where the CPU kernel refuses them")


@quiet
def _igamma_ref(lower):
    """SciPy's regularized incomplete gamma in float64, rounded to the result dtype (the
    samples keep away from the special points, which test_special.py checks vs torch)."""
    def ref(a, x):
        result = np.result_type(a, x)
        function = sc.gammainc if lower else sc.gammaincc
        return function(a.astype(np.float64), x.astype(np.float64)).astype(result)
    return ref


def sample_incomplete_gamma(dtype):
    """Positive pairs in every broadcast and layout, and a float32 pair (promotion)."""
    for a, x in tensor_pairs(dtype, low=0.1, high=6):
        yield SampleInput(a, x)
    yield SampleInput(make_tensor((4,), dtype, low=0.5, high=3),
                      make_tensor((4,), gt.float32, low=0.5, high=3))


def errors_incomplete_gamma(name):
    def errors():
        for dtype, label in ((gt.int64, "Long"), (gt.bool, "Bool"), (gt.complex64, "ComplexFloat")):
            x = make_tensor((3,), dtype)
            yield ErrorInput(SampleInput(x, x), NotImplementedError,
                             f"^\"{name}_cpu\" not implemented for '{label}'$",
                             known_bug_on_meta=None if dtype.is_complex else IGAMMA_META)
        yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), 2), TypeError,
                         rf"^{name}\(\): argument 'other' \(position 2\) must be Tensor, not int$")
    return errors


def incomplete_gamma(name, lower):
    return OpInfo(name, variants=(name, f"Tensor.{name}"), ref=_igamma_ref(lower),
                  dtypes=FLOATING, sample_inputs=sample_incomplete_gamma,
                  error_inputs=errors_incomplete_gamma(name), out=name,
                  inplace=f"Tensor.{name}_", marks=marks(True, **IGAMMA_FLOAT32))


OPS = [
    OpInfo("sigmoid", variants=("sigmoid", "Tensor.sigmoid"), ref=_float_ref(_sigmoid),
           dtypes=REAL + COMPLEX, sample_inputs=sample_unary, out="sigmoid",
           inplace="Tensor.sigmoid_", marks=marks(scipy=True)),
    OpInfo("logit", variants=("logit", "Tensor.logit"), ref=_logit, dtypes=REAL,
           sample_inputs=sample_probabilities, error_inputs=no_kernel("logit_cpu", COMPLEX[:1]),
           out="logit", inplace="Tensor.logit_", marks=marks()),
    special("erf", _float_ref(lambda x: sc.erf(x)), kernel="erf_vml_cpu"),
    special("erfc", _float_ref(lambda x: sc.erfc(x)), kernel="erfc_vml_cpu"),
    special("erfinv", _float_ref(_erfinv), samples=sample_erfinv, kernel="erfinv_vml_cpu"),
    special("lgamma", _float_ref(_lgamma), kernel="lgamma_vml_cpu"),
    special("digamma", _float_ref(lambda x: sc.psi(x)), kernel="digamma"),
    special("i0", _float_ref(_i0), kernel="i0_vml_cpu", **I0_FLOAT32),
    OpInfo("polygamma", variants=("polygamma",), ref=_polygamma, dtypes=REAL,
           sample_inputs=sample_polygamma, error_inputs=errors_polygamma, out="polygamma",
           marks=marks(True, **POLYGAMMA_NARROW)),
    OpInfo("polygamma_", variants=("Tensor.polygamma_",), ref=lambda x, n: _polygamma(n, x),
           dtypes=FLOATING, sample_inputs=lambda d: _writable(sample_polygamma_(d)),
           error_inputs=errors_polygamma_, mutates_input=True, marks=marks(scipy=True)),
    OpInfo("mvlgamma", variants=("mvlgamma", "Tensor.mvlgamma"), ref=_mvlgamma,
           dtypes=NOT_BOOL_REAL, sample_inputs=sample_mvlgamma, error_inputs=errors_mvlgamma,
           out="mvlgamma", inplace="Tensor.mvlgamma_", marks=marks(True, **MVLGAMMA_NARROW)),
    incomplete_gamma("igamma", lower=True),
    incomplete_gamma("igammac", lower=False),
    OpInfo("special_entr", variants=("special.entr",), ref=_float_ref(_entr), dtypes=REAL,
           sample_inputs=sample_special, error_inputs=errors_entr, out="special.entr",
           marks=marks()),
]
