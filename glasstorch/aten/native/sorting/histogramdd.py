"""`histogramdd`: counting points of N coordinates into an N-dimensional grid of bins.

The input's innermost dim holds each point's coordinates; every coordinate is placed
along its own dim as `histogram` places elements (equal-width bins between the
range's or the data's extremes, or explicit edges searched), and a point counts in
the grid cell its N bins name when it lies inside the range on every dim. torch
splits the work into operators, as here: `_histogramdd_bin_edges` gives each dim's
edges, `_histogramdd_from_bin_cts` / `_histogramdd_from_bin_tensors` the counts, and
the Python function `torch.histogramdd` puts them together.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import type_meta_name
from ....c10.tensor_impl import TensorBase
from ...backends import no_meta_kernel
from ...registry import TensorMeta, op
from ...return_types import declare, lookup
from ..creation.ranges import _linspace_real
from ..pointwise.unary import refuse
from .histogram import (_NOT_FLOATING, _check_weight, _histogram_range, _inside,
                        _searched_bins)

declare("histogramdd", ("hist", "bin_edges"))
_RESULT = lookup("histogramdd")
_OPTIONS = "float[]? range=None, Tensor? weight=None, bool density=False"


def _check_points(self, count: int, weight, name: str = "size of bins") -> int:
    """The input as points (at least 2 dims), `count` bins per coordinate, the weights;
    returns N, the coordinates per point."""
    if self.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = self._size[-1]
    if count != n:
        raise RuntimeError(f"histogramdd: The {name} must be equal to the innermost "
                           f"dimension of the input.")
    if weight is not None:
        _check_weight(self._dtype, self.numel() // max(n, 1), weight._dtype, weight._size,
                      self._size)
    return n


def _check_range(self, bins, range) -> None:
    n = _check_points(self, len(bins), None)
    if range is not None and len(range) != 2 * n:
        raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range should "
                           f"have {2 * n} elements, but got {len(range)}")


def _check_counts(self, bins, range, weight) -> None:
    _check_range(self, bins, range)
    _check_points(self, len(bins), weight)
    for dim, count in enumerate(bins):
        if count <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {count} for "
                               f"dimension {dim}")


def _edges_meta(self, bins, range=None, weight=None, density=False):
    """The edges alone: torch checks neither the counts' sign nor the weights here."""
    _check_range(self, bins, range)
    return tuple(TensorMeta((max(count + 1, 0),), self._dtype) for count in bins)


def _points(self: np.ndarray) -> np.ndarray:
    refuse(self, "histogramdd", _NOT_FLOATING | {np.dtype(np.float16)})
    return self.reshape(-1, self.shape[-1])


def _edges(points: np.ndarray, bins, range) -> list:
    """Each dim's equally spaced edges, between the range's or the data's extremes."""
    dtype = dtypes.from_numpy_dtype(points.dtype)
    edges = []
    for dim, count in enumerate(bins):
        pair = None if range is None else range[2 * dim:2 * dim + 2]
        low, high = _histogram_range(points[:, dim], pair, dim)
        edges.append(_linspace_real(low, high, count + 1, dtype).astype(points.dtype))
    return edges


@op(f"_histogramdd_bin_edges(Tensor self, int[] bins, *, {_OPTIONS}) -> Tensor[]",
    meta=_edges_meta)
def histogramdd_bin_edges(self, bins, range, weight, density, *, out):
    """The edges of each dim's bins for `histogramdd` with bin counts."""
    for target, edges in zip(out, _edges(_points(self), bins, range)):
        target[...] = edges


def _count_grid(points: np.ndarray, edges: list, weight, density: bool, searched) -> np.ndarray:
    """The weighted count of the points in each cell of the grid `edges` draw."""
    counts = tuple(e.size - 1 for e in edges)
    inside = np.ones(points.shape[0], bool)
    for dim, e in enumerate(edges):
        inside &= _inside(points[:, dim], e[0], e[-1])
    chosen = points[inside]
    positions = [np.minimum(searched(chosen[:, dim], e), count - 1)
                 for dim, (e, count) in enumerate(zip(edges, counts))]
    flat = np.ravel_multi_index(positions, counts) if chosen.size else np.zeros(0, np.int64)
    weights = None if weight is None else weight.reshape(-1)[inside]
    hist = np.bincount(flat, weights, int(np.prod(counts))).reshape(counts)
    hist = hist.astype(points.dtype)
    if density:
        with np.errstate(all="ignore"):
            widths = np.ones((), points.dtype)
            for e in edges:
                widths = np.multiply.outer(widths, np.diff(e))
            hist = hist / hist.sum(dtype=hist.dtype) / widths
    return hist


def _counts_meta(self, bins, range=None, weight=None, density=False):
    _check_counts(self, bins, range, weight)
    return TensorMeta(tuple(bins), self._dtype)


@op(f"_histogramdd_from_bin_cts(Tensor self, int[] bins, *, {_OPTIONS}) -> Tensor",
    meta=_counts_meta)
def histogramdd_from_bin_cts(self, bins, range, weight, density, *, out):
    """The counts of `histogramdd` with a number of equal-width bins per dim."""
    points = _points(self)
    out[...] = _count_grid(points, _edges(points, bins, range), weight, density,
                           _searched_bins)


def _tensors_meta(self, bins, weight=None, density=False):
    n = self._size[-1] if self.dim() >= 2 else None
    if n is not None and len(bins) != n:
        raise RuntimeError(f"torch.histogramdd: expected {n} sequences of bin edges for a "
                           f"{n}-dimensional histogram but got {len(bins)}")
    _check_points(self, len(bins), weight)
    for dim, edges in enumerate(bins):
        if edges._dtype is not self._dtype:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have "
                               f"the same dtype, but got input with dtype "
                               f"{type_meta_name(self._dtype)} and bins for dimension {dim} "
                               f"with dtype {type_meta_name(edges._dtype)}")
        if edges.dim() != 1:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but "
                               f"got {edges.dim()} dimensions in the bins tensor for "
                               f"dimension {dim}")
    return TensorMeta(tuple(edges.numel() - 1 for edges in bins), self._dtype)


def _searched(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    return np.searchsorted(edges, values, side="right") - 1


@op("_histogramdd_from_bin_tensors(Tensor self, Tensor[] bins, *, Tensor? weight=None, "
    "bool density=False) -> Tensor", meta=_tensors_meta)
def histogramdd_from_bin_tensors(self, bins, weight, density, *, out):
    """The counts of `histogramdd` with each dim's bin edges given."""
    out[...] = _count_grid(_points(self), list(bins), weight, density, _searched)


# torch registers no meta kernel for them: meta tensors are refused, as there
for _operator in (histogramdd_bin_edges, histogramdd_from_bin_cts, histogramdd_from_bin_tensors):
    no_meta_kernel(_operator)


def histogramdd_function(input, bins, range=None, weight=None, density: bool = False):
    """A histogram of the points in `input` (its innermost dim holds each point's N
    coordinates), and the edges of each dim's bins.

    Args:
        input (Tensor): float32 or float64 points, of at least 2 dims.
        bins (int, list of ints, or list of Tensors): the bins of each dim: one count
            for all, a count per dim, or each dim's ascending edges.
        range (list of float, optional): ``[min0, max0, min1, max1, ...]``, the outer
            edges per dim (default: the data's extremes).
        weight (Tensor, optional): a weight per point (default: 1 each).
        density (bool): divide each count by the total and by its cell's volume.

    Returns:
        A named tuple ``(hist, bin_edges)``, `bin_edges` a tuple of N tensors.

    Example::

        >>> torch.histogramdd(torch.tensor([[0., 1.], [1., 0.], [2., 0.]]), bins=2).hist
        tensor([[0., 1.],
                [2., 0.]])
    """
    if isinstance(bins, int):
        bins = [bins] * (input.shape[-1] if input.dim() else 1)
    if len(bins) and isinstance(bins[0], TensorBase):
        hist = histogramdd_from_bin_tensors.call(input, list(bins), weight, density)
        return _RESULT((hist, tuple(bins)))
    edges = histogramdd_bin_edges.call(input, list(bins), range, weight, density)
    hist = histogramdd_from_bin_cts.call(input, list(bins), range, weight, density)
    return _RESULT((hist, tuple(edges)))
