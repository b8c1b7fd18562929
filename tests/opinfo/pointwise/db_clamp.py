"""OpInfo entries for the clamp family and the floating-point representation
(`aten/native/pointwise/clamp.py`): clamp/clip, clamp_min/clamp_max, relu, nan_to_num, nextafter,
frexp, ldexp. NumPy references following torch's conventions (named at each)."""
import ml_dtypes
import numpy as np
import pytest

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import (BOOL, COMPLEX, FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor,
                   tensors)
from .db_special import (_META_REF, EXTREMES, META_CAST, NOT_BOOL_REAL, REAL, _out_differs,
                         _values, _x, marks, quiet, sample_unary)
from .db_unary import EMPTY_LIKE, TORCH_NAMES, known_where

META_BOTH_NONE = _META_REF + "ValueError 'clamp called but both min and max are none!'"
META_COMPLEX_BOUND = _META_REF + "a complex bound promotes the result to complex, unrefused"
META_NO_OUT_CHECK = _META_REF + "out='s dtype is not checked"
META_BROADCAST = _META_REF + "'Attempting to broadcast a dimension ...' wording"


# ----- references --------------------------------------------------------------------
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


# ----- samples ----------------------------------------------------------------
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


# ----- error inputs -----------------------------------------------------------
_BOTH_NONE = r"^torch\.clamp: At least one of 'min' or 'max' must not be None$"


_NOT_COMPLEX = r"^clamp is not supported for complex types$"


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
                     r"^Boolean inputs not supported for relu$")
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


# ----- the entries ------------------------------------------------------------
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


NEXTAFTER_TEMPORARY = _out_differs(
    "clamp (structured op): torch's binary TensorIterator resizes an out= of another dtype "
    "through a temporary and warns twice; registry's structured out= warns once")


LDEXP_OUT = _out_differs("clamp: torch's ldexp fails an internal assertion for an out= of "
                         "another floating dtype (a torch bug); glasstorch casts")


OPS = [
    *clamps("clamp"),
    *clamps("clip"),
    *clamp_one("clamp_min", "min", "maximum"),
    *clamp_one("clamp_max", "max", "minimum"),
    OpInfo("relu", variants=("relu", "Tensor.relu"), ref=_RELU, dtypes=NOT_BOOL_REAL,
           sample_inputs=sample_unary, error_inputs=errors_relu, inplace="Tensor.relu_"),
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
