"""OpInfo entries for the range factories of `aten/native/creation/ranges.py`.

The samples keep to ranges whose elements NumPy computes exactly as well (so the
references need no tolerance games); torch's exact bits for awkward steps are
checked by tests/test_factories.py.
"""
import numpy as np
import pytest

import glasstorch as gt

from ..core import COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, numpy_dtype

RANGE_DTYPES = INTEGRAL + FLOATING
SPACE_DTYPES = INTEGRAL + FLOATING + COMPLEX
_FACTORY = dict(is_factory=True, out_warns_on_resize=False)


def _inferred(*values):
    """arange's dtype without `dtype=`: int64 for integers, else the default dtype."""
    return gt.int64 if all(isinstance(v, int) for v in values) else gt.get_default_dtype()


# ----- arange ----------------------------------------------------------------------
def sample_arange_end(dtype):
    yield SampleInput(5, dtype=dtype)
    yield SampleInput(0, dtype=dtype)
    yield SampleInput(7)
    yield SampleInput(2.5)


def sample_arange_start(dtype):
    yield SampleInput(1, 6, dtype=dtype)
    yield SampleInput(3, 3, dtype=dtype)
    yield SampleInput(-2, 4)
    yield SampleInput(0.5, 4)


def sample_arange_step(dtype):
    yield SampleInput(1, 10, 3, dtype=dtype)
    yield SampleInput(0, 4, 0.5 if dtype.is_floating_point else 1, dtype=dtype)
    if dtype.is_signed:
        yield SampleInput(5, -3, -2, dtype=dtype)
    yield SampleInput(0, 1, 0.25)
    yield SampleInput(10, 0, -3)


def _arange_ref(start, end=None, step=1, dtype=None):
    if end is None:
        start, end = 0, start
    result = numpy_dtype(dtype or _inferred(start, end, step))
    return np.arange(start, end, step, dtype=np.float64).astype(result)


def errors_arange():
    yield ErrorInput(SampleInput(0, 5, 0), RuntimeError, r"^step must be nonzero$")
    yield ErrorInput(SampleInput(0, 5, -1), RuntimeError,
                     r"^upper bound and lower bound inconsistent with step sign$")
    yield ErrorInput(SampleInput(0, float("inf"), 1), RuntimeError,
                     r"^unsupported range: 0 -> inf$")
    yield ErrorInput(SampleInput(0, 1e20, 1), RuntimeError,
                     r"^invalid size, possible overflow\?$")
    yield ErrorInput(SampleInput(0, 5, 1, dtype=gt.bool), NotImplementedError,
                     r"^\"arange_cpu\" not implemented for 'Bool'$")


# ----- range (deprecated: end included) -----------------------------------------------
def sample_range(dtype):
    yield SampleInput(1, 4, dtype=dtype)
    yield SampleInput(0, 6, 2, dtype=dtype)
    if dtype.is_signed:
        yield SampleInput(5, -3, -2, dtype=dtype)
    if dtype.is_floating_point:      # (torch divides by zero on an integer out= of 0.25)
        yield SampleInput(0, 1, 0.25, dtype=dtype)
    yield SampleInput(3, 3)


def _range_ref(start, end, step=1, dtype=None):
    count = int(np.floor((end - start) / step)) + 1
    values = start + step * np.arange(count, dtype=np.float64)
    return values.astype(numpy_dtype(dtype or gt.get_default_dtype()))


def errors_range():
    yield ErrorInput(SampleInput(0, 5, 0), RuntimeError, r"^step must be nonzero$")
    yield ErrorInput(SampleInput(0, 5, -1), RuntimeError,
                     r"^upper bound and lower bound inconsistent with step sign$")
    yield ErrorInput(SampleInput(0, float("inf"), 1), RuntimeError,
                     r"^unsupported range: 0 -> inf$")
    yield ErrorInput(SampleInput(0, 5, 1, dtype=gt.bool), NotImplementedError,
                     r"^\"range_cpu\" not implemented for 'Bool'$")
    yield ErrorInput(SampleInput(0, 5, 1, dtype=gt.complex64), NotImplementedError,
                     r"^\"range_cpu\" not implemented for 'ComplexFloat'$")


# ----- linspace / logspace ---------------------------------------------------------
def sample_space(dtype):
    """(A negative start of an unsigned dtype wraps before spacing: left to the
    differential tests, NumPy's reference would wrap after.)"""
    low = -4 if dtype.is_signed or dtype.is_complex else 1
    for start, end, steps in ((0, 10, 5), (low, 4, 9), (3, 3, 4), (2, 8, 1), (0, 1, 0)):
        yield SampleInput(start, end, steps, dtype=dtype)
    yield SampleInput(0, 1, 5)


def sample_logspace(dtype):
    for start, end, steps, base in ((0, 3, 4, 10.0), (-2, 2, 5, 2.0), (1, 1, 3, 10.0),
                                    (0, 4, 1, 2.0)):
        yield SampleInput(start, end, steps, base, dtype=dtype)
    yield SampleInput(0, 2, 3)


def _space_dtype(start, end, dtype):
    if dtype is not None:
        return numpy_dtype(dtype)
    if isinstance(start, complex) or isinstance(end, complex):
        return np.complex64
    return np.float32


def _linspace_ref(start, end, steps, dtype=None):
    return np.linspace(start, end, steps).astype(_space_dtype(start, end, dtype))


def _logspace_ref(start, end, steps, base=10.0, dtype=None):
    return np.logspace(start, end, steps, base=base).astype(_space_dtype(start, end, dtype))


def errors_space():
    yield ErrorInput(SampleInput(0, 1, -1), RuntimeError,
                     r"^number of steps must be non-negative$")
    yield ErrorInput(SampleInput(0j, 1, 3, dtype=gt.float32), RuntimeError,
                     r"inferred dtype c10::complex<float> can't be safely cast to passed "
                     r"dtype Float$")
    yield ErrorInput(SampleInput(0, 10, 5, dtype=gt.bool), NotImplementedError,
                     r"not implemented for 'Bool'$")


def _tensor_bounds(first: str, second: str):
    """Samples for a Tensor overload: the same ranges with 0-dim tensor bounds."""
    def wrap(kind, value):
        return gt.tensor(float(value)) if kind == "Tensor" else value

    def samples(dtype):
        for start, end, steps in ((0, 10, 5), (-4, 4, 9), (2, 8, 1)):
            yield SampleInput(wrap(first, start), wrap(second, end), steps, dtype=dtype)
    return samples


def _from_tensors(ref):
    def call(start, end, *args, **kwargs):
        return ref(float(start), float(end), *args, **kwargs)
    return call


def errors_tensor_bounds(name: str, first: str, second: str):
    """A 1-dim bound: torch names each tensor bound of the overload and its dims."""
    start = gt.zeros(1) if first == "Tensor" else 0
    end = gt.tensor(1.0) if second == "Tensor" else 1
    got = " and ".join(text for kind, text in ((first, "start with 1 dimension\\(s\\)"),
                                               (second, "end with 0 dimension\\(s\\)"))
                       if kind == "Tensor")
    if first != "Tensor":
        start, end, got = 0, gt.zeros(1), "end with 1 dimension\\(s\\)"

    def errors():
        yield ErrorInput(SampleInput(start, end, 3), RuntimeError,
                         rf"^{name} only supports 0-dimensional start and end tensors, but got "
                         rf"{got}\.$")
    return errors


def _space_entries() -> list:
    entries = []
    for name, ref in (("linspace", _linspace_ref), ("logspace", _logspace_ref)):
        for first, second in (("Tensor", "Tensor"), ("Tensor", "Scalar"), ("Scalar", "Tensor")):
            overload = f"{name}.{first}_{second}"
            entries.append(OpInfo(
                overload, variants=(f"ops.aten.{overload}", name), dtypes=FLOATING,
                sample_inputs=_tensor_bounds(first, second), ref=_from_tensors(ref),
                error_inputs=errors_tensor_bounds(name, first, second), is_factory=True))
    return entries


_OUT_WARNING = {"test_out_matches_torch": pytest.mark.xfail(
    strict=True, reason="ranges.py / registry out=: torch's arange warns its own message "
                        "('The number of elements in the out tensor of shape ...') when it "
                        "resizes out; the out= path gives the kernel no old shape to name")}

OPS = [
    OpInfo("arange", variants=("arange",), dtypes=RANGE_DTYPES,
           sample_inputs=sample_arange_end, ref=_arange_ref, out="arange",
           marks=_OUT_WARNING, **_FACTORY),
    OpInfo("arange.start", variants=("arange",), dtypes=RANGE_DTYPES,
           sample_inputs=sample_arange_start, ref=_arange_ref, is_factory=True),
    OpInfo("arange.start_step", variants=("arange",), dtypes=RANGE_DTYPES,
           sample_inputs=sample_arange_step, ref=_arange_ref, error_inputs=errors_arange,
           out="arange", marks=_OUT_WARNING, **_FACTORY),
    OpInfo("range.step", variants=("range",), dtypes=RANGE_DTYPES, sample_inputs=sample_range,
           ref=_range_ref, error_inputs=errors_range, out="range", **_FACTORY),
    OpInfo("range", variants=("ops.aten.range.default",), dtypes=RANGE_DTYPES,
           sample_inputs=lambda dtype: (s for s in sample_range(dtype) if len(s.args) == 2),
           ref=_range_ref, is_factory=True),
    OpInfo("linspace", variants=("linspace",), dtypes=SPACE_DTYPES,
           sample_inputs=sample_space, ref=_linspace_ref, error_inputs=errors_space,
           out="linspace", **_FACTORY),
    OpInfo("logspace", variants=("logspace",), dtypes=FLOATING + COMPLEX,
           sample_inputs=sample_logspace, ref=_logspace_ref, out="logspace", **_FACTORY),
] + _space_entries()
