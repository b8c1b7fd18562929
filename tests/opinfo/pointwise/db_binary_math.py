"""OpInfo entries for the binary math functions (`aten/native/pointwise/minmax.py`,
`binary_math.py`): maximum, minimum, fmax, fmin, atan2, hypot, logaddexp, logaddexp2,
xlogy, copysign, heaviside, gcd, lcm."""
import numpy as np

import glasstorch as gt

from ..core import (BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, SampleInput, make_tensor,
                   tensor_pairs)
from .db_binary import (META_REFS, WRITING_MARKS, _broadcast_error, _mixed, _special, entry,
                        ref_binary)

REAL = BOOL + INTEGRAL + FLOATING
INEXACT = FLOATING + COMPLEX


# ----- references --------------------------------------------------------------------
def _logaddexp(x, y, exp=np.exp):
    if x.dtype.kind == "c":                 # torch's form: the imaginary part is not wrapped
        x, y = np.broadcast_arrays(x, y)
        low, high = np.where(x.real < y.real, x, y), np.where(x.real < y.real, y, x)
        return np.log1p(np.exp(low - high)) + high
    return np.logaddexp(x, y) if exp is np.exp else np.logaddexp2(x, y)


def _xlogy(x, y):
    return np.where(np.isnan(y), y, np.where(x == 0, 0, x * np.log(y)))


def _heaviside(x, values):
    return np.where(x == 0, values, x > 0)


# ----- samples -----------------------------------------------------------------------
def sample_binary(numbers=(), positive=False):
    """Tensor pairs in every broadcast and layout, special values, mixed dtypes, and the
    numbers torch's Python binding accepts for this operator."""
    def samples(dtype):
        value_range = {"low": 0.1, "high": 5} if positive and dtype.is_floating_point else {}
        for a, b in tensor_pairs(dtype, **value_range):
            yield SampleInput(a, b)
        yield from _special(dtype)
        yield from _mixed(dtype)
        for value in numbers:
            yield SampleInput(make_tensor((3, 4), dtype), value)
    return samples


def sample_heaviside(dtype):
    """`values` must have `input`'s dtype; zeros in `input` pick them."""
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, b)
    zeros = gt.tensor([0, 1, 0, -2, 3]).to(dtype)
    yield SampleInput(zeros, make_tensor((5,), dtype, seed=2))
    yield SampleInput(zeros, make_tensor((), dtype, seed=2))
    if dtype.is_floating_point:
        yield SampleInput(gt.tensor([float("nan"), -0.0, 0.0, float("inf")]).to(dtype),
                          gt.tensor([0.5]).to(dtype))


def sample_gcd(dtype):
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, b)
    yield SampleInput(gt.tensor([12, -18, 0, 0, 7, -4], dtype=dtype) if dtype is not gt.uint8
                      else gt.tensor([12, 18, 0, 0, 7, 4], dtype=dtype),
                      gt.tensor([8, 12, 0, 5, 0, 6], dtype=dtype))


# ----- error inputs --------------------------------------------------------------------
def _refused(kernel, *dtypes, meta_differs=()):
    names = {gt.bool: "Bool", gt.int64: "Long", gt.uint8: "Byte", gt.float32: "Float",
             gt.float16: "Half", gt.complex64: "ComplexFloat"}

    def errors():
        for dtype in dtypes:
            x = make_tensor((3,), dtype)
            yield ErrorInput(SampleInput(x, x), NotImplementedError,
                             f"^\"{kernel}\" not implemented for '{names[dtype]}'$",
                             known_bug_on_meta=META_REFS if dtype in meta_differs else None)
        yield _broadcast_error()
    return errors


def _not_a_tensor(name, extra=()):
    def errors():
        yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), 2), TypeError,
                         rf"^{name}\(\): argument 'other' \(position 2\) must be Tensor, not int$")
        yield from extra()
    return errors


def errors_minmax(name):
    def complex_refused():
        c = make_tensor((3,), gt.complex64)
        yield ErrorInput(SampleInput(c, make_tensor((3,), gt.float32)), RuntimeError,
                         rf"^{name} not implemented for complex tensors\.$")
        yield _broadcast_error()
    return _not_a_tensor(name, complex_refused)


def errors_heaviside():
    f, i = make_tensor((3,), gt.float32), make_tensor((3,), gt.int64)
    different = r"^heaviside is not yet implemented for tensors with different dtypes\.$"
    yield ErrorInput(SampleInput(i, f), RuntimeError, different)
    yield ErrorInput(SampleInput(f, gt.tensor(1.0, dtype=gt.float64)), RuntimeError, different)
    c = make_tensor((3,), gt.complex64)
    yield ErrorInput(SampleInput(c, c), RuntimeError,
                     r"^heaviside is not yet implemented for complex tensors\.$")


# ----- the entries -------------------------------------------------------------------
def _entry(name, ref, samples, dtypes, errors, inplace=True, aten=None):
    return entry(aten or name, (name, f"Tensor.{name}"), ref, samples, dtypes=dtypes,
                 errors=errors, out=name, inplace=f"Tensor.{name}_" if inplace else None,
                 marks=WRITING_MARKS)


OPS = [
    _entry("maximum", ref_binary(np.maximum), sample_binary(), REAL, errors_minmax("maximum"),
           inplace=False),
    _entry("minimum", ref_binary(np.minimum), sample_binary(), REAL, errors_minmax("minimum"),
           inplace=False),
    _entry("fmax", ref_binary(np.fmax), sample_binary(), REAL, errors_minmax("fmax"),
           inplace=False),
    _entry("fmin", ref_binary(np.fmin), sample_binary(), REAL, errors_minmax("fmin"),
           inplace=False),
    _entry("atan2", ref_binary(np.arctan2, to_float=True), sample_binary(), REAL,
           _not_a_tensor("atan2", _refused("atan2_cpu", gt.complex64))),
    _entry("arctan2", ref_binary(np.arctan2, to_float=True), sample_binary(), REAL,
           _refused("atan2_cpu", gt.complex64)),
    _entry("hypot", ref_binary(np.hypot), sample_binary(), FLOATING,
           _refused("hypot_cpu", gt.bool, gt.int64, gt.complex64)),
    _entry("logaddexp", ref_binary(_logaddexp), sample_binary(), INEXACT,
           _refused("logaddexp_cpu", gt.bool, gt.int64, meta_differs=(gt.bool,)),
           inplace=False),
    _entry("logaddexp2", ref_binary(lambda x, y: _logaddexp(x, y, np.exp2)), sample_binary(),
           FLOATING,
           _refused("logaddexp2_cpu", gt.uint8, gt.complex64, meta_differs=(gt.complex64,)),
           inplace=False),
    _entry("xlogy", ref_binary(_xlogy, to_float=True), sample_binary((2, 0, 2.5), True), REAL,
           _refused("xlogy_cpu", gt.complex64), aten="xlogy.Tensor"),
    _entry("copysign", ref_binary(np.copysign, to_float=True),
           sample_binary((-1, 0.0, -0.0, 2)), REAL, _refused("copysign_cpu", gt.complex64),
           aten="copysign.Tensor"),
    _entry("heaviside", ref_binary(_heaviside), sample_heaviside, REAL, errors_heaviside),
    _entry("gcd", ref_binary(np.gcd), sample_gcd, INTEGRAL,
           _refused("gcd_cpu", gt.bool, gt.float32, gt.float16)),
    _entry("lcm", ref_binary(np.lcm), sample_gcd, INTEGRAL,
           _refused("lcm_cpu", gt.bool, meta_differs=(gt.bool,))),
]
