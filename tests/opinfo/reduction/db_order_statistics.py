"""OpInfo entries for order statistics (`aten/native/reduction/order_statistics.py`,
`quantile.py`): kthvalue, median, nanmedian, mode, quantile, nanquantile.

Selections use tensors of distinct values (or, for mode, repeats without NaN), where
the position of the chosen element has one answer."""
import warnings

import numpy as np

import glasstorch as gt

from ..core import (BOOL, FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor,
                   tensors)
from ..sorting.db_sort import NAN, TWO_OUT, distinct, stable_argsort

NUMBERS = INTEGRAL + FLOATING
FLOAT_DOUBLE = (gt.float32, gt.float64)
INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


# ----- references --------------------------------------------------------------------
def _pick(a, dim, keepdim, position_of_row):
    """(values, indices): per row of `dim`, the element at `position_of_row(row)`."""
    if a.ndim == 0:
        return [a.copy(), np.zeros((), np.int64)]
    moved = np.moveaxis(a, dim, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    index = np.array([position_of_row(r) for r in rows], np.int64).reshape(moved.shape[:-1])
    values = np.take_along_axis(moved, index[..., None], -1)[..., 0]
    if keepdim:
        values, index = np.expand_dims(values, dim), np.expand_dims(index, dim)
    return [values, index]


def _kthvalue(a, k, dim=-1, keepdim=False):
    return _pick(a, dim, keepdim, lambda row: stable_argsort(row)[k - 1])


def _lower_median_position(row, skip_nan: bool) -> int:
    wide = row.astype(np.float64)
    nan = np.isnan(wide)
    if nan.any() and not skip_nan:
        return int(np.argmax(nan))
    count = row.size - int(nan.sum())
    return int(stable_argsort(row)[max((count - 1) // 2, 0)])


def _median(a, skip_nan=False):
    wide = a.astype(np.float64).reshape(-1)
    if skip_nan:
        wide = wide[~np.isnan(wide)]
    if wide.size == 0 or np.isnan(wide).any():
        with np.errstate(invalid="ignore"):             # NaN as an integer: torch's too
            return np.array(np.nan).astype(a.dtype)
    return np.array(np.sort(wide)[(wide.size - 1) // 2]).astype(a.dtype)


def _median_dim(a, dim, keepdim=False, skip_nan=False):
    return _pick(a, dim, keepdim, lambda row: _lower_median_position(row, skip_nan))


def _mode(a, dim=-1, keepdim=False):
    def position(row):
        values, counts = np.unique(row, return_counts=True)
        value = values[np.argmax(counts)]                    # the smallest most frequent
        return int(np.flatnonzero(row == value)[-1])         # its last occurrence
    return _pick(a, dim, keepdim, position)


def _quantile(a, q, dim=None, keepdim=False, interpolation="linear", skip_nan=False):
    """NumPy's quantile methods are torch's interpolations (same names)."""
    method = {"midpoint": "midpoint", "nearest": "nearest"}.get(interpolation, interpolation)
    wide = a.astype(np.float64)
    find = np.nanquantile if skip_nan else np.quantile
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")                  # all-NaN rows warn
        result = find(wide, np.asarray(q, np.float64), axis=dim, keepdims=keepdim,
                      method=method)
    if not skip_nan:
        has_nan = np.isnan(wide).any(axis=dim, keepdims=keepdim)
        result = np.where(has_nan, np.nan, result)
    return np.asarray(result).astype(a.dtype)


# ----- samples -----------------------------------------------------------------------
def _distinct_tensors(dtype):
    for shape in ((5,), (3, 4), (2, 3, 4)):
        for layout in ("contiguous", "transposed"):
            yield distinct(shape, dtype, layout)


def sample_kthvalue(dtype):
    for x in _distinct_tensors(dtype):
        yield SampleInput(x, 1)
        yield SampleInput(x, x.shape[0], 0, True)
        yield SampleInput(x, 2, -1, False)
    yield SampleInput(distinct((), dtype), 1)
    yield SampleInput(distinct((4, 0, 2), dtype), 2, 0)


def sample_median(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)
    if dtype.is_floating_point:
        yield SampleInput(gt.tensor([1.0, NAN, 3.0, 2.0], dtype=dtype))


def sample_median_dim(dtype):
    for x in _distinct_tensors(dtype):
        yield SampleInput(x, 0)
        yield SampleInput(x, -1, True)
    yield SampleInput(distinct((), dtype), 0)
    yield SampleInput(distinct((4, 0, 2), dtype), 0, True)
    if dtype.is_floating_point:
        rows = gt.tensor([[1.0, NAN, 3.0, 2.0, 0.0], [NAN, 4.0, 5.0, NAN, 6.0]], dtype=dtype)
        yield SampleInput(rows, 1)


def sample_mode(dtype):
    for x in tensors(dtype, low=0, high=3):
        if x.numel():
            yield SampleInput(x)
            if x.dim():
                yield SampleInput(x, 0, True)


def sample_quantile(dtype, scalar: bool):
    q_values = (0.0, 0.3, 0.5, 1.0)
    for x in tensors(dtype, shapes=((5,), (3, 4), (2, 3, 4))):
        if 0 in x.stride():     # repeated elements: which copy torch's sort puts first
            continue            # (and so which one gets the gradient) is its own choice
        for i, interpolation in enumerate(INTERPOLATIONS):
            q = q_values[i % 4] if scalar else gt.tensor(q_values, dtype=dtype)
            dim = (None, 0, -1)[i % 3]
            yield SampleInput(x, q, dim, i % 2 == 1, interpolation=interpolation)
    q = 0.25 if scalar else gt.tensor(0.25, dtype=dtype)
    yield SampleInput(gt.tensor(3.0, dtype=dtype), q)
    yield SampleInput(gt.tensor([[1.0, NAN, 3.0, 2.0], [NAN] * 4, [4.0, 5.0, 6.0, 7.0]],
                                dtype=dtype), q, 1)


# ----- error inputs ------------------------------------------------------------------
def errors_kthvalue():
    x = make_tensor((3, 4), gt.float32)
    for k in (0, 5):
        yield ErrorInput(SampleInput(x, k), RuntimeError,
                         r"^kthvalue\(\): selected number k out of range for dimension 1$")
    yield ErrorInput(SampleInput(make_tensor((3, 0), gt.float32), 1), IndexError,
                     r"^kthvalue\(\): Expected reduction dim 1 to have non-zero size\.$",
                     known_bug_on_meta=META_EMPTY)


META_EMPTY = "order statistics: torch's meta function does not check an empty dim"


def errors_median_dim():
    yield ErrorInput(SampleInput(make_tensor((3, 0), gt.float32), 1), IndexError,
                     r"^median\(\): Expected reduction dim 1 to have non-zero size\.$",
                     known_bug_on_meta=META_EMPTY)


def errors_quantile():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 1.5), RuntimeError,
                     r"^quantile\(\) q must be in the range \[0, 1\] but got 1\.5$")
    yield ErrorInput(SampleInput(x, 0.5, interpolation="foo"), RuntimeError,
                     r"^quantile\(\) interpolation must be one of linear, lower, higher, "
                     r"midpoint or nearest, but got foo$")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.int64), 0.5), RuntimeError,
                     r"^quantile\(\) input tensor must be either float or double dtype$")
    yield ErrorInput(SampleInput(make_tensor((0,), gt.float32), 0.5), RuntimeError,
                     r"^quantile\(\) input tensor must be non-empty$")
    yield ErrorInput(SampleInput(x, 0.5, 2), IndexError, r"^Dimension out of range")


def errors_quantile_tensor():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, gt.tensor([[0.5]])), RuntimeError,
                     r"^quantile\(\) q must be a scalar or 1D tensor$")
    yield ErrorInput(SampleInput(x, gt.tensor([0.5], dtype=gt.float64)), RuntimeError,
                     r"^quantile\(\) q tensor must be same dtype as the input tensor$")
    yield ErrorInput(SampleInput(x, gt.tensor([0.5, 1.5])), RuntimeError,
                     r"^quantile\(\) q values must be in the range \[0, 1\]$")


def _quantile_entry(name: str, skip_nan: bool, scalar: bool) -> OpInfo:
    python_name = name.split(".")[0]
    return OpInfo(
        name, variants=(python_name, "Tensor." + python_name),
        ref=lambda a, q, dim=None, keepdim=False, interpolation="linear": _quantile(
            a, q, dim, keepdim, interpolation, skip_nan),
        dtypes=FLOAT_DOUBLE, sample_inputs=lambda dtype: sample_quantile(dtype, scalar),
        error_inputs=errors_quantile if scalar else errors_quantile_tensor, out=python_name)


OPS = [
    OpInfo("kthvalue", variants=("kthvalue", "Tensor.kthvalue"), ref=_kthvalue,
           dtypes=NUMBERS, sample_inputs=sample_kthvalue, error_inputs=errors_kthvalue,
           out="kthvalue", marks=TWO_OUT),
    OpInfo("median", variants=("median", "Tensor.median"), ref=_median, dtypes=NUMBERS,
           sample_inputs=sample_median),
    OpInfo("nanmedian", variants=("nanmedian", "Tensor.nanmedian"),
           ref=lambda a: _median(a, True), dtypes=NUMBERS, sample_inputs=sample_median),
    OpInfo("median.dim", variants=("median", "Tensor.median"), ref=_median_dim,
           dtypes=NUMBERS, sample_inputs=sample_median_dim, error_inputs=errors_median_dim,
           out="median", marks=TWO_OUT),
    OpInfo("nanmedian.dim", variants=("nanmedian", "Tensor.nanmedian"),
           ref=lambda a, dim, keepdim=False: _median_dim(a, dim, keepdim, True),
           dtypes=NUMBERS, sample_inputs=sample_median_dim, out="nanmedian", marks=TWO_OUT),
    OpInfo("mode", variants=("mode", "Tensor.mode"), ref=_mode, dtypes=BOOL + NUMBERS,
           sample_inputs=sample_mode, out="mode", marks=TWO_OUT),
    _quantile_entry("quantile", False, False),
    _quantile_entry("quantile.scalar", False, True),
    _quantile_entry("nanquantile", True, False),
    _quantile_entry("nanquantile.scalar", True, True),
]
