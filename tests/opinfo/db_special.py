"""OpInfo entries for the special functions (`aten/native/special.py`) and the clamp and
floating-point-representation family (`aten/native/clamp.py`).

References are SciPy's (`scipy.special`) and NumPy's, adjusted where torch's convention
at a special point differs from SciPy's (each adjustment names it). Without SciPy the
special-function entries are skipped (`scipy` is optional for glasstorch).
"""
import math

import ml_dtypes
import numpy as np
import pytest

import glasstorch as gt

from .convert import numpy_dtype
from .core import (BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput,
                   make_tensor, tensors)
from .db_unary import EMPTY_LIKE, TORCH_NAMES, known_where, no_kernel

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
META_BOTH_NONE = _META_REF + "ValueError 'clamp called but both min and max are none!'"
META_COMPLEX_BOUND = _META_REF + "a complex bound promotes the result to complex, unrefused"
META_NO_OUT_CHECK = _META_REF + "out='s dtype is not checked"
META_CAST = _META_REF + "'Attempting to cast from torch.float32 to out tensor ...' wording"
META_BROADCAST = _META_REF + "'Attempting to broadcast a dimension ...' wording"
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


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


@quiet
def _clamped(x, low, high, dtype):
    """torch's clamp: keep x unless strictly beyond a bound; NaN bound gives NaN."""
    out = np.array(np.broadcast_to(x, np.broadcast_shapes(
        np.shape(x), np.shape(low) if low is not None else (),
        np.shape(high) if high is not None else ())), dtype=dtype)
    for bound, beyond in ((low, np.less), (high, np.greater)):
        if bound is not None:
            bound = np.asarray(bound).astype(dtype)
            mask = beyond(out, bound)
            if dtype.kind not in "biu":
                mask = mask | np.isnan(bound)
            out = np.where(mask, bound, out)
    return out


def _number_bounds_dtype(x: np.ndarray, *bounds) -> np.dtype:
    """clamp with number bounds: a float bound makes integers float32, an int bound
    makes bool int64; floating tensors keep their dtype."""
    if x.dtype.kind in "fV":
        return x.dtype
    if any(isinstance(b, float) for b in bounds):
        return np.dtype(np.float32)
    if x.dtype.kind == "b" and any(type(b) is int for b in bounds):
        return np.dtype(np.int64)
    return x.dtype


def _clamp_numbers(x, min=None, max=None):
    dtype = _number_bounds_dtype(x, min, max)
    low = None if min is None else np.asarray(min).astype(dtype)
    high = None if max is None else np.asarray(max).astype(dtype)
    return _clamped(x, low, high, dtype)


def _clamp_tensors(x, min=None, max=None):
    """Samples give bounds of x's dtype (mixed promotion is in tests/test_special.py)."""
    return _clamped(x, min, max, x.dtype)


def _nan_to_num(x, nan=None, posinf=None, neginf=None):
    if x.dtype.kind in "biu":
        return x.copy()
    if x.dtype.kind == "c":
        return _nan_to_num(x.real, nan, posinf, neginf) + \
            1j * _nan_to_num(x.imag, nan, posinf, neginf)
    info = ml_dtypes.finfo(x.dtype)
    wide = x.astype(np.float64)
    wide = np.where(np.isnan(wide), 0.0 if nan is None else nan, wide)
    wide = np.where(np.isposinf(wide), float(info.max) if posinf is None else posinf, wide)
    wide = np.where(np.isneginf(wide), float(info.min) if neginf is None else neginf, wide)
    with np.errstate(over="ignore"):
        return wide.astype(x.dtype)


def _frexp(x):
    mantissa, exponent = np.frexp(x)
    return [mantissa, exponent.astype(np.int32)]


def _ldexp(x, e):
    """Exact scaling for a floating x and an integer e; otherwise torch first rounds
    2 ** e to the result dtype (so 2 ** 200 is inf in float32, and 0 * inf is NaN)."""
    dtype = np.dtype(numpy_dtype(gt.result_type(gt.from_numpy(x), gt.from_numpy(e))))
    if dtype.kind in "biu":
        dtype = np.dtype(np.float32)
    with np.errstate(all="ignore"):
        power = np.exp2(e.astype(np.float64))
        if not (x.dtype.kind in "fV" and e.dtype.kind in "iu"):
            power = power.astype(dtype).astype(np.complex128 if dtype.kind == "c" else
                                               np.float64)
        return (x.astype(np.complex128 if dtype.kind == "c" else np.float64) * power
                ).astype(dtype)


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


def sample_clamp(dtype):
    """Number bounds: both, min only, max only, crossed bounds, float bounds of integer
    tensors, NaN bounds."""
    for x in tensors(dtype):
        yield SampleInput(x, -2, 3)
    x = make_tensor((3, 4), dtype)
    yield SampleInput(x, min=0)
    yield SampleInput(x, max=1)
    yield SampleInput(x, 5, 1)
    if dtype is not gt.bool:
        yield SampleInput(x, -2.5, 3.5)
    if dtype.is_floating_point:
        yield SampleInput(_values(EXTREMES, dtype), -1.5, 2.0)
        yield SampleInput(_values(EXTREMES, dtype), float("nan"), 2.0)
        yield SampleInput(_values([-0.0, 0.0, 1.0], dtype), 0.0, -0.0)


def sample_clamp_bool(dtype):
    """Bool tensors take integer bounds (result int64)."""
    yield SampleInput(make_tensor((3, 4), dtype), 0, 1)


def _bound(shape, dtype, seed_shift=0, layout="contiguous"):
    return make_tensor(shape, dtype, layout, low=-3 - seed_shift, high=4 + seed_shift)


def sample_clamp_tensor(dtype):
    """Tensor bounds of the input's dtype: both, min only, max only, broadcast, 0-dim."""
    for x in tensors(dtype):
        yield SampleInput(x, _bound(x.shape, dtype, 1), _bound(x.shape, dtype, 2))
    x = make_tensor((3, 4), dtype, "transposed")
    yield SampleInput(x, _bound((4,), dtype))
    yield SampleInput(x, None, _bound((3, 1), dtype))
    yield SampleInput(x, _bound((), dtype), _bound((), dtype, 1))
    if dtype.is_floating_point:
        special = _values(EXTREMES, dtype)
        yield SampleInput(special, _values(EXTREMES[::-1], dtype), None)
        yield SampleInput(special, None, _values(EXTREMES[3:] + EXTREMES[:3], dtype))


def sample_clamp_one(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, 1)
    yield SampleInput(make_tensor((3, 4), dtype), 2.5)
    if dtype.is_floating_point:
        yield SampleInput(_values(EXTREMES, dtype), 0.0)
        yield SampleInput(_values(EXTREMES, dtype), float("nan"))


def sample_clamp_one_tensor(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, _bound(x.shape, dtype))
    yield SampleInput(make_tensor((3, 4), dtype, "transposed"), _bound((), dtype))
    if dtype.is_floating_point:
        yield SampleInput(_values(EXTREMES, dtype), _values(EXTREMES[::-1], dtype))


def sample_unary(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)
    if dtype.is_floating_point or dtype.is_complex:
        yield SampleInput(_values(EXTREMES, dtype))


def sample_nan_to_num(dtype):
    yield from sample_unary(dtype)
    if dtype.is_floating_point or dtype.is_complex:
        values = _values(EXTREMES, dtype)
        yield SampleInput(values, nan=1.5, posinf=100.0, neginf=-7.0)
        yield SampleInput(values, posinf=2.0)


def sample_pair(dtype, low=None, high=None):
    """Same-shape pairs in every layout, a broadcast pair and extreme values."""
    for x in tensors(dtype):
        yield SampleInput(x, make_tensor(tuple(x.shape), dtype, low=low, high=high))
    yield SampleInput(make_tensor((3, 4), dtype, "transposed"), make_tensor((4,), dtype))
    yield SampleInput(make_tensor((2, 3), dtype), make_tensor((), dtype))


def sample_nextafter(dtype):
    yield from sample_pair(dtype)
    special = EXTREMES[:6] + [1.0, 65504.0]
    yield SampleInput(_values(special, dtype), _values(special[::-1], dtype))
    yield SampleInput(_values(special, dtype), _values(special, dtype))


def sample_ldexp(dtype):
    exponents = gt.tensor([[3, -1, 0, 10], [-20, 1, 2, 5], [0, 0, 7, -3]])
    for x in tensors(dtype, shapes=((3, 4), (2, 3, 4), ())):
        yield SampleInput(x, exponents[:, :] if x.shape == (3, 4) else
                          gt.tensor(2) if x.dim() == 0 else gt.tensor([1, -2, 3, 0]))
    if not dtype.is_complex:
        yield SampleInput(make_tensor((3, 4), dtype), make_tensor((3, 4), dtype, low=-4,
                                                                  high=4))
    if dtype.is_floating_point:
        yield SampleInput(_values(EXTREMES, dtype), gt.tensor(3))


def sample_frexp(dtype):
    yield from sample_unary(dtype)
    yield SampleInput(_values([1e-40, 6e-8, 65504.0, -5.5, 1e38], dtype))


# ----- error inputs ------------------------------------------------------------------
def _x(dtype, shape=(3,)):
    return make_tensor(shape, dtype)


_BOTH_NONE = r"^torch\.clamp: At least one of 'min' or 'max' must not be None$"
_NOT_COMPLEX = r"^clamp is not supported for complex types$"


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


def errors_clamp():
    yield ErrorInput(SampleInput(_x(gt.float32)), RuntimeError, _BOTH_NONE,
                     known_bug_on_meta=META_BOTH_NONE)
    yield ErrorInput(SampleInput(_x(gt.complex64), 0), NotImplementedError, _NOT_COMPLEX)
    yield ErrorInput(SampleInput(_x(gt.int64), 1j), NotImplementedError, _NOT_COMPLEX,
                     known_bug_on_meta=META_COMPLEX_BOUND)
    yield ErrorInput(SampleInput(_x(gt.bool), False, True), NotImplementedError,
                     r"^\"clamp_scalar_cpu\" not implemented for 'Bool'$")
    yield ErrorInput(SampleInput(_x(gt.float32), 1e300), RuntimeError,
                     r"^value cannot be converted to type float without overflow$")
    yield ErrorInput(SampleInput(_x(gt.float16), None, 70000), RuntimeError,
                     r"^value cannot be converted to type c10::Half without overflow$")
    yield ErrorInput(SampleInput(_x(gt.int8), 200), RuntimeError,
                     r"^value cannot be converted to type int8_t without overflow$")
    yield ErrorInput(SampleInput(_x(gt.float32), 1j), RuntimeError,
                     r"^value cannot be converted to type double without overflow$",
                     known_bug_on_meta=META_COMPLEX_BOUND)
    yield ErrorInput(SampleInput(_x(gt.float32), 0.5, out=gt.empty(3, dtype=gt.float64)),
                     RuntimeError, r"^Found dtype Double but expected Float$",
                     known_bug_on_meta=META_NO_OUT_CHECK)


def errors_clamp_tensor():
    yield ErrorInput(SampleInput(_x(gt.complex64), _x(gt.complex64)), NotImplementedError,
                     _NOT_COMPLEX)
    yield ErrorInput(SampleInput(_x(gt.bool), _x(gt.bool), _x(gt.bool)), NotImplementedError,
                     r"^\"clamp_cpu\" not implemented for 'Bool'$")
    yield ErrorInput(SampleInput(_x(gt.float32), _x(gt.complex64)), NotImplementedError,
                     r"^\"maximum_cpu\" not implemented for 'ComplexFloat'$")
    yield ErrorInput(SampleInput(_x(gt.float32), None, _x(gt.complex64)), NotImplementedError,
                     r"^\"minimum_cpu\" not implemented for 'ComplexFloat'$")
    yield ErrorInput(SampleInput(_x(gt.float32), _x(gt.float32, (4,))), RuntimeError,
                     r"^The size of tensor a \(3\) must match the size of tensor b \(4\) at "
                     r"non-singleton dimension 0$", known_bug_on_meta=META_BROADCAST)


def errors_clamp_one(kind: str):
    def errors():
        yield ErrorInput(SampleInput(_x(gt.complex64), 1.0), NotImplementedError, _NOT_COMPLEX)
        yield ErrorInput(SampleInput(_x(gt.float32), 1j), NotImplementedError, _NOT_COMPLEX,
                         known_bug_on_meta=META_COMPLEX_BOUND)
        yield ErrorInput(SampleInput(_x(gt.bool), True), NotImplementedError,
                         rf"^\"clamp_{kind}_scalar_cpu\" not implemented for 'Bool'$")
        yield ErrorInput(SampleInput(_x(gt.int8), -300), RuntimeError,
                         r"^value cannot be converted to type int8_t without overflow$")
    return errors


def errors_clamp_one_tensor(kernel: str):
    def errors():
        yield ErrorInput(SampleInput(_x(gt.complex64), _x(gt.complex64)), NotImplementedError,
                         rf"^\"{kernel}_cpu\" not implemented for 'ComplexFloat'$")
    return errors


def errors_relu():
    yield ErrorInput(SampleInput(_x(gt.bool)), RuntimeError,
                     r"^Boolean inputs not supported for relu$",
                     known_bug_on_meta="clamp: torch's meta relu accepts bool (its meta "
                                       "path skips the check) and keeps the bool dtype")
    yield ErrorInput(SampleInput(_x(gt.complex64)), NotImplementedError, _NOT_COMPLEX)


def errors_nan_to_num():
    yield ErrorInput(SampleInput(_x(gt.float32), out=gt.empty(3, dtype=gt.float64)),
                     RuntimeError,
                     r"^nan_to_num: dtype of out: Double should be same as input: Float$",
                     known_bug_on_meta=META_NO_OUT_CHECK)


def errors_nextafter():
    for dtype in (gt.int64, gt.bool, gt.complex64):
        yield ErrorInput(SampleInput(_x(dtype), _x(dtype)), NotImplementedError,
                         rf"^\"nextafter_cpu\" not implemented for '{TORCH_NAMES[dtype]}'$")


def errors_frexp():
    yield ErrorInput(SampleInput(_x(gt.int64)), RuntimeError,
                     r"^torch\.frexp\(\) only supports floating-point dtypes$")
    f = _x(gt.float32)
    yield ErrorInput(SampleInput(f, out=(gt.empty(3, dtype=gt.float64),
                                         gt.empty(3, dtype=gt.int32))), RuntimeError,
                     r"^torch\.frexp\(\) expects mantissa to have dtype float but got double$",
                     known_bug_on_meta=META_NO_OUT_CHECK)
    yield ErrorInput(SampleInput(f, out=(gt.empty(3), gt.empty(3, dtype=gt.int64))),
                     RuntimeError,
                     r"^torch\.frexp\(\) expects exponent to have int dtype but got long int$",
                     known_bug_on_meta=META_NO_OUT_CHECK)


def errors_ldexp():
    yield ErrorInput(SampleInput(_x(gt.float32), _x(gt.bool)), NotImplementedError,
                     r"^\"ldexp_cpu_exp\" not implemented for 'Bool'$")
    yield ErrorInput(SampleInput(_x(gt.float32), _x(gt.int64), out=gt.empty(3, dtype=gt.int64)),
                     RuntimeError, r"^ldexp can't be cast to the desired output type Long$",
                     known_bug_on_meta=META_CAST)
    yield ErrorInput(SampleInput(_x(gt.float32), _x(gt.int64, (2,))), RuntimeError,
                     r"^The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                     r"non-singleton dimension 0$", known_bug_on_meta=META_BROADCAST)


# ----- the entries -------------------------------------------------------------------
def special(name: str, ref, kernel: str, samples=sample_special, **extra_marks):
    """A SciPy-referenced real unary entry (function, method, in-place, out=), whose
    CPU kernel `kernel` refuses complex inputs."""
    return OpInfo(name, variants=(name, f"Tensor.{name}"), ref=ref, dtypes=REAL,
                  sample_inputs=samples, error_inputs=no_kernel(kernel, COMPLEX[:1]),
                  out=name, inplace=f"Tensor.{name}_", marks=marks(True, **extra_marks))


def clamps(name: str):
    """The entries of clamp / clip: number bounds (bool inputs apart), tensor bounds."""
    common = {"out": name, "inplace": f"Tensor.{name}_", "marks": marks()}
    return [
        OpInfo(name, variants=(name, f"Tensor.{name}"), ref=_clamp_numbers,
               dtypes=NOT_BOOL_REAL, sample_inputs=sample_clamp, error_inputs=errors_clamp,
               **common),
        OpInfo(name, variants=(name,), ref=_clamp_numbers, dtypes=BOOL,
               sample_inputs=sample_clamp_bool, **common),
        OpInfo(f"{name}.Tensor", variants=(name, f"Tensor.{name}"), ref=_clamp_tensors,
               dtypes=NOT_BOOL_REAL, sample_inputs=sample_clamp_tensor,
               error_inputs=errors_clamp_tensor, **common),
    ]


def clamp_one(name: str, kind: str, kernel: str):
    """clamp_min / clamp_max: a number bound, a tensor bound."""
    number_ref = {"min": lambda x, b: _clamp_numbers(x, b, None),
                  "max": lambda x, b: _clamp_numbers(x, None, b)}[kind]
    tensor_ref = {"min": lambda x, b: _clamped(x, b, None, x.dtype),
                  "max": lambda x, b: _clamped(x, None, b, x.dtype)}[kind]
    common = {"variants": (name, f"Tensor.{name}"), "out": name,
              "inplace": f"Tensor.{name}_", "marks": marks()}
    return [
        OpInfo(name, ref=number_ref, dtypes=NOT_BOOL_REAL, sample_inputs=sample_clamp_one,
               error_inputs=errors_clamp_one(kind), **common),
        OpInfo(f"{name}.Tensor", ref=tensor_ref, dtypes=REAL,
               sample_inputs=sample_clamp_one_tensor,
               error_inputs=errors_clamp_one_tensor(kernel), **common),
    ]


# The generic out= tests handle one result; frexp's two are checked in test_special.py.
ONE_RESULT_OUT = pytest.mark.skip(reason="out= of two results: tests/test_special.py")
RETURN_TYPES = pytest.mark.xfail(strict=True, reason=(
    "opinfo owner (test_differential._assert_same): tuples are compared by type identity, "
    "and glasstorch.return_types.frexp is not torch.return_types.frexp; values are checked "
    "in tests/test_special.py"))
_RELU = lambda x: _clamped(x, 0, None, x.dtype)          # noqa: E731


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
NEXTAFTER_TEMPORARY = _out_differs(
    "clamp (structured op): torch's binary TensorIterator resizes an out= of another dtype "
    "through a temporary and warns twice; registry's structured out= warns once")
LDEXP_OUT = _out_differs("clamp: torch's ldexp fails an internal assertion for an out= of "
                         "another floating dtype (a torch bug); glasstorch casts")

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
    *clamps("clamp"),
    *clamps("clip"),
    *clamp_one("clamp_min", "min", "maximum"),
    *clamp_one("clamp_max", "max", "minimum"),
    OpInfo("relu", variants=("relu", "Tensor.relu"), ref=_RELU, dtypes=NOT_BOOL_REAL,
           sample_inputs=sample_unary, error_inputs=errors_relu),
    # torch.relu_ exists too; glasstorch binds no torch.<name>_ functions yet (binding.py)
    OpInfo("relu_", variants=("Tensor.relu_",), ref=_RELU, dtypes=NOT_BOOL_REAL,
           sample_inputs=lambda d: _writable(sample_unary(d)), mutates_input=True),
    OpInfo("nan_to_num", variants=("nan_to_num", "Tensor.nan_to_num"), ref=_nan_to_num,
           sample_inputs=known_where(REAL + COMPLEX, EMPTY_LIKE, samples=sample_nan_to_num),
           error_inputs=errors_nan_to_num, out="nan_to_num", inplace="Tensor.nan_to_num_",
           marks=marks()),
    OpInfo("nextafter", variants=("nextafter", "Tensor.nextafter"),
           ref=lambda a, b: np.nextafter(a, b), dtypes=FLOATING, sample_inputs=sample_nextafter,
           error_inputs=errors_nextafter, out="nextafter", inplace="Tensor.nextafter_",
           marks=marks(**NEXTAFTER_TEMPORARY)),
    OpInfo("frexp.Tensor", variants=("frexp", "Tensor.frexp"), ref=_frexp, dtypes=FLOATING,
           sample_inputs=sample_frexp, error_inputs=errors_frexp, out="frexp",
           marks=marks(test_out=ONE_RESULT_OUT, test_out_matches_torch=ONE_RESULT_OUT,
                       test_matches_torch=RETURN_TYPES, test_variants_match_torch=RETURN_TYPES)),
    OpInfo("ldexp.Tensor", variants=("ldexp", "Tensor.ldexp"), ref=_ldexp,
           dtypes=REAL + COMPLEX, sample_inputs=sample_ldexp, error_inputs=errors_ldexp,
           out="ldexp", inplace="Tensor.ldexp_", marks=marks(**LDEXP_OUT)),
]
