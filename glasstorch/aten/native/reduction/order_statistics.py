"""Order statistics along a dimension: kthvalue, median, nanmedian, mode.

Each picks one element per row of `dim` and returns it with its position, built on
the order keys of `sort.py` (Note [Order keys]): NaN counts as the largest value, and
where several equal elements qualify the position is the one a stable sort puts at
the chosen rank (torch's selection algorithm does not promise a particular one).
`quantile` / `nanquantile` live in `quantile.py`.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.tensor_impl import share_storage
from ...meta.reduction import check_nonempty_dims, reduced_shape, reduction_dim
from ...registry import TensorMeta, op
from .extrema import (evenly_distribute_backward,  # noqa: F401  (its formulas' helpers)
                      value_selecting_reduction_backward)
from ..sorting.sort import along_last, order_keys, select_kth, stable_order
from ..pointwise.unary import BOOL, COMPLEX, refuse
from ..shape.view import legacy_type_name

_SELECT_GRAD = "value_selecting_reduction_backward(grad, dim, indices, self_sym_sizes, keepdim)"


# ----------------------------------------------------------------------------------
# Shared pieces
# ----------------------------------------------------------------------------------
def _selection_meta(self, dim: int, keepdim: bool) -> tuple:
    """(values, indices) of a reduction that picks one element along `dim`."""
    shape = reduced_shape(self._size, (reduction_dim(dim, self.dim()),), keepdim)
    return TensorMeta(shape, self._dtype), TensorMeta(shape, dtypes.int64)


def _write_picked(self: np.ndarray, dim: int, positions: np.ndarray, out: tuple) -> None:
    """Write the elements at `positions` (one per row of `dim` moved last) and the
    positions themselves into the (values, indices) results."""
    values, indices = out
    a = along_last(self, dim)
    picked = np.take_along_axis(a, positions[..., None], -1)
    values[...] = picked.reshape(values.shape)
    indices[...] = positions.reshape(indices.shape)


def _first_nan_where_any(a: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Rows holding a NaN pick their first NaN (median propagates NaN)."""
    if a.dtype.kind not in "fV":
        return positions
    nan = np.isnan(a)
    return np.where(nan.any(axis=-1), np.argmax(nan, axis=-1), positions)


# ----------------------------------------------------------------------------------
# kthvalue
# ----------------------------------------------------------------------------------
def _kthvalue_meta(self, k, dim=-1, keepdim=False, out=None):
    dim = check_nonempty_dims("kthvalue", self, dim)
    dim = dim[0] if dim else 0
    length = self._size[dim] if self._size else 1
    if k < 1 or k > length:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    if out is not None:
        if any(share_storage(t, self) and self.numel() and t.numel() for t in out):
            # torch's assert_no_overlap: a result may not be written over the input
            raise RuntimeError("unsupported operation: some elements of the input tensor and "
                               "the written-to tensor refer to a single memory location. "
                               "Please clone() the tensor before performing the operation.")
        if out[0]._dtype is not self._dtype:
            raise RuntimeError("output values must be of same type as input")
        if out[1]._dtype is not dtypes.int64:
            raise RuntimeError("output indices must be of scalar type Long")
    return _selection_meta(self, dim, keepdim)


@op("kthvalue(Tensor self, SymInt k, int dim=-1, bool keepdim=False) -> "
    "(Tensor values, Tensor indices)", meta=_kthvalue_meta, out=True, out_overload="values",
    method=True, grad={"self": _SELECT_GRAD})
def kthvalue(self, k, dim, keepdim, *, out):
    """The `k`-th smallest element of `input` along `dim`, and its position.

    Args:
        input (Tensor): a real tensor.
        k (int): the rank, from 1 (the smallest).
        dim (int): the dimension to look along (default: the last).
        keepdim (bool): keep `dim` with size 1.

    Returns:
        A named tuple ``(values, indices)``.

    Example::

        >>> torch.kthvalue(torch.tensor([4., 1., 3., 2.]), 2)
        torch.return_types.kthvalue(
        values=tensor(2.),
        indices=tensor(3))
    """
    refuse(self, "kthvalue_cpu", BOOL | COMPLEX)
    if self.size == 0:
        return
    dim = reduction_dim(dim, self.ndim)
    positions = select_kth(along_last(self, dim), k)
    _write_picked(self, dim, positions, out)


# ----------------------------------------------------------------------------------
# median, nanmedian
# ----------------------------------------------------------------------------------
def _median_meta(self):
    return TensorMeta((), self._dtype)


def _lower_median(values: np.ndarray) -> np.ndarray:
    """The lower median of a 1-D array without NaN (an empty one gives NaN)."""
    if values.size == 0:
        return np.array(np.nan)               # written as the dtype's NaN (ints: as torch)
    middle = (values.size - 1) // 2
    if values.dtype.kind == "V":                      # bfloat16: NumPy cannot partition it
        return np.partition(values.astype(np.float32), middle)[middle]
    return np.partition(values, middle)[middle]


@op("median(Tensor self) -> Tensor", meta=_median_meta, method=True,
    grad={"self": "evenly_distribute_backward(grad, self, result)"})
def median(self, *, out):
    """The lower median of all elements of `input` (NaN if any element is NaN).

    For an even count this is the smaller of the two middle elements, not their mean.
    With `dim`, returns a named tuple ``(values, indices)`` of the medians along that
    dimension and their positions.

    Args:
        input (Tensor): a real tensor.
        dim (int): the dimension to reduce.
        keepdim (bool): keep `dim` with size 1.

    Example::

        >>> torch.median(torch.tensor([1., 4., 2., 3.]))
        tensor(2.)
    """
    refuse(self, "median_cpu", BOOL | COMPLEX)
    flat = self.reshape(-1)
    if flat.dtype.kind in "fV" and np.isnan(flat).any():
        out[...] = np.nan
        return
    with np.errstate(invalid="ignore"):
        out[...] = _lower_median(flat)


@op("nanmedian(Tensor self) -> Tensor", meta=_median_meta, method=True,
    grad={"self": "evenly_distribute_backward(grad, self, result)"})
def nanmedian(self, *, out):
    """The lower median of the elements of `input` that are not NaN (NaN if none).

    Example::

        >>> torch.nanmedian(torch.tensor([1., float('nan'), 3., 2.]))
        tensor(2.)
    """
    refuse(self, "nanmedian_cpu", BOOL | COMPLEX)
    flat = self.reshape(-1)
    if flat.dtype.kind in "fV":
        flat = flat[~np.isnan(flat)]
    with np.errstate(invalid="ignore"):
        out[...] = _lower_median(flat)


def _median_dim_meta(self, dim, keepdim=False, out=None):
    dims = check_nonempty_dims("median", self, dim)
    if out is not None:
        values, indices = out
        if values._dtype is not self._dtype:
            raise RuntimeError(f"Expected tensor for 'values' to have the same type as tensor "
                               f"for argument #2 'self'; but type {legacy_type_name(values)} "
                               f"does not equal {legacy_type_name(self)} (while checking "
                               f"arguments for median)")
        if indices._dtype is not dtypes.int64:
            raise RuntimeError(f"Expected tensor for argument #1 'indices' to have scalar type "
                               f"Long; but got {legacy_type_name(indices)} instead (while "
                               f"checking arguments for median)")
    return _selection_meta(self, dims[0] if dims else 0, keepdim)


@op("median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
    meta=_median_dim_meta, out=True, out_overload="dim_values", method=True,
    grad={"self": _SELECT_GRAD})
def median_dim(self, dim, keepdim, *, out):
    """`median` along `dim`: the lower median of each row and its position."""
    refuse(self, "median_out", BOOL | COMPLEX)
    if self.size == 0:
        return
    dim = reduction_dim(dim, self.ndim)
    a = along_last(self, dim)
    positions = select_kth(a, (a.shape[-1] - 1) // 2 + 1)
    _write_picked(self, dim, _first_nan_where_any(a, positions), out)


@op("nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> "
    "(Tensor values, Tensor indices)", meta=_median_dim_meta, out=True,
    out_overload="dim_values", method=True, grad={"self": _SELECT_GRAD})
def nanmedian_dim(self, dim, keepdim, *, out):
    """`nanmedian` along `dim`: the lower median of each row's numbers, and its position
    (a row of NaNs gives NaN)."""
    refuse(self, "nanmedian_out", BOOL | COMPLEX)
    if self.size == 0:
        return
    dim = reduction_dim(dim, self.ndim)
    a = along_last(self, dim)
    order = stable_order(order_keys(a))                 # NaNs sort last
    numbers = a.shape[-1]
    if a.dtype.kind in "fV":
        numbers = numbers - np.count_nonzero(np.isnan(a), axis=-1)
    rank = np.maximum((np.asarray(numbers) - 1) // 2, 0)
    rank = np.broadcast_to(rank, a.shape[:-1])[..., None]
    _write_picked(self, dim, np.take_along_axis(order, rank, -1)[..., 0], out)


# ----------------------------------------------------------------------------------
# mode
# ----------------------------------------------------------------------------------
def _mode_meta(self, dim=-1, keepdim=False, out=None):
    dims = check_nonempty_dims("mode", self, dim)
    if out is not None:
        for tensor, dtype, name in zip(out, (self._dtype, dtypes.int64), ("values", "indices")):
            if tensor._dtype is not dtype:
                raise RuntimeError(f"expected scalar type '{dtypes.scalar_type_name(dtype)}' "
                                   f"but got '{dtypes.scalar_type_name(tensor._dtype)}' for "
                                   f"{name} output")
    return _selection_meta(self, dims[0] if dims else 0, keepdim)


def _mode_positions(a: np.ndarray) -> np.ndarray:
    """Per row of `a` (last axis): the last position of its most frequent value, the
    smallest such value when several are equally frequent. NaN sorts last and, as in
    torch (which compares with ``!=``), each NaN counts once. (With NaN present torch's
    own order depends on how its insertion sort meets values NaN does not compare to.)"""
    n = a.shape[-1]
    rows = a.reshape(-1, n)
    order = stable_order(order_keys(rows))
    ordered = np.take_along_axis(rows, order, -1)
    starts = np.ones(ordered.shape, bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]   # NaN != NaN: a run of its own
    run = np.cumsum(starts.reshape(-1)) - 1
    length = np.bincount(run)[run].reshape(ordered.shape)
    index = np.arange(ordered.shape[0])
    first = np.argmax(length, axis=-1)                 # the first longest run
    last = first + length[index, first] - 1            # stable order: its largest position
    return order[index, last].reshape(a.shape[:-1])


@op("mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
    meta=_mode_meta, out=True, out_overload="values", method=True,
    grad={"self": _SELECT_GRAD})
def mode(self, dim, keepdim, *, out):
    """The most frequent value of each row of `input` along `dim`, and its position.

    Among equally frequent values the smallest wins; its position is that of its last
    occurrence.

    Args:
        input (Tensor): the tensor.
        dim (int): the dimension to reduce (default: the last).
        keepdim (bool): keep `dim` with size 1.

    Returns:
        A named tuple ``(values, indices)``.

    Example::

        >>> torch.mode(torch.tensor([3, 1, 3, 1, 2]))
        torch.return_types.mode(
        values=tensor(1),
        indices=tensor(3))
    """
    refuse(self, "mode_cpu", COMPLEX)
    if self.size == 0:
        return
    dim = reduction_dim(dim, self.ndim)
    _write_picked(self, dim, _mode_positions(along_last(self, dim)), out)
