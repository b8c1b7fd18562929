"""Whole slices along one dim, named by a 1-D index: index_select, index_add,
index_copy, index_fill, index_reduce.

``x.index_select(0, i)`` reads rows ``x[i[0]], x[i[1]], ...``; the writing ops do
the reverse with the slices of `source` (``x[i[k]] (op)= source[k]``). The kernels
index the dim with NumPy (`np.take` to read, assignment or the unbuffered
``ufunc.at`` to write), so there is no Python loop over slices. Every index is
checked before anything is written: a failed in-place call leaves `self` as it was.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype, scalar_type_name
from ...derivatives import derivative_helper
from ...meta.shape import wrap_dim
from ...registry import TensorMeta, op
from ..creation.copy import cast_array, checked_scalar
from .advanced import (add_at, check_in_range, check_out_dtype, check_out_overlap,
                       check_written, like_self, out_of_bounds, take_rows,
                       warn_if_expanded)
from .scatter import scatter_reduce_backward, scatter_reduce_into
from ..shape.shape import _warn_once as warn_once
from ..pointwise.unary import BOOL, COMPLEX, refuse

_INDEX_DTYPES = (dtypes.int64, dtypes.int32)


def _out_of_range(value: int) -> IndexError:
    return IndexError("index out of range in self")


def _slot(ndim: int, dim: int, index) -> tuple:
    """The NumPy index naming `index` along `dim` and everything along the other dims."""
    return (slice(None),) * dim + (index,)


def _vector(a: np.ndarray) -> np.ndarray:
    return a.reshape(-1)


def _at_least_1d(a: np.ndarray) -> np.ndarray:
    return a.reshape(1) if a.ndim == 0 else a


def _slice_shape(t, d: int) -> tuple:
    """The sizes of a tensor but `dim` (0-dim tensors count as one element)."""
    return t._size[:d] + t._size[d + 1:]


# ----------------------------------------------------------------------------------
# index_select
# ----------------------------------------------------------------------------------
def _index_select_meta(self, dim, index, out=None):
    d = wrap_dim(dim, len(self._size))
    if len(index._size) > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index._dtype not in _INDEX_DTYPES:
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    check_out_dtype(self, out, "index_select(): self and result must have the same scalar type")
    check_out_overlap(out, self, index)
    if not self._size:
        if index.numel() != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{index.numel()} value(s)")
        return TensorMeta((), self._dtype)
    return TensorMeta(self._size[:d] + (index.numel(),) + self._size[d + 1:], self._dtype)


@op("index_select(Tensor self, int dim, Tensor index) -> Tensor", meta=_index_select_meta,
    out=True, method=True,
    grad={"self": "grad.new_zeros(self_sym_sizes).index_add(dim, index, grad)",
          "index": "non_differentiable"})
def index_select(self, dim, index, *, out):
    """The slices of `input` along `dim` at the positions in `index`, in that order.

    Args:
        input (Tensor): the tensor to read.
        dim (int): the dim to select along.
        index (IntTensor or LongTensor): a 1-D (or 0-dim) tensor of positions in
            ``[0, input.size(dim))``.

    Example::

        >>> torch.arange(6).reshape(3, 2).index_select(0, torch.tensor([2, 0]))
        tensor([[4, 5],
                [0, 1]])
    """
    source = _at_least_1d(self)
    d = dim % source.ndim
    flat = _vector(index)
    check_in_range(flat, source.shape[d], _out_of_range, low=0)
    if out.flags.c_contiguous and source.ndim == out.ndim and d == 0:
        take_rows(source, flat, out)
    elif out.flags.c_contiguous and source.ndim == out.ndim:
        np.take(source, flat, axis=d, out=out, mode="wrap")     # checked: no buffering
    else:
        np.copyto(out, np.take(source, flat, axis=d).reshape(out.shape))


# ----------------------------------------------------------------------------------
# index_add / index_reduce: shared checks (torch words them for the in-place op)
# ----------------------------------------------------------------------------------
def _check_source(name: str, self, dim, index, source) -> int:
    d = wrap_dim(dim, len(self._size))
    if len(index._size) > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector, but got dim: "
                         f"{len(index._size)} with type: {scalar_type_name(index._dtype)} and "
                         f"size: {list(index._size)}")
    if index._dtype not in _INDEX_DTYPES:
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index but got: "
                           f"{scalar_type_name(index._dtype)}")
    along = source._size[d] if source._size else 1
    if index.numel() != along:
        raise RuntimeError(f"{name}(): Number of indices ({index.numel()}) should be equal to "
                           f"source.size(dim): ({along}), for dim: {d}")
    if source._dtype is not self._dtype:
        raise RuntimeError(f"{name}(): self ({scalar_type_name(self._dtype)}) and source "
                           f"({scalar_type_name(source._dtype)}) must have the same scalar type")
    if len(self._size) != len(source._size) or \
            _slice_shape(self, d) != _slice_shape(source, d):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(self._size)} "
                           f"source.shape = {list(source._size)}")
    return d


def _index_add_meta(self, dim, index, source, alpha=1, out=None):
    _check_source("index_add_", self, dim, index, source)
    check_out_dtype(self, out)
    check_written(out)
    return like_self(self)


@op("index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
    meta=_index_add_meta, inplace=True, out=True, method=True,
    grad={"self": "grad",
          "source": "grad.index_select(dim, index).expand_as(source) * alpha",
          "index": "non_differentiable"})
def index_add(self, dim, index, source, alpha, *, out):
    """Add the slices of `source` (times `alpha`) into `input` along `dim` at `index`.

    ``out[index[k]] += alpha * source[k]`` (dim 0); a position named twice gets both.

    Args:
        input (Tensor): the tensor to add into (a copy of it, unless in place).
        dim (int): the dim to add along.
        index (IntTensor or LongTensor): 1-D positions, one per slice of `source`.
        source (Tensor): the slices, of input's dtype.
        alpha (Number): the factor for `source`.

    Example::

        >>> torch.zeros(3, 2).index_add_(0, torch.tensor([0, 2, 0]), torch.ones(3, 2))
        tensor([[2., 2.],
                [0., 0.],
                [1., 1.]])
    """
    target = _at_least_1d(out)
    d = dim % target.ndim
    flat = _vector(index)
    # torch words the error by the kernel it picks: a scatter-style one for int64
    # indices into a tensor of 2+ dims with alpha 1, a slice loop otherwise
    if out.ndim > 1 and index.dtype == np.int64 and alpha == 1:
        message = out_of_bounds(d, target.shape[d], RuntimeError)
    else:
        message = _out_of_range
    check_in_range(flat, target.shape[d], message, low=0)
    if not np.may_share_memory(out, self):
        np.copyto(out, self)
    values = _at_least_1d(source)
    if alpha != 1:
        values = values * checked_scalar(alpha, from_numpy_dtype(out.dtype))
    add_at(target, d, flat, values)


_REDUCE_CHOICES = ("prod", "mean", "amax", "amin")


def _index_reduce_meta(self, dim, index, source, reduce, include_self=True, out=None):
    if reduce not in _REDUCE_CHOICES:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    _check_source("index_reduce_", self, dim, index, source)
    check_out_dtype(self, out)
    check_written(out)
    warn_once("index_reduce() is in beta and the API may change at any time.")  # as torch
    return like_self(self)


@derivative_helper
def index_reduce_backward(grad, self, dim, index, source, reduce, include_self, result):
    """Gradients of `index_reduce`: `scatter_reduce_backward` with the index spread over
    each slice of `source`."""
    shape = [1] * source.dim()
    if shape:                       # (a 0-dim source takes its one index as it is)
        shape[dim] = index.numel()
    spread = index.reshape(shape).expand(source.shape)
    return scatter_reduce_backward(grad, self, dim, spread, source, reduce, include_self,
                                   result)


@op("index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, "
    "bool include_self=True) -> Tensor", meta=_index_reduce_meta, inplace=True, out=True,
    method=True,
    grad={"self": "index_reduce_backward(grad, self, dim, index, source, reduce, "
                  "include_self, result)[0]",
          "source": "index_reduce_backward(grad, self, dim, index, source, reduce, "
                    "include_self, result)[1]",
          "index": "non_differentiable"})
def index_reduce(self, dim, index, source, reduce, include_self, *, out):
    """Reduce the slices of `source` into `input` along `dim` at `index`.

    Each indexed slice becomes the reduction (``'prod'``, ``'mean'``, ``'amax'`` or
    ``'amin'``) of the slices sent to it, and of itself when `include_self`.
    Integer means round down.

    Args:
        input (Tensor): the tensor to reduce into (a copy of it, unless in place).
        dim (int): the dim to reduce along.
        index (IntTensor or LongTensor): 1-D positions, one per slice of `source`.
        source (Tensor): the slices, of input's dtype.
        reduce (str): the reduction.
        include_self (bool): whether input's slices take part.

    Example::

        >>> x = torch.ones(3)
        >>> x.index_reduce_(0, torch.tensor([0, 0, 2]), torch.tensor([2., 3., 4.]), 'prod')
        tensor([6., 1., 4.])
    """
    refuse(out, "index_func_", BOOL | COMPLEX)
    target = _at_least_1d(out)
    d = dim % target.ndim
    flat = _vector(index)
    check_in_range(flat, target.shape[d], _out_of_range, low=0)
    if not np.may_share_memory(out, self):
        np.copyto(out, self)
    values = _at_least_1d(source)
    # as a scatter along d: every element of a slice goes to its own position
    shape = [1] * values.ndim
    shape[d] = flat.size
    spread = np.broadcast_to(flat.reshape(shape), values.shape)
    scatter_reduce_into(target, d, spread, values, reduce, include_self, opmath=False)


# ----------------------------------------------------------------------------------
# index_copy / index_fill
# ----------------------------------------------------------------------------------
def _index_copy_meta(self, dim, index, source, out=None):
    d = wrap_dim(dim, len(self._size))
    if len(index._size) > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got "
                         f"{len(index._size)})")
    along = source._size[d] if source._size else 1
    if index.numel() != along:
        raise IndexError(f"index_copy_(): Number of indices ({index.numel()}) should be equal "
                         f"to source.size(dim) ({along})")
    if index._dtype is not dtypes.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{scalar_type_name(index._dtype)}")
    if source._dtype is not self._dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, "
                           f"but got (self) {scalar_type_name(self._dtype)} and (source) "
                           f"{scalar_type_name(source._dtype)}")
    _check_slices(self, source, d)
    check_out_dtype(self, out)
    check_written(out)
    return like_self(self)


def _check_slices(self, source, d: int) -> None:
    """index_copy's slice shapes: equal in every dim but `d` (0-dim counts as 1-dim);
    torch numbers the dims of the slices (without `d`) in its message."""
    if len(self._size or (1,)) != len(source._size or (1,)):
        raise IndexError("index_copy_(): When source and destination are not scalars, their "
                         "dimensionality must match. Source dimensionality "
                         f"({len(source._size)}), destination dimensionality "
                         f"({len(self._size)})")
    mine, theirs = _slice_shape(self, d), _slice_shape(source, d)
    for i, (a, b) in enumerate(zip(mine, theirs)):
        if a != b:
            raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice "
                               f"shapes. Destination slice shape: {a} at dimension {i} and "
                               f"source slice shape: {b} at dimension {i}.")


@op("index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor",
    meta=_index_copy_meta, inplace=True, out=True, method=True,
    grad={"self": "grad.index_fill(dim, index, 0)",
          "source": "grad.index_select(dim, index).expand_as(source)",
          "index": "non_differentiable"})
def index_copy(self, dim, index, source, *, out):
    """Copy the slices of `source` into `input` along `dim` at the positions in `index`.

    ``out[index[k]] = source[k]`` (dim 0). A position named twice keeps the later slice.

    Args:
        input (Tensor): the tensor to copy into (a copy of it, unless in place).
        dim (int): the dim to copy along.
        index (LongTensor): 1-D positions, one per slice of `source`.
        source (Tensor): the slices, of input's dtype.

    Example::

        >>> torch.zeros(3, 2).index_copy_(0, torch.tensor([2, 0]), torch.tensor([[1., 2.], [3., 4.]]))
        tensor([[3., 4.],
                [0., 0.],
                [1., 2.]])
    """
    target = _at_least_1d(out)
    d = dim % target.ndim
    flat = _vector(index)
    size = target.shape[d]
    check_in_range(flat, size, out_of_bounds(d, size, prefix="index_copy_(): "), low=0)
    if not np.may_share_memory(out, self):
        np.copyto(out, self)
    target[_slot(target.ndim, d, flat)] = _at_least_1d(source)


def _index_fill_meta(self, dim, index, value, out=None):
    wrap_dim(dim, len(self._size))
    if index._dtype is not dtypes.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if len(index._size) > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if hasattr(value, "_size") and value._size:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but "
                           f"got tensor with {len(value._size)} dimension(s).")
    check_out_dtype(self, out)
    if out is self:
        warn_if_expanded(out, "index_fill_", "tensor[mask] = scalar")
    return like_self(self, preserve=out is None or out is self)    # out= is made row-major


def _index_fill_kernel(self, dim, index, value, out) -> None:
    target = _at_least_1d(out)
    d = dim % target.ndim
    flat = _vector(index)
    size = target.shape[d]
    check_in_range(flat, size, out_of_bounds(d, size))
    if not np.may_share_memory(out, self):
        np.copyto(out, self)
    target[_slot(target.ndim, d, flat)] = value


_FILL_GRAD = {"self": "grad.index_fill(dim, index, 0)", "index": "non_differentiable"}


@op("index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor",
    meta=_index_fill_meta, inplace=True, out=True, method=True,
    grad={**_FILL_GRAD, "value": "grad.index_select(dim, index.unique()).sum()"})
def index_fill_tensor(self, dim, index, value, *, out):
    """Fill the slices of `input` along `dim` at the positions in `index` with `value`.

    Args:
        input (Tensor): the tensor to fill (a copy of it, unless in place).
        dim (int): the dim to fill along.
        index (LongTensor): 1-D positions (negative ones count from the end).
        value (Number or 0-dim Tensor): the fill value.

    Example::

        >>> torch.zeros(2, 3).index_fill_(1, torch.tensor([0, 2]), 5.)
        tensor([[5., 0., 5.],
                [5., 0., 5.]])
    """
    _index_fill_kernel(self, dim, index, cast_array(value, from_numpy_dtype(out.dtype)), out)


@op("index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
    meta=_index_fill_meta, inplace=True, out=True, method=True, grad=_FILL_GRAD)
def index_fill(self, dim, index, value, *, out):
    """`index_fill` with a number as the value (checked to fit input's dtype)."""
    _index_fill_kernel(self, dim, index, checked_scalar(value, from_numpy_dtype(out.dtype)), out)
