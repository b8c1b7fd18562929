"""Counting into bins: histc, histogram, bincount.

torch places an element `x` into one of `bins` equal-width bins between the edges
`left` and `right` by ``int((x - left) * bins / (right - left))``, computed in the
input's dtype; `histogram`, which also returns the edges, then corrects that guess
against its neighbouring edges so that the counts agree with the edges it returns
(an explicit tensor of edges is searched instead). Every bin holds its left edge;
the last one holds its right edge too. Elements outside ``[left, right]`` and NaN
are not counted.

None of them has a derivative in torch: `histogram` and `bincount` (with weights)
record a node whose backward refuses, `histc`'s result does not require grad.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import type_meta_name
from ...backends import no_meta_kernel
from ...registry import TensorMeta, op
from ..pointwise.comparison import NOT_DIFFERENTIABLE
from ..creation.ranges import _linspace_real
from ..pointwise.unary import BOOL, COMPLEX, INTEGRAL, refuse

_NOT_FLOATING = BOOL | INTEGRAL | COMPLEX


# ----------------------------------------------------------------------------------
# Shared pieces
# ----------------------------------------------------------------------------------
def _check_outs(self, bins: int, out) -> None:
    """histogram's out= dtypes (hist, and bin_edges when given), then the bin count."""
    outs = () if out is None else (out if isinstance(out, tuple) else (out,))
    names = ("hist", "bin_edges")
    for tensor, name in zip(outs, names):
        if tensor._dtype is not self._dtype:
            kind = "hist tensor" if name == "hist" else "bin_edges tensor"
            raise RuntimeError(f"torch.histogram: input tensor and {kind} should have the same "
                               f"dtype, but got input {type_meta_name(self._dtype)} and {name} "
                               f"{type_meta_name(tensor._dtype)}" +
                               (" for dimension 0" if name == "bin_edges" else ""))
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           f"dimension 0")


def _guess_bins(x: np.ndarray, left, right, bins: int) -> np.ndarray:
    """The bin of each element by linear interpolation, in the input's dtype."""
    scale = x.dtype.type(bins)
    with np.errstate(all="ignore"):
        return ((x - left) * scale / (right - left)).astype(np.int64)


def _count(positions: np.ndarray, bins: int, weight, dtype) -> np.ndarray:
    """Sum 1 (or the weights) per bin: the last bin takes the right edge's elements."""
    positions = np.minimum(positions, bins - 1)
    return np.bincount(positions, weights=weight, minlength=bins).astype(dtype)


def _inside(x: np.ndarray, left, right) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return (x >= left) & (x <= right)


# ----------------------------------------------------------------------------------
# histc
# ----------------------------------------------------------------------------------
def _histc_meta(self, bins=100, min=0, max=0, out=None):
    _check_outs(self, bins, out)
    return TensorMeta((bins,), self._dtype)


def _histc_edges(x: np.ndarray, low: float, high: float) -> tuple:
    """histc's range: [min, max], the data's own when they are equal, widened by one
    on each side when that is still a point."""
    low, high = float(low), float(high)
    if low == high and x.size:
        low, high = float(np.min(x)), float(np.max(x))
    if low == high:
        low, high = low - 1, high + 1
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{_number(low)}, {_number(high)}] is not "
                           f"finite")
    if not low < high:
        raise RuntimeError("torch.histc: max must be larger than min")
    return low, high


def _number(value: float) -> str:
    """A double as C++ streams print it (``1``, ``0.5``, ``inf``)."""
    return f"{value:g}"


@op("histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor",
    meta=_histc_meta, out=True, method=True, grad={"self": NOT_DIFFERENTIABLE})
def histc(self, bins, min, max, *, out):
    """Count the elements of `input` in `bins` equal-width bins over ``[min, max]``.

    With ``min == max`` (the default), the range is that of the data. Elements outside
    the range, and NaN, are not counted.

    Args:
        input (Tensor): a floating tensor (any shape: all elements count).
        bins (int): the number of bins.
        min (Scalar): the lower end of the range.
        max (Scalar): the upper end of the range.

    Example::

        >>> torch.histc(torch.tensor([1., 2, 1]), bins=4, min=0, max=3)
        tensor([0., 2., 1., 0.])
    """
    x = self.reshape(-1)
    low, high = _histc_edges(x, min, max)
    refuse(self, "histogram_cpu", _NOT_FLOATING)
    edges = _linspace_real(low, high, bins + 1, _torch_dtype(self))
    left, right = x.dtype.type(edges[0]), x.dtype.type(edges[-1])
    chosen = x[_inside(x, left, right)]
    out[...] = _count(_guess_bins(chosen, left, right, bins), bins, None, x.dtype)


def _torch_dtype(array: np.ndarray):
    return dtypes.from_numpy_dtype(array.dtype)


# ----------------------------------------------------------------------------------
# histogram
# ----------------------------------------------------------------------------------
def _check_weight(dtype, numel: int, weight_dtype, weight_size: tuple,
                  input_size: tuple | None = None) -> None:
    """The weights: of the input's dtype, one per element (one per point of an N-d
    histogram's input, of size `input_size`)."""
    if weight_dtype is not dtype:
        raise RuntimeError(f"torch.histogramdd: if weight tensor is provided, input tensor and "
                           f"weight tensor should have the same dtype, but got "
                           f"input({type_meta_name(dtype)}), and "
                           f"weight({type_meta_name(weight_dtype)})")
    weight_numel = math.prod(weight_size)        # torch flattens the weights first
    if weight_numel != numel:
        raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have the "
                           f"same shape as the input tensor excluding its innermost dimension, "
                           f"but got input with shape {list(input_size or (numel, 1))} and "
                           f"weight with shape [{weight_numel}]")


def _histogram_bins_meta(self, bins, weight=None, density=False, out=None):
    if bins._dtype is not self._dtype:
        raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the "
                           f"same dtype, but got input with dtype {type_meta_name(self._dtype)} "
                           f"and bins for dimension 0 with dtype {type_meta_name(bins._dtype)}")
    if bins.dim() != 1:
        raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but got "
                           f"{bins.dim()} dimensions in the bins tensor for dimension 0")
    if bins.numel() == 0:
        raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, but "
                           "got 0 elements in the bins tensor for dimension 0")
    if weight is not None:
        _check_weight(self._dtype, self.numel(), weight._dtype, weight._size)
    _check_outs(self, bins.numel() - 1, out)
    return TensorMeta((bins.numel() - 1,), self._dtype), TensorMeta(bins._size, self._dtype)


def _histogram_count_meta(self, bins=100, range=None, weight=None, density=False, out=None):
    _check_outs(self, bins, out)
    if range is not None and len(range) != 2:
        raise RuntimeError(f"torch.histogramdd: for a 1-dimensional histogram range should "
                           f"have 2 elements, but got {len(range)}")
    return TensorMeta((bins,), self._dtype), TensorMeta((bins + 1,), self._dtype)


def _normalised(hist: np.ndarray, edges: np.ndarray, density: bool) -> np.ndarray:
    """With `density`, counts divided by their total and by their bin's width."""
    if not density:
        return hist
    with np.errstate(all="ignore"):
        return hist / hist.sum(dtype=hist.dtype) / np.diff(edges)


def _histogram_range(x: np.ndarray, range, dim: int = 0) -> tuple:
    """The outer edges of dimension `dim`'s bins: `range`, else the data's extremes (0
    and 1 for no data); a single point widens by half on each side."""
    if range is not None:
        low, high = float(range[0]), float(range[1])
    elif x.size:
        if x.dtype not in (np.float32, np.float64):      # no float16 here, as torch
            refuse(x, "histogramdd", frozenset({x.dtype}))
        low, high = float(np.min(x)), float(np.max(x))
    else:
        low, high = 0.0, 1.0
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{_number(low)}, "
                           f"{_number(high)}] is not finite")
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                           f"{_number(low)} max {_number(high)} for dimension {dim}")
    return (low - 0.5, high + 0.5) if low == high else (low, high)


def _searched_bins(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The bin of each element between equally spaced `edges`: the interpolated guess,
    which may be one bin off next to an edge, corrected by counting the edges <= x
    among the guess's neighbours (torch's upper_bound over that window)."""
    bins = edges.size - 1
    guess = _guess_bins(x, edges[0], edges[-1], bins)
    first = np.maximum(guess - 1, 0)
    stop = np.minimum(guess + 2, bins + 1)
    position = first - 1
    for offset in (0, 1, 2):
        edge = first + offset
        position += (edge < stop) & (edges[np.minimum(edge, bins)] <= x)
    return position


@op("histogram.bin_ct(Tensor self, int bins=100, *, float[]? range=None, "
    "Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)",
    meta=_histogram_count_meta, out=True, out_overload="bin_ct_out", method=True)
def histogram_count(self, bins, range, weight, density, *, out):
    """A histogram of the elements of `input`, and the edges of its bins.

    Args:
        input (Tensor): a floating tensor (all elements count).
        bins (int or Tensor): the number of equal-width bins, or the ascending edges
            of the bins (including the rightmost).
        range (tuple of float, optional): the outer edges (default: the data's
            smallest and largest elements).
        weight (Tensor, optional): a weight per element (default: 1 each).
        density (bool): divide each count by the total and by its bin's width.

    Returns:
        A named tuple ``(hist, bin_edges)``.

    Example::

        >>> torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.))
        torch.return_types.histogram(
        hist=tensor([0., 2., 1., 0.]),
        bin_edges=tensor([0.0000, 0.7500, 1.5000, 2.2500, 3.0000]))
    """
    hist, bin_edges = out
    x = self.reshape(-1)
    low, high = _histogram_range(x, range)
    edges = _linspace_real(low, high, bins + 1, _torch_dtype(self))
    if weight is not None:           # checked once the edges are known, as torch does
        _check_weight(_torch_dtype(x), x.size, _torch_dtype(weight), weight.shape)
    refuse(self, "histogram_cpu", _NOT_FLOATING)
    edges = edges.astype(x.dtype)
    inside = _inside(x, edges[0], edges[-1])
    weights = None if weight is None else weight.reshape(-1)[inside]
    counted = _count(_searched_bins(x[inside], edges), bins, weights, x.dtype)
    hist[...] = _normalised(counted, edges, density)
    bin_edges[...] = edges


@op("histogram.bins_tensor(Tensor self, Tensor bins, *, Tensor? weight=None, "
    "bool density=False) -> (Tensor hist, Tensor bin_edges)",
    meta=_histogram_bins_meta, out=True, out_overload="bins_tensor_out", method=True)
def histogram_edges(self, bins, weight, density, *, out):
    """`histogram` with the edges of the bins given as a 1-D tensor."""
    hist, bin_edges = out
    refuse(self, "histogram_cpu", _NOT_FLOATING)
    x = self.reshape(-1)
    count = bins.shape[0] - 1
    inside = _inside(x, bins[0], bins[-1])
    chosen = x[inside]
    position = np.searchsorted(bins, chosen, side="right") - 1
    weights = None if weight is None else weight.reshape(-1)[inside]
    counted = _count(position, count, weights, x.dtype)
    hist[...] = _normalised(counted, bins, density)
    bin_edges[...] = bins


# ----------------------------------------------------------------------------------
# bincount
# ----------------------------------------------------------------------------------
_BINCOUNT_INPUT = "bincount only supports 1-d non-negative integral inputs."


def _bincount_meta(self, weights=None, minlength=0):
    """A data-dependent size: the CPU rule reads the values (no meta kernel: below)."""
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if self.dim() != 1:
        raise RuntimeError(_BINCOUNT_INPUT)
    if weights is not None and (weights.dim() != 1 or weights._size != self._size):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    values = self._np
    if values.dtype.kind not in "iu":
        refuse(values, "bincount_cpu", frozenset({values.dtype}))
    if values.size and values.min() < 0:
        raise RuntimeError(_BINCOUNT_INPUT)
    length = max(int(values.max()) + 1 if values.size else 0, minlength)
    if weights is None or not values.size:         # no input: int64 counts, whatever
        return TensorMeta((length,), dtypes.int64)  # the weights' dtype (as torch)
    # float weights count in float, other weights in double
    float_weights = weights._dtype is dtypes.float32
    return TensorMeta((length,), dtypes.float32 if float_weights else dtypes.float64)


@op("bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor",
    meta=_bincount_meta, method=True)
def bincount(self, weights, minlength, *, out):
    """How many times each value ``0, 1, ..., max(input)`` occurs in `input` (or the sum
    of the `weights` at its occurrences).

    Args:
        input (Tensor): a 1-D tensor of non-negative integers.
        weights (Tensor, optional): one weight per element of `input`.
        minlength (int): the least length of the result.

    Example::

        >>> torch.bincount(torch.tensor([0, 1, 1, 3]))
        tensor([1, 2, 0, 1])
    """
    counts = np.bincount(self.astype(np.int64), weights=weights, minlength=minlength)
    out[...] = counts


no_meta_kernel(bincount)
