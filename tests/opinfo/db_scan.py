"""OpInfo entries for the scans (`aten/native/scan.py`): cumsum, cumprod, cummax,
cummin, logcumsumexp, and count_nonzero. The references walk each lane in order, as
torch's CPU kernels do (Note [Scan accumulation] in scan.py)."""
import numpy as np
import pytest

import glasstorch as gt

from .core import (BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput,
                   make_tensor, tensors)
from .db_reduction import (META_REF, META_REPEATED, _dtype_np, long_if_integral, np_axes,
                           special_values)

ALL = BOOL + INTEGRAL + FLOATING + COMPLEX
REAL = BOOL + INTEGRAL + FLOATING
INEXACT = FLOATING + COMPLEX
TWO_RESULT_OUT = pytest.mark.skip(reason="out= of two results: tests/test_scan.py")
TWO_OUT = {"test_out": TWO_RESULT_OUT, "test_out_matches_torch": TWO_RESULT_OUT}
OUT_OF_RANGE = (r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                r"but got 2\)$")


# ----- references --------------------------------------------------------------------
def _accumulation(result: np.dtype) -> np.dtype:
    """torch's CPU scans run in double for float32, float for 16-bit floats."""
    if result.kind in "fV" and result.itemsize < 8:
        return np.dtype(np.float64) if result.itemsize == 4 else np.dtype(np.float32)
    if result == np.complex64:
        return np.dtype(np.complex128)
    return result


def _lanes_first(x: np.ndarray, dim: int) -> np.ndarray:
    return np.moveaxis(x.reshape(1) if x.ndim == 0 else x, dim if x.ndim else 0, 0)


def _walk(step, x: np.ndarray, dim: int, acc: np.dtype) -> np.ndarray:
    """Apply ``running = step(running, x[i])`` along `dim`, element by element."""
    lanes = _lanes_first(x.astype(acc), dim)
    result = np.empty(lanes.shape, acc)
    with np.errstate(all="ignore"):
        for i in range(lanes.shape[0]):
            result[i] = lanes[i] if i == 0 else step(result[i - 1], lanes[i])
    return np.moveaxis(result, 0, dim if x.ndim else 0).reshape(x.shape)


def _cumulative(step):
    def ref(x, dim, dtype=None):
        result = _dtype_np(dtype) or long_if_integral(x)
        with np.errstate(all="ignore"):
            x = x.astype(result)
        return _walk(step, x, dim, _accumulation(result)).astype(result)
    return ref


def _log_add_exp(running, new):
    """torch's step: the operand with the larger real part factors out (the running
    value counts as the lower of two with equal real parts)."""
    if new.dtype.kind != "c":
        return np.logaddexp(running, new)
    low = np.where(new.real < running.real, new, running)
    high = np.where(new.real < running.real, running, new)
    return high + np.log1p(np.exp(low - high))


def ref_logcumsumexp(x, dim):
    return _walk(_log_add_exp, x, dim, _accumulation(x.dtype)).astype(x.dtype)


def _ref_extreme(replaces):
    """cummax / cummin by torch's rule: the new element replaces the running extreme
    when ``replaces(new, best)`` or it is NaN, unless the running extreme is NaN."""
    def ref(x, dim):
        lanes = _lanes_first(x, dim)
        values, indices = lanes.copy(), np.zeros(lanes.shape, np.int64)
        with np.errstate(all="ignore"):
            for i in range(1, lanes.shape[0]):
                best, new = values[i - 1], lanes[i]
                if x.dtype.kind in "biu":
                    take = replaces(new, best)
                else:
                    wide_best, wide_new = best.astype(np.float64), new.astype(np.float64)
                    take = np.isnan(wide_new) | (~np.isnan(wide_best) &
                                                 replaces(wide_new, wide_best))
                values[i] = np.where(take, new, best)
                indices[i] = np.where(take, i, indices[i - 1])
        back = dim if x.ndim else 0
        return [np.moveaxis(values, 0, back).reshape(x.shape),
                np.moveaxis(indices, 0, back).reshape(x.shape)]
    return ref


def ref_count_nonzero(x, dim=None):
    return np.asarray(np.count_nonzero(x.astype(np.complex128), axis=np_axes(x, dim)),
                      dtype=np.int64)


# ----- samples -------------------------------------------------------------------------
def _no_bool_empties(dtype, x) -> bool:
    """cumsum_/cumprod_ of a bool tensor: torch refuses it (bool results have no scan
    kernel) except where there is nothing to scan, which the in-place test can't tell."""
    return dtype is gt.bool and (x.dim() == 0 or x.numel() == 0)


def sample_cumulative(low=None, high=None):
    def samples(dtype):
        for x in tensors(dtype, low=low, high=high):
            if _no_bool_empties(dtype, x):
                continue
            for dim in ((0, -1) if x.dim() > 1 else (0,)):
                yield SampleInput(x, dim)
        x = make_tensor((3, 4), dtype, low=low, high=high)
        if dtype is not gt.bool:        # other dtype= values: tests/test_scan.py
            yield SampleInput(x, 1, dtype=dtype)
        if dtype.is_floating_point:
            yield SampleInput(special_values(dtype), 0)
            yield SampleInput(special_values(dtype), 1)
        if not dtype.is_complex and dtype is not gt.bool:
            yield SampleInput(make_tensor((4, 70), dtype, low=low, high=high), 0)
    return samples


def sample_extreme(dtype):
    for x in tensors(dtype, low=-3, high=3):
        for dim in ((0, -1) if x.dim() > 1 else (0,)):
            yield SampleInput(x, dim)
    if dtype.is_floating_point:
        yield SampleInput(special_values(dtype), 0)
        yield SampleInput(special_values(dtype), 1)
        yield SampleInput(gt.tensor([0.0, -0.0, 0.0, -1.0, -0.0]).to(dtype), 0)
    yield SampleInput(make_tensor((80, 3), dtype, low=-3, high=3), 0)


def sample_logcumsumexp(dtype):
    for x in tensors(dtype, low=-5, high=5):
        for dim in ((0, -1) if x.dim() > 1 else (0,)):
            yield SampleInput(x, dim)
    if dtype.is_floating_point:
        yield SampleInput(special_values(dtype), 0)
        yield SampleInput(special_values(dtype), 1)
        yield SampleInput(make_tensor((70, 3), dtype, low=-5, high=5), 0)


def sample_count_nonzero(dims: bool):
    def samples(dtype):
        for x in tensors(dtype, low=-1, high=2):
            if dims:
                yield SampleInput(x, (0, -1) if x.dim() > 1 else (0,))
                yield SampleInput(x, ())
            else:
                yield SampleInput(x)
                yield SampleInput(x, -1)
        if dtype.is_floating_point:
            yield SampleInput(special_values(dtype), (1,) if dims else 0)
    return samples


# ----- error inputs ----------------------------------------------------------------------
def _bad_dim(*extra, **kwargs):
    return ErrorInput(SampleInput(make_tensor((3, 4), gt.float32), 2, *extra, **kwargs),
                      IndexError, OUT_OF_RANGE)


def errors_cumulative(name):
    def errors():
        yield _bad_dim()
        ints = make_tensor((3,), gt.int32)
        yield ErrorInput(SampleInput(ints, 0, dtype=gt.bool), NotImplementedError,
                         rf'^"{name}_out_cpu" not implemented for \'Bool\'$')
        yield ErrorInput(SampleInput(ints, 0, dtype=gt.int32, out=gt.empty(3, dtype=gt.int64)),
                         RuntimeError, r"^Expected out tensor to have dtype int, but got "
                         r"long int instead$", known_bug_on_meta=META_REF + "'dtype argument "
                         "and out dtype must match in reduction'")
    return errors


def errors_logcumsumexp():
    yield _bad_dim()
    yield ErrorInput(SampleInput(make_tensor((3,), gt.int64), 0), NotImplementedError,
                     r'^"logcumsumexp_out_cpu" not implemented for \'Long\'$')
    x = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(x, 0, out=gt.empty(3, dtype=gt.float64)), RuntimeError,
                     r"^expected scalar_type Float but found Double$",
                     known_bug_on_meta="scan: torch's meta function does not check out='s dtype")


def errors_extreme(name):
    def errors():
        yield _bad_dim()
        yield ErrorInput(SampleInput(make_tensor((3,), gt.complex64), 0), NotImplementedError,
                         rf'^"{name}_cpu" not implemented for \'ComplexFloat\'$')
        yield ErrorInput(SampleInput(make_tensor((), gt.float32), 1), IndexError,
                         rf"^{name}\(\): Expected reduction dim -1 or 0 for scalar but got 1$")
    return errors


def errors_count_nonzero():
    yield _bad_dim()
    yield ErrorInput(SampleInput(make_tensor((3, 4), gt.float32), (0, -2)), RuntimeError,
                     r"^dim 0 appears multiple times in the list of dims$",
                     known_bug_on_meta=META_REPEATED)


OPS = [
    OpInfo("cumsum", variants=("cumsum", "Tensor.cumsum"), ref=_cumulative(np.add),
           sample_inputs=sample_cumulative(), error_inputs=errors_cumulative("cumsum"),
           out="cumsum", inplace="Tensor.cumsum_", out_sets_dtype=True, dtypes=ALL),
    OpInfo("cumprod", variants=("cumprod", "Tensor.cumprod"), ref=_cumulative(np.multiply),
           sample_inputs=sample_cumulative(low=-2, high=3),
           error_inputs=errors_cumulative("cumprod"), out="cumprod",
           inplace="Tensor.cumprod_", out_sets_dtype=True, dtypes=ALL),
    OpInfo("logcumsumexp", variants=("logcumsumexp", "Tensor.logcumsumexp"),
           ref=ref_logcumsumexp, sample_inputs=sample_logcumsumexp,
           error_inputs=errors_logcumsumexp, out="logcumsumexp", dtypes=INEXACT),
    OpInfo("cummax", variants=("cummax", "Tensor.cummax"), ref=_ref_extreme(np.greater_equal),
           sample_inputs=sample_extreme, error_inputs=errors_extreme("cummax"),
           out="cummax", marks=TWO_OUT, dtypes=REAL),
    OpInfo("cummin", variants=("cummin", "Tensor.cummin"), ref=_ref_extreme(np.less_equal),
           sample_inputs=sample_extreme, error_inputs=errors_extreme("cummin"),
           out="cummin", marks=TWO_OUT, dtypes=REAL),
    OpInfo("count_nonzero", variants=("count_nonzero", "Tensor.count_nonzero"),
           ref=ref_count_nonzero, sample_inputs=sample_count_nonzero(False),
           error_inputs=errors_count_nonzero, dtypes=ALL),
    OpInfo("count_nonzero.dim_IntList", variants=("count_nonzero", "Tensor.count_nonzero"),
           ref=ref_count_nonzero, sample_inputs=sample_count_nonzero(True), dtypes=ALL),
]
