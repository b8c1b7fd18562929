"""OpInfo entries for histc, histogram and bincount (`aten/native/sorting/histogram.py`).
NumPy references: `np.histogram` over torch's edges (float64 edges would move elements
that sit on an edge, so the edges are computed in the input's dtype as torch's
linspace does), `np.bincount`."""
import numpy as np
import pytest

import glasstorch as gt

from ..convert import dtype_of, to_numpy
from ..core import FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor
from .db_sort import NAN, TWO_OUT

FLOAT_DOUBLE = (gt.float32, gt.float64)


# ----- references --------------------------------------------------------------------
def _edges(x: np.ndarray, low: float, high: float, bins: int) -> np.ndarray:
    """torch's linspace of the edges, in the input's dtype."""
    return to_numpy(gt.linspace(low, high, bins + 1, dtype=dtype_of(x)))


def _counts(x, edges, weight=None, density=False):
    """Elements per bin: left edges included, the last bin also its right edge."""
    flat = x.reshape(-1).astype(np.float64)
    inside = (flat >= edges[0]) & (flat <= edges[-1])
    position = np.searchsorted(edges.astype(np.float64), flat[inside], side="right") - 1
    position = np.minimum(position, edges.size - 2)
    weights = None if weight is None else weight.reshape(-1)[inside].astype(np.float64)
    hist = np.bincount(position, weights=weights, minlength=edges.size - 1)
    if density:
        hist = hist / hist.sum() / np.diff(edges.astype(np.float64))
    return hist.astype(x.dtype)


def _histc(x, bins=100, min=0, max=0):
    low, high = float(min), float(max)
    if low == high and x.size:
        low, high = float(np.nanmin(x)), float(np.nanmax(x))
    if low == high:
        low, high = low - 1, high + 1
    edges = _edges(x, low, high, bins)
    # histc bins by interpolation in the input's dtype, not by comparing with the edges
    flat = x.reshape(-1)
    left, right = edges[0], edges[-1]
    with np.errstate(invalid="ignore"):
        chosen = flat[(flat >= left) & (flat <= right)]
    position = ((chosen - left) * x.dtype.type(bins) / (right - left)).astype(np.int64)
    return np.bincount(np.minimum(position, bins - 1), minlength=bins).astype(x.dtype)


def _histogram(x, bins=100, range=None, weight=None, density=False):
    if isinstance(bins, np.ndarray):
        edges = bins
    else:
        if range is None:
            low, high = (float(x.min()), float(x.max())) if x.size else (0.0, 1.0)
        else:
            low, high = range
        if low == high:
            low, high = low - 0.5, high + 0.5
        edges = _edges(x, low, high, bins)
    return [_counts(x, edges, weight, density), edges]


def _bincount(x, weights=None, minlength=0):
    counts = np.bincount(x.astype(np.int64), weights=weights, minlength=minlength)
    if weights is None:
        return counts.astype(np.int64)
    return counts.astype(np.float32 if weights.dtype == np.float32 else np.float64)


# ----- samples -----------------------------------------------------------------------
def _values(shape, dtype, **kw):
    return make_tensor(shape, dtype, low=-3, high=3, **kw)


def sample_histc(dtype):
    yield SampleInput(_values((10,), dtype))
    yield SampleInput(_values((3, 4), dtype, layout="transposed"), 5)
    yield SampleInput(_values((20,), dtype), 7, -1, 2)
    yield SampleInput(_values((20,), dtype), 4, 1.0, 1.0)
    yield SampleInput(gt.tensor([1.0, 2.0, 1.0, 3.0], dtype=dtype), 4, 0, 3)
    yield SampleInput(gt.full((3,), 2.0, dtype=dtype), 3)
    yield SampleInput(gt.tensor([], dtype=dtype), 3)
    yield SampleInput(gt.tensor([NAN, 1.0, 2.0], dtype=dtype), 2, 0, 3)


def sample_histogram_count(dtype):
    yield SampleInput(_values((10,), dtype), 4)
    yield SampleInput(_values((3, 4), dtype, layout="transposed"), 5, range=(-1.0, 2.0))
    yield SampleInput(_values((6,), dtype), 3, weight=_values((6,), dtype, seed=1).abs(),
                      density=True)
    yield SampleInput(gt.tensor([1.0, 2.0, 1.0, 3.0], dtype=dtype), 4, range=(0.0, 3.0))
    yield SampleInput(gt.full((3,), 2.0, dtype=dtype), 3)
    yield SampleInput(gt.tensor([], dtype=dtype), 3)


def sample_histogram_edges(dtype):
    edges = gt.tensor([-2.0, -0.5, 0.0, 1.5, 3.0], dtype=dtype)
    yield SampleInput(_values((10,), dtype), edges)
    yield SampleInput(_values((3, 4), dtype, layout="transposed"), edges, density=True)
    yield SampleInput(_values((6,), dtype), edges, weight=_values((6,), dtype, seed=1))
    yield SampleInput(gt.tensor([1.0, 2.0, NAN, 3.0], dtype=dtype), edges)


def sample_bincount(dtype):
    yield SampleInput(make_tensor((10,), dtype, low=0, high=6))
    yield SampleInput(make_tensor((10,), dtype, low=0, high=6), minlength=9)
    yield SampleInput(make_tensor((0,), dtype, low=0, high=6), minlength=3)
    yield SampleInput(make_tensor((6,), dtype, "strided", low=0, high=4),
                      make_tensor((6,), gt.float32, seed=1))
    yield SampleInput(make_tensor((6,), dtype, low=0, high=4),
                      make_tensor((6,), gt.float64, seed=1), 2)


# ----- error inputs ------------------------------------------------------------------
META_DATA = "histogram: torch's meta function checks fewer arguments"


def errors_histc():
    x = gt.tensor([1.0, 2.0, 1.0])
    yield ErrorInput(SampleInput(x, 0), RuntimeError,
                     r"^torch\.histogram\(\): bins must be > 0, but got 0 for dimension 0$",
                     known_bug_on_meta=META_DATA)
    yield ErrorInput(SampleInput(x, 4, 3, 1), RuntimeError,
                     r"^torch\.histc: max must be larger than min$",
                     known_bug_on_meta=META_DATA)
    yield ErrorInput(SampleInput(gt.tensor([1.0, float("inf")])), RuntimeError,
                     r"^torch\.histc: range of \[1, inf\] is not finite$")
    yield ErrorInput(SampleInput(gt.tensor([1, 2]), 4, 0, 3), NotImplementedError,
                     r"^\"histogram_cpu\" not implemented for 'Long'$")


def errors_histogram():
    x = gt.tensor([1.0, 2.0, 1.0])
    yield ErrorInput(SampleInput(x, 4, range=(0.0, 3.0, 4.0)), RuntimeError,
                     r"^torch\.histogramdd: for a 1-dimensional histogram range should have 2 "
                     r"elements, but got 3$", known_bug_on_meta=META_DATA)
    yield ErrorInput(SampleInput(x, 4, range=(3.0, 0.0)), RuntimeError,
                     r"^torch\.histogramdd: min should not exceed max, but got min 3 max 0 for "
                     r"dimension 0$", known_bug_on_meta=META_DATA)
    yield ErrorInput(SampleInput(x, 4, weight=gt.tensor([1.0, 2.0])), RuntimeError,
                     r"^torch\.histogramdd: if weight tensor is provided it should have the "
                     r"same shape", known_bug_on_meta=META_DATA)
    yield ErrorInput(SampleInput(gt.tensor([1, 2]), 3), NotImplementedError,
                     r"^\"histogramdd\" not implemented for 'Long'$",
                     known_bug_on_meta="histogram: torch has no meta kernel for it")


def errors_bincount():
    yield ErrorInput(SampleInput(gt.tensor([-1, 2])), RuntimeError,
                     r"^bincount only supports 1-d non-negative integral inputs\.$")
    yield ErrorInput(SampleInput(gt.tensor([1, 2]), minlength=-1), RuntimeError,
                     r"^minlength should be >= 0$")
    yield ErrorInput(SampleInput(gt.tensor([1, 2]), gt.tensor([1.0])), RuntimeError,
                     r"^weights should be 1-d and have the same length as input$")
    yield ErrorInput(SampleInput(gt.tensor([1.0, 2.0])), NotImplementedError,
                     r"^\"bincount_cpu\" not implemented for 'Float'$")


# bincount's result size depends on the data: torch has no meta kernel for it either.
NO_META = pytest.mark.skip(reason="bincount: data-dependent size; meta tensors are refused")

OPS = [
    OpInfo("histc", variants=("histc", "Tensor.histc"), ref=_histc, dtypes=FLOATING,
           sample_inputs=sample_histc, error_inputs=errors_histc, out="histc"),
    OpInfo("histogram.bin_ct", variants=("histogram", "Tensor.histogram"), ref=_histogram,
           dtypes=FLOAT_DOUBLE, sample_inputs=sample_histogram_count,
           error_inputs=errors_histogram, out="histogram", marks=TWO_OUT),
    OpInfo("histogram.bins_tensor", variants=("histogram", "Tensor.histogram"),
           ref=_histogram, dtypes=FLOATING, sample_inputs=sample_histogram_edges,
           out="histogram", marks=TWO_OUT),
    OpInfo("bincount", variants=("bincount", "Tensor.bincount"), ref=_bincount,
           dtypes=INTEGRAL, sample_inputs=sample_bincount, error_inputs=errors_bincount,
           marks={"test_meta": NO_META}),
]
