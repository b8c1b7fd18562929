"""quantile and nanquantile: values at fractional ranks of the sorted elements.

As torch computes them: the rows are sorted (NaN last); the rank of quantile `q` is
``q * (n - 1)`` in the input's dtype, where `n` counts the row's elements
(`quantile`: a row holding NaN gets the last rank, so its result is NaN) or its
numbers (`nanquantile`: a row of NaNs gets rank 0, NaN again). The interpolation
then reads the sorted row at that rank: `lower` / `higher` / `nearest` (half to even)
round it, `linear` blends the two neighbours with torch's `lerp`, `midpoint` takes
their mean.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype
from ....c10.tensor_impl import TensorBase, contiguous_strides, wrap_array
from ... import functions as at
from ...derivatives import derivative_helper
from ...meta.reduction import reduced_shape, reduction_dim
from ...registry import TensorMeta, op
from ..sorting.sort import along_last

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


# ----------------------------------------------------------------------------------
# Meta rules
# ----------------------------------------------------------------------------------
def _check_interpolation(interpolation: str) -> None:
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")


def _check_input(self, q_dim: int) -> None:
    if self.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q_dim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if self._dtype not in (dtypes.float32, dtypes.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")


def _shape_after(self, dim, keepdim: bool) -> tuple:
    if dim is None:
        return (1,) * self.dim() if keepdim else ()
    return reduced_shape(self._size, (reduction_dim(dim, self.dim()),), keepdim)


def _quantile_meta(self, q, dim=None, keepdim=False, interpolation="linear", out=None):
    _check_interpolation(interpolation)
    _check_input(self, q.dim())
    if q._dtype is not self._dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    return _described(self, dim, keepdim, out, (q.numel(),) if q.dim() == 1 else ())


def _quantile_scalar_meta(self, q, dim=None, keepdim=False, interpolation="linear", out=None):
    if not 0 <= q <= 1:
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
    _check_interpolation(interpolation)
    _check_input(self, 0)
    return _described(self, dim, keepdim, out, ())


def _described(self, dim, keepdim: bool, out, leading: tuple) -> TensorMeta:
    """The result: one row per quantile (for a 1-D `q`), then the reduced dims. torch
    computes the quantiles last and then moves them first, so they have stride 1 (an
    out= tensor is resized row-major instead)."""
    if out is not None and out._dtype is not self._dtype:
        raise RuntimeError("quantile() out tensor must be same dtype as the input tensor")
    shape = _shape_after(self, dim, keepdim)
    if not leading or out is not None:
        return TensorMeta(leading + shape, self._dtype)
    computed = contiguous_strides(shape + leading)
    return TensorMeta(leading + shape, self._dtype, computed[-1:] + computed[:-1])


# ----------------------------------------------------------------------------------
# The kernel
# ----------------------------------------------------------------------------------
def _lerp(start: np.ndarray, end: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """torch's lerp: exact at both ends (from `start` below weight 0.5, `end` above)."""
    step = end - start
    return np.where(np.abs(weight) < 0.5, start + weight * step, end - step * (1 - weight))


class QuantilePositions:
    """Where each quantile of each sorted row is read (arrays shaped rows x quantiles):
    the positions `below` and `above`, the `weight` of `above` (0 where only `below`
    is read), and `slope`, d(rank)/dq: the row's last index, 0 where the rank was
    overridden (a NaN row) or rounded (all but linear interpolation)."""

    def __init__(self, ordered: np.ndarray, q: np.ndarray, interpolation: str,
                 ignore_nan: bool) -> None:
        dtype = ordered.dtype.type
        nan_count = np.count_nonzero(np.isnan(ordered), axis=-1)[..., None]
        length = ordered.shape[-1]
        last = (length - nan_count - 1) if ignore_nan else np.full_like(nan_count, length - 1)
        ranks = q * last.astype(dtype)
        fixed = (ranks < 0) if ignore_nan else np.broadcast_to(nan_count > 0, ranks.shape)
        ranks = np.where(fixed, dtype(0 if ignore_nan else length - 1), ranks)
        rounding = {"lower": np.floor, "higher": np.ceil, "nearest": np.round}.get(interpolation)
        if rounding is not None:                  # np.round: half to even, as torch.round
            ranks = rounding(ranks)
        self.below = ranks.astype(np.int64)
        blended = interpolation in ("linear", "midpoint")
        self.above = np.ceil(ranks).astype(np.int64) if blended else self.below
        if interpolation == "midpoint":
            self.weight = np.full(ranks.shape, dtype(0.5))
        else:
            weight = ranks - self.below.astype(ranks.dtype)
            self.weight = weight if blended else np.zeros_like(ranks)
        linear = interpolation == "linear"
        self.slope = np.where(fixed | (not linear), dtype(0), last.astype(dtype))


def _quantile_rows(ordered: np.ndarray, q: np.ndarray, interpolation: str,
                   ignore_nan: bool) -> np.ndarray:
    """Quantiles of sorted rows: an array shaped rows x quantiles."""
    positions = QuantilePositions(ordered, q, interpolation, ignore_nan)
    values = np.take_along_axis(ordered, positions.below, -1)
    if interpolation not in ("linear", "midpoint"):
        return values
    above = np.take_along_axis(ordered, positions.above, -1)
    return _lerp(values, above, positions.weight).astype(ordered.dtype)


def _quantile_into(self, q, dim, interpolation: str, ignore_nan: bool, out) -> None:
    q_array = np.asarray(q, dtype=self.dtype)
    if q_array.size and not np.all((q_array >= 0) & (q_array <= 1)):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    rows = self.reshape(-1) if dim is None else along_last(self, reduction_dim(dim, self.ndim))
    ordered = np.sort(rows, axis=-1)                   # NaN sorts last
    result = _quantile_rows(ordered, q_array.reshape(-1), interpolation, ignore_nan)
    result = np.moveaxis(result, -1, 0)                # the quantiles lead
    out[...] = result.reshape(out.shape)


# ----------------------------------------------------------------------------------
# The gradients: a quantile blends two elements of the sorted row, ``below + weight *
# (above - below)`` (`weight`: the fractional part of the rank ``q * last_index``). So
# the input's gradient goes to the two elements read, in the proportions ``1 - weight``
# and `weight`, and `q`'s (linear interpolation only: the others round the rank, or
# use a fixed weight) is ``(above - below) * last_index``. Where the elements were read
# is worked out by the kernel's own `QuantilePositions`.
# ----------------------------------------------------------------------------------
class _Rows:
    """The input as rows to sort (the reduced dim last, or all elements in one row),
    the positions each quantile reads in them, and the gradient laid out as rows x q."""

    def __init__(self, grad, values, q, dim, keepdim: bool, interpolation: str,
                 ignore_nan: bool) -> None:
        self.shape = tuple(values.shape)
        self.dim = dim
        whole = dim is None or not self.shape
        self.rows = values.reshape(-1) if whole else values.movedim(dim, -1)
        self.order = self.rows.detach().argsort(dim=-1, stable=True)
        ordered = self.rows.detach().gather(-1, self.order).numpy()
        q_values = q.detach().numpy() if isinstance(q, TensorBase) else q
        q_values = np.asarray(q_values, dtype=ordered.dtype).reshape(-1)
        self.positions = QuantilePositions(ordered, q_values, interpolation, ignore_nan)
        q_is_vector = isinstance(q, TensorBase) and q.dim() == 1
        g = grad.movedim(0, -1) if q_is_vector else grad.unsqueeze(-1)
        if keepdim and self.shape:          # drop the kept size-1 dims
            g = g.reshape(-1, g.shape[-1])[0] if dim is None else g.squeeze(dim)
        self.grad = g

    @staticmethod
    def tensor(array: np.ndarray):
        array = np.ascontiguousarray(array)
        return wrap_array(array, from_numpy_dtype(array.dtype))

    def back(self, rows_grad):
        """A gradient laid out as the rows, in the input's shape."""
        if self.dim is None or not self.shape:
            return rows_grad.reshape(self.shape)
        return rows_grad.movedim(-1, self.dim)


@derivative_helper
def quantile_backward(grad, self, q, dim, keepdim: bool, interpolation: str,
                      ignore_nan: bool):
    """The input's gradient: each quantile's gradient split between the two sorted
    elements it blends (all of it to one element when it reads one)."""
    r = _Rows(grad, self, q, dim, keepdim, interpolation, ignore_nan)
    weight = r.tensor(r.positions.weight)
    below = r.order.gather(-1, r.tensor(r.positions.below))
    above = r.order.gather(-1, r.tensor(r.positions.above))
    rows_grad = at.zeros_like(r.rows).scatter_add(-1, below, r.grad * (1 - weight))
    rows_grad = rows_grad.scatter_add(-1, above, r.grad * weight)
    return r.back(rows_grad)


@derivative_helper
def quantile_q_backward(grad, self, q, dim, keepdim: bool, interpolation: str,
                        ignore_nan: bool):
    """`q`'s gradient: the slope of the blend, (above - below) times d(rank)/dq;
    None unless the interpolation is linear (the rank is rounded, or unused)."""
    if interpolation != "linear":
        return None
    r = _Rows(grad, self, q, dim, keepdim, interpolation, ignore_nan)
    ordered = r.rows.gather(-1, r.order)
    step = (ordered.gather(-1, r.tensor(r.positions.above)) -
            ordered.gather(-1, r.tensor(r.positions.below)))
    slope = r.tensor(r.positions.slope)
    per_row = at.where(slope == 0, at.zeros_like(step), r.grad * step * slope)
    return per_row.reshape(-1, per_row.shape[-1]).sum(0).reshape(q.shape)


_GRAD = "quantile_backward(grad, self, q, dim, keepdim, interpolation, {})"
_Q_GRAD = "quantile_q_backward(grad, self, q, dim, keepdim, interpolation, {})"


def _declare(name: str, ignore_nan: bool, doc: str):
    """The tensor-q and number-q overloads of quantile or nanquantile."""
    grad = {"self": _GRAD.format(ignore_nan), "q": _Q_GRAD.format(ignore_nan)}

    def kernel(self, q, dim, keepdim, interpolation, *, out):
        _quantile_into(self, q, dim, interpolation, ignore_nan, out)
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    tensor_q = op(f"{name}(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, "
                  f"str interpolation='linear') -> Tensor", meta=_quantile_meta, out=True,
                  method=True, grad=grad)(kernel)
    scalar_q = op(f"{name}.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, "
                  f"str interpolation='linear') -> Tensor", meta=_quantile_scalar_meta,
                  out=True, method=True, grad={"self": grad["self"]})(kernel)
    return tensor_q, scalar_q


quantile, quantile_scalar = _declare("quantile", False, """\
The `q`-th quantiles of `input` along `dim` (of all elements when `dim` is None).

    A row holding NaN gives NaN; `nanquantile` ignores NaN instead.

    Args:
        input (Tensor): a float32 or float64 tensor.
        q (float or Tensor): the quantile(s), in [0, 1]: a number, or a 1-D tensor of
            `input`'s dtype whose length becomes the result's first dimension.
        dim (int, optional): the dimension to reduce.
        keepdim (bool): keep the reduced dimension(s) with size 1.
        interpolation (str): between two elements: ``linear``, ``lower``, ``higher``,
            ``midpoint`` or ``nearest``.

    Example::

        >>> torch.quantile(torch.tensor([0., 1., 2., 3.]), torch.tensor([0.25, 0.5]))
        tensor([0.7500, 1.5000])
    """)

nanquantile, nanquantile_scalar = _declare("nanquantile", True, """\
`quantile` of the numbers of `input`, ignoring NaN (a row of NaNs gives NaN).

    Example::

        >>> torch.nanquantile(torch.tensor([0., float('nan'), 2.]), 0.5)
        tensor(1.)
    """)
