"""OpInfo entries for the summing reductions (`aten/native/reduction/sum.py`): sum, nansum,
mean, nanmean, prod. The helpers here (dim samples, the NumPy view of a reduction) are
shared by `db_extrema.py` and `db_moments.py`."""
import numpy as np
import pytest

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import (BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput,
                   make_tensor, tensors)

ALL = BOOL + INTEGRAL + FLOATING + COMPLEX
INEXACT = FLOATING + COMPLEX
REAL = BOOL + INTEGRAL + FLOATING
NAN = float("nan")
INF = float("inf")


# ----- the NumPy side of a reduction ---------------------------------------------------
def np_axes(x: np.ndarray, dim):
    """NumPy's `axis` for torch's `dim` (None, an int, or a sequence; () means all)."""
    if dim is None or x.ndim == 0:
        return None
    if isinstance(dim, int):
        return dim % x.ndim
    return tuple(d % x.ndim for d in dim) if len(dim) else None


def accumulate_dtype(result: np.dtype) -> np.dtype:
    """torch accumulates float16 / bfloat16 in float32."""
    return np.dtype(np.float32) if result.itemsize == 2 and result.kind in "fV" else result


def long_if_integral(x: np.ndarray) -> np.dtype:
    return np.dtype(np.int64) if x.dtype.kind in "biu" else x.dtype


def folded(function, x, dim, keepdim, result: np.dtype):
    """`function` (np.sum, np.prod...) over torch's `dim`, accumulated as torch does."""
    acc = accumulate_dtype(result)
    with np.errstate(all="ignore"):
        value = function(x.astype(result).astype(acc), axis=np_axes(x, dim), keepdims=keepdim)
    return np.asarray(value).astype(result)


def _dtype_np(dtype):
    return None if dtype is None else numpy_dtype(dtype)


# ----- references --------------------------------------------------------------------
def ref_sum(x, dim=None, keepdim=False, dtype=None):
    return folded(np.sum, x, dim, keepdim, _dtype_np(dtype) or long_if_integral(x))


def ref_nansum(x, dim=None, keepdim=False, dtype=None):
    result = _dtype_np(dtype) or long_if_integral(x)
    if x.dtype.kind in "fV":
        x = np.where(np.isnan(x.astype(np.float32)), 0, x).astype(x.dtype)
    return folded(np.sum, x, dim, keepdim, result)


def ref_prod(x, dim=None, keepdim=False, dtype=None):
    return folded(np.prod, x, dim, keepdim, _dtype_np(dtype) or long_if_integral(x))


def ref_mean(x, dim=None, keepdim=False, dtype=None):
    return folded(np.mean, x, dim, keepdim, _dtype_np(dtype) or x.dtype)


def ref_nanmean(x, dim=None, keepdim=False, dtype=None):
    return folded(np.nanmean, x, dim, keepdim, _dtype_np(dtype) or x.dtype)


# ----- samples -------------------------------------------------------------------------
def dim_choices(x, tuples: bool = True, none: bool = True):
    """(dim, keepdim) pairs for `x`: first and last dim, a tuple, all dims."""
    choices = [(0, False), (-1, True)]
    if tuples:
        choices += [((0, -1) if x.dim() >= 2 else (0,), False), ((), True)]
    if none:
        choices.append((None, False))
    return choices


def sample_dims(tuples: bool = True, none: bool = True, extra=None, **value_range):
    """Every standard tensor with each of `dim_choices`; `extra(dtype)` adds more."""
    def samples(dtype):
        for x in tensors(dtype, **value_range):
            for dim, keepdim in dim_choices(x, tuples, none):
                yield SampleInput(x, dim, keepdim)
        if extra is not None:
            yield from extra(dtype)
    return samples


def sample_whole(extra=None, **value_range):
    """Every standard tensor, reduced whole; `extra(dtype)` adds more."""
    def samples(dtype):
        for x in tensors(dtype, **value_range):
            yield SampleInput(x)
        if extra is not None:
            yield from extra(dtype)
    return samples


def special_values(dtype):
    """A row of NaN, infinities and signed zeros (floating dtypes only)."""
    return gt.tensor([[NAN, 1.0, -INF], [0.0, -0.0, INF], [2.0, NAN, 3.0]]).to(dtype)


def _dtype_kwarg(dtype):
    """sum(x, dtype=...): a wider dtype of the same kind, and a conversion to int64."""
    x = make_tensor((3, 4), dtype)
    if dtype.is_floating_point:
        yield SampleInput(x, dtype=gt.float64)
        yield SampleInput(x, dtype=gt.int64)
    elif not dtype.is_complex:
        yield SampleInput(x, dtype=gt.float32)
        yield SampleInput(x, dtype=dtype)


def _dim_dtype_kwarg(dtype):
    for sample in _dtype_kwarg(dtype):
        yield SampleInput(sample.args[0], 1, True, **sample.kwargs)


def _nan_rows(dtype):
    if dtype.is_floating_point:
        yield SampleInput(special_values(dtype), 1, False)
        yield SampleInput(special_values(dtype), None, False)


def _mean_dtype(dtype):
    x = make_tensor((3, 4), dtype)
    yield SampleInput(x, dtype=gt.float64 if not dtype.is_complex else gt.complex128)


# ----- error inputs ----------------------------------------------------------------------
def bad_dims(*leading, dims=((2, IndexError, r"^Dimension out of range \(expected to be in "
                                r"range of \[-2, 1\], but got 2\)$"),)):
    """A dim out of range, and (for dim lists) a repeated dim, on a (3, 4) float tensor."""
    def errors():
        x = make_tensor((3, 4), gt.float32)
        for dim, kind, message, *on_meta in dims:
            yield ErrorInput(SampleInput(x, *leading, dim), kind, message,
                             known_bug_on_meta=on_meta[0] if on_meta else None)
    return errors


META_REF = "reduction (torch's meta kernel is a Python reference): "
FILLED_DTYPE = {"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
    "reduction: the registry fills a missing dtype= from out=, so out= of another dtype is "
    "read as dtype= (computed; torch's whole-tensor sum.out / prod.out refuse it)"))}
META_REPEATED = META_REF + "'duplicate value in the list of dims'"
REPEATED = ((0, 0), RuntimeError, r"^dim 0 appears multiple times in the list of dims$",
            META_REPEATED)
OUT_OF_RANGE = (2, IndexError, r"^Dimension out of range \(expected to be in range of "
                r"\[-2, 1\], but got 2\)$")


def _errors_mean():
    yield from bad_dims(dims=(OUT_OF_RANGE, REPEATED))()
    ints = make_tensor((3,), gt.int64)
    yield ErrorInput(SampleInput(ints, 0), RuntimeError,
                     r"^mean\(\): could not infer output dtype. Input dtype must be either a "
                     r"floating point or complex dtype. Got: Long$",
                     known_bug_on_meta=META_REF + "'Got: torch.int64'")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), 0, dtype=gt.int64),
                     RuntimeError, r"^mean\(\): could not infer output dtype. Optional dtype "
                     r"must be either a floating point or complex dtype. Got: Long$",
                     known_bug_on_meta=META_REF + "'Got: torch.int64'")


def _errors_sum():
    yield from bad_dims(dims=(OUT_OF_RANGE, REPEATED))()
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, dtype=gt.float64, out=gt.empty(0)), RuntimeError,
                     r"^Expected out tensor to have dtype double, but got float instead$",
                     known_bug_on_meta=META_REF + "'dtype argument and out dtype must match "
                     "in reduction'")


def _errors_nansum():
    yield from bad_dims(dims=(OUT_OF_RANGE, REPEATED))()
    yield ErrorInput(SampleInput(make_tensor((3,), gt.complex64)), RuntimeError,
                     r"^nansum on CPU does not support complex inputs$",
                     known_bug_on_meta=META_REF + "complex input accepted")


def _errors_nanmean():
    yield from bad_dims(dims=(OUT_OF_RANGE, REPEATED))()
    yield ErrorInput(SampleInput(make_tensor((3,), gt.int64)), RuntimeError,
                     r"^nanmean\(\): expected input to have floating point or complex dtype "
                     r"but got Long$")


# ----- sum_to_size ---------------------------------------------------------------------
def sample_sum_to_size(dtype):
    """Every shape that broadcasts to the input's: its own, ones in place of dims, fewer
    leading dims, and all of them reduced."""
    for x in tensors(dtype):
        shape = tuple(x.shape)
        yield SampleInput(x, shape)
        yield SampleInput(x, shape[1:])
        yield SampleInput(x, tuple(1 if i % 2 == 0 else n for i, n in enumerate(shape)))
        yield SampleInput(x, (1,) * len(shape))


def _sum_to_size_ref(a, size):
    """The dims broadcasting added or stretched, summed (all of them, into a new
    tensor, for an empty size); none to sum gives the input itself."""
    lead = a.ndim - len(size)
    dims = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(size)
                                       if n == 1 and a.shape[lead + i] != 1)
    if size and not dims:
        return a
    result = long_if_integral(a)
    total = np.sum(a, axis=dims, keepdims=True, dtype=accumulate_dtype(result))
    return total.reshape(size).astype(result)


def errors_sum_to_size():
    x = make_tensor((2, 3), gt.float32)
    for size in ((2,), (4, 3), (1, 2, 3)):
        yield ErrorInput(SampleInput(x, size), RuntimeError,
                         rf"^size {{\[{', '.join(map(str, size))}\]}} is not expandable to "
                         r"size {\[2, 3\]}\.$")


OPS = [
    OpInfo("sum_to_size", variants=("Tensor.sum_to_size",), sample_inputs=sample_sum_to_size,
           ref=_sum_to_size_ref, error_inputs=errors_sum_to_size, dtypes=ALL),
    OpInfo("sum", variants=("sum", "Tensor.sum"), ref=ref_sum, out="ops.aten.sum.out",
           out_sets_dtype=True, marks=FILLED_DTYPE,
           sample_inputs=sample_whole(_dtype_kwarg), dtypes=ALL),
    OpInfo("sum.dim_IntList", variants=("sum", "Tensor.sum"), ref=ref_sum, out="sum",
           sample_inputs=sample_dims(extra=lambda d: (*_dim_dtype_kwarg(d), *_nan_rows(d))),
           error_inputs=_errors_sum, out_sets_dtype=True, dtypes=ALL),
    OpInfo("nansum", variants=("nansum", "Tensor.nansum"), ref=ref_nansum, out="nansum",
           sample_inputs=sample_dims(extra=_nan_rows), error_inputs=_errors_nansum,
           out_sets_dtype=True, dtypes=REAL),
    OpInfo("mean", variants=("mean", "Tensor.mean"), ref=ref_mean, out="mean",
           sample_inputs=sample_whole(_mean_dtype), out_sets_dtype=True, dtypes=INEXACT),
    OpInfo("mean.dim", variants=("mean", "Tensor.mean"), ref=ref_mean, out="mean",
           sample_inputs=sample_dims(extra=_nan_rows), error_inputs=_errors_mean,
           out_sets_dtype=True, dtypes=INEXACT),
    OpInfo("nanmean", variants=("nanmean", "Tensor.nanmean"), ref=ref_nanmean, out="nanmean",
           sample_inputs=sample_dims(extra=_nan_rows), error_inputs=_errors_nanmean,
           out_sets_dtype=True, dtypes=FLOATING),
    OpInfo("prod", variants=("prod", "Tensor.prod"), ref=ref_prod, out="ops.aten.prod.out",
           out_sets_dtype=True, marks=FILLED_DTYPE,
           sample_inputs=sample_whole(_dtype_kwarg, low=-2, high=3), dtypes=ALL),
    OpInfo("prod.dim_int", variants=("prod", "Tensor.prod"), ref=ref_prod, out="prod",
           sample_inputs=sample_dims(tuples=False, none=False, low=-2, high=3),
           error_inputs=bad_dims(), out_sets_dtype=True, dtypes=ALL),
]
