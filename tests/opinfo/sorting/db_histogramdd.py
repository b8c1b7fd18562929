"""OpInfo entries for histogramdd's operators (`aten/native/sorting/histogramdd.py`).
NumPy reference: `np.histogramdd` over torch's edges (each dim's linspace in the
input's dtype), which places points by comparing with the edges as torch does."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor
from .db_histogram import FLOAT_DOUBLE, NAN, _edges


def _all_edges(x, bins, range):
    points = x.reshape(-1, x.shape[-1])
    edges = []
    for dim, count in enumerate(bins):
        if range is not None:
            low, high = range[2 * dim:2 * dim + 2]
        elif points.size:
            low, high = float(points[:, dim].min()), float(points[:, dim].max())
        else:
            low, high = 0.0, 1.0
        if low == high:
            low, high = low - 0.5, high + 0.5
        edges.append(_edges(x, low, high, count))
    return points, edges


def _grid(points, edges, weight, density):
    weights = None if weight is None else weight.reshape(-1)
    hist, _ = np.histogramdd(points.astype(np.float64), bins=[e.astype(np.float64)
                                                              for e in edges],
                             weights=weights)
    hist = hist.astype(points.dtype)
    if density:
        widths = np.ones((), points.dtype)
        for e in edges:
            widths = np.multiply.outer(widths, np.diff(e))
        hist = hist / hist.sum(dtype=hist.dtype) / widths
    return hist


def _bin_edges(x, bins, range=None, weight=None, density=False):
    return _all_edges(x, bins, range)[1]


def _from_counts(x, bins, range=None, weight=None, density=False):
    return _grid(*_all_edges(x, bins, range), weight, density)


def _from_tensors(x, bins, weight=None, density=False):
    return _grid(x.reshape(-1, x.shape[-1]), bins, weight, density)


def _points(shape, dtype, **kw):
    return make_tensor(shape, dtype, low=-3, high=3, **kw)


def sample_counts(dtype):
    yield SampleInput(_points((10, 2), dtype), [3, 4])
    yield SampleInput(_points((2, 5, 3), dtype), [2, 3, 2], range=[-1.0, 2.0, 0.0, 3.0, -3, 3])
    yield SampleInput(_points((8, 2), dtype), [2, 2], weight=_points((8,), dtype, seed=1).abs(),
                      density=True)
    yield SampleInput(gt.tensor([[1.0, 1.0], [1.0, 1.0]], dtype=dtype), [2, 3])
    yield SampleInput(gt.zeros((0, 2), dtype=dtype), [2, 2])
    yield SampleInput(gt.tensor([[NAN, 1.0], [0.5, 0.5]], dtype=dtype), [2, 2],
                      range=[0.0, 1.0, 0.0, 1.0])


def sample_tensors(dtype):
    edges = [gt.tensor([-2.0, 0.0, 1.5, 3.0], dtype=dtype), gt.tensor([-3.0, 3.0], dtype=dtype)]
    yield SampleInput(_points((10, 2), dtype), edges)
    yield SampleInput(_points((6, 2), dtype), edges, weight=_points((6,), dtype, seed=1),
                      density=True)


def errors_edges():
    x = gt.zeros((4, 2))
    yield ErrorInput(SampleInput(x, [2]), RuntimeError,
                     r"^histogramdd: The size of bins must be equal to the innermost dimension "
                     r"of the input\.$")
    yield ErrorInput(SampleInput(gt.zeros(3), [2, 2, 2]), RuntimeError,
                     r"^torch\.histogramdd: input tensor should have at least 2 dimensions$")
    yield ErrorInput(SampleInput(x, [2, 2], range=[0.0, 1.0]), RuntimeError,
                     r"^torch\.histogramdd: for a 2-dimensional histogram range should have 4 "
                     r"elements, but got 2$")
    yield ErrorInput(SampleInput(x, [2, 2], range=[0.0, 1.0, 1.0, 0.0]), RuntimeError,
                     r"^torch\.histogramdd: min should not exceed max, but got min 1 max 0 for "
                     r"dimension 1$")
    yield ErrorInput(SampleInput(x.long(), [2, 2]), NotImplementedError,
                     r"^\"histogramdd\" not implemented for 'Long'$")


def errors_counts():
    yield from errors_edges()
    x = gt.zeros((4, 2))
    yield ErrorInput(SampleInput(x, [2, 0]), RuntimeError,
                     r"^torch\.histogram\(\): bins must be > 0, but got 0 for dimension 1$")
    yield ErrorInput(SampleInput(x, [2, 2], weight=gt.ones(3)), RuntimeError,
                     r"^torch\.histogramdd: if weight tensor is provided it should have the same "
                     r"shape as the input tensor excluding its innermost dimension, but got "
                     r"input with shape \[4, 2\] and weight with shape \[3\]$")


NO_META = {"test_meta": pytest.mark.skip(reason="histogramdd: torch has no meta kernel; meta "
                                                "tensors are refused")}

OPS = [
    OpInfo("_histogramdd_bin_edges", variants=("_histogramdd_bin_edges",), ref=_bin_edges,
           dtypes=FLOAT_DOUBLE, sample_inputs=sample_counts, error_inputs=errors_edges,
           marks=NO_META),
    OpInfo("_histogramdd_from_bin_cts", variants=("_histogramdd_from_bin_cts",),
           ref=_from_counts, dtypes=FLOAT_DOUBLE, sample_inputs=sample_counts,
           error_inputs=errors_counts, marks=NO_META),
    OpInfo("_histogramdd_from_bin_tensors", variants=("_histogramdd_from_bin_tensors",),
           ref=_from_tensors, dtypes=FLOAT_DOUBLE, sample_inputs=sample_tensors,
           marks=NO_META),
]
