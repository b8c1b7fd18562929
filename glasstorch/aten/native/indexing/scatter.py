"""Element-wise addressing along one dim: gather, scatter (src / value / reduce=),
scatter_add, scatter_reduce.

An `index` tensor has the rank of `self`; each of its elements names a position along
`dim`, and takes the rest of its coordinates from where it sits in `index`:
``gather``: ``out[i][j] = self[index[i][j]][j]`` (dim 0); ``scatter``:
``self[index[i][j]][j] = src[i][j]``. `index` may be smaller than `self` (and `src`)
in every dim; only its own extent is read or written.

The kernels turn `index` into full coordinates (the index along `dim`, broadcast
`arange`s elsewhere) and let NumPy gather or assign; reductions use the unbuffered
``ufunc.at`` (so duplicate positions all count). Duplicates without a reduction
keep the last value in `index`'s row-major order, as torch's CPU kernel does.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype
from ....c10.tensor_impl import contiguous_strides
from ...derivatives import derivative_helper
from ...meta.shape import check_no_partial_overlap, wrap_dim
from ...registry import TensorMeta, op
from ..creation.copy import checked_scalar
from .advanced import (add_at, check_in_range, check_out_dtype, check_out_overlap,
                       check_written, like_self, out_of_bounds, take_rows)
from ..shape.shape import _warn_once as warn_once
from ..pointwise.unary import BOOL, COMPLEX, refuse

_INDEX_DTYPES = (dtypes.int64, dtypes.int32)
_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
_REDUCED_FLOATS = (np.dtype(np.float16), np.dtype(dtypes.bfloat16._np))
_UFUNCS = {"sum": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum,
           "mean": np.add}


# ----------------------------------------------------------------------------------
# Checks (torch's scatter_gather_dtype_check and shape checks)
# ----------------------------------------------------------------------------------
def _rank(t) -> int:
    """0-dim tensors count as 1-dim of size 1 here, as in torch."""
    return max(len(t._size), 1)


def _sizes(t) -> tuple:
    return t._size if t._size else (1,)


def _check_index_dtype(name: str, index) -> None:
    if index._dtype not in _INDEX_DTYPES and index.numel():     # an empty index is any dtype
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")


def _check_scatter(name: str, self, dim: int, index, src=None) -> int:
    """The checks shared by every scatter; returns the wrapped dim."""
    d = wrap_dim(dim, len(self._size))
    _check_index_dtype(name, index)
    if src is not None and src._dtype is not self._dtype:
        raise RuntimeError(f"{name if name != 'scatter_add' else 'scatter'}(): Expected "
                           f"self.dtype to be equal to src.dtype")
    if index.numel() == 0:
        return d
    if _rank(index) != _rank(self):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if src is not None and _rank(index) != _rank(src):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    wanted, have = _sizes(index), _sizes(self)
    too_big = any(wanted[i] > have[i] for i in range(len(wanted)) if i != d)
    if src is not None:
        too_big = too_big or any(w > s for w, s in zip(wanted, _sizes(src)))
    if too_big:
        message = (f"Expected index {list(index._size)} to be no larger than self "
                   f"{list(self._size)} apart from dimension {d}")
        if src is not None:
            message += f" and to be no larger size than src {list(src._size)}"
        raise RuntimeError(message)
    return d


# ----------------------------------------------------------------------------------
# Kernel helpers
# ----------------------------------------------------------------------------------
def _at_least_1d(*arrays):
    return [a.reshape(1) if a.ndim == 0 else a for a in arrays]


def _flat_positions(index: np.ndarray, dim: int, shape: tuple) -> np.ndarray:
    """Where each element of `index` points in a row-major array of `shape`, as one
    flat position (the index along `dim`, its own coordinates elsewhere)."""
    strides = contiguous_strides(shape)
    positions = index.astype(np.int64)          # int32 indices: no overflow below
    if strides[dim] != 1:
        positions *= strides[dim]
    for k, n in enumerate(index.shape):
        if k != dim and n > 1:
            step = np.arange(n, dtype=np.int64) * strides[k]
            positions = positions + step.reshape((n,) + (1,) * (index.ndim - k - 1))
    return positions


def _targets(out: np.ndarray, index: np.ndarray, dim: int) -> tuple:
    """(array, NumPy index) naming the elements of `out` that `index` addresses: flat
    positions into a row-major `out` (1-D fancy indexing is NumPy's fastest), else
    one coordinate array per dim."""
    if out.flags.c_contiguous:
        return out.reshape(-1), _flat_positions(index, dim, out.shape)
    grids = list(np.ogrid[tuple(slice(n) for n in index.shape)])
    grids[dim] = index
    return out, tuple(grids)


def _expanded_along(index: np.ndarray, dim: int) -> bool:
    """Whether `index` names one position per slice along `dim` (every other dim of
    stride 0), with slices of several elements."""
    return index.ndim > 1 and index.size > index.shape[dim] and \
        all(stride == 0 for d, stride in enumerate(index.strides) if d != dim)


def _extent(src: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The part of `src` that `index` covers (its leading corner of index's shape)."""
    return src[tuple(slice(n) for n in index.shape)]


def _checked_index(index: np.ndarray, size: int, d: int) -> None:
    check_in_range(index, size, out_of_bounds(d, size, RuntimeError), low=0)


def _prepare(out, self, dim: int, index) -> tuple:
    """Copy self into out (unless it is self), check index; returns 1-d-at-least views."""
    if not np.may_share_memory(out, self):
        np.copyto(out, self)
    out, index = _at_least_1d(out, index)
    _checked_index(index, out.shape[dim], dim)
    return out, index


def _identity(reduce: str, dtype: np.dtype):
    """The value a position starts from when `include_self` is False."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "b":
        return reduce == "amin"
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return info.min if reduce == "amax" else info.max
    return -np.inf if reduce == "amax" else np.inf


def scatter_reduce_into(out: np.ndarray, dim: int, index: np.ndarray, values,
                        reduce: str, include_self: bool = True, opmath: bool = True) -> None:
    """Reduce `values` (broadcast to index's shape) into `out` at index's positions.

    With `opmath`, float16 / bfloat16 accumulate in float32 and round once at the end,
    as torch's scatter kernels do (index_reduce rounds after every step instead).
    """
    if opmath and out.dtype in _REDUCED_FLOATS:
        wide = out.astype(np.float32)
        scatter_reduce_into(wide, dim, index, np.asarray(values).astype(np.float32), reduce,
                            include_self, opmath=False)
        np.copyto(out, wide, casting="unsafe")
        return
    values = np.broadcast_to(values, index.shape)
    if reduce == "sum" and include_self and _expanded_along(index, dim):
        # one position per slice (an index expanded from 1-D, as for an index_add):
        # whole slices added in rounds, in np.add.at's order
        corner = tuple(slice(None) if d == dim else slice(n) for d, n in enumerate(index.shape))
        along = index[tuple(slice(None) if d == dim else 0 for d in range(index.ndim))]
        add_at(out[corner], dim, along, values)
        return
    target, where = _targets(out, index, dim)
    if target is not out:                # flat positions take flat values
        values = values.reshape(-1)
        where = where.reshape(-1)
    if not include_self:
        target[where] = _identity(reduce, out.dtype)
    if reduce != "mean":
        _UFUNCS[reduce].at(target, where, values)
        return
    counts = np.full(out.shape, 1 if include_self else 0, np.int64)
    np.add.at(counts.reshape(-1) if target is not out else counts, where, 1)
    np.add.at(target, where, values)
    counts[counts == 0] = 1
    if out.dtype.kind in "iub":
        np.floor_divide(out, counts, out=out, casting="unsafe")
    else:
        np.divide(out, counts, out=out, casting="unsafe")


# ----------------------------------------------------------------------------------
# gather
# ----------------------------------------------------------------------------------
def _gather_meta(self, dim, index, sparse_grad=False, out=None):
    d = wrap_dim(dim, len(self._size))
    _check_index_dtype("gather", index)
    if index.numel() == 0:              # torch checks an empty index no further
        check_out_dtype(self, out)
        return TensorMeta(index._size, self._dtype)
    if _rank(index) != _rank(self):
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    wanted, have = _sizes(index), _sizes(self)
    for i in range(len(wanted)):
        if i != d and wanted[i] > have[i]:
            raise RuntimeError(f"Size does not match at dimension {i} expected index "
                               f"{list(index._size)} to be no larger than self "
                               f"{list(self._size)} apart from dimension {d}")
    check_out_dtype(self, out)
    check_out_overlap(out, self)
    if out is not None:                  # torch lets out= be the index itself, not a part
        check_no_partial_overlap(out, index)
    return TensorMeta(index._size, self._dtype)


@op("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
    meta=_gather_meta, out=True, method=True,
    grad={"self": "grad.new_zeros(self_sym_sizes).scatter_add(dim, index, grad)",
          "index": "non_differentiable"})
def gather(self, dim, index, sparse_grad, *, out):
    """Read `input` along `dim` at the positions `index` holds.

    ``out[i][j][k] = input[index[i][j][k]][j][k]`` for ``dim == 0`` (and alike for
    other dims). `index` has input's rank and is no larger in the other dims.

    Args:
        input (Tensor): the tensor to read.
        dim (int): the dim `index` addresses.
        index (LongTensor): positions along `dim`, in ``[0, input.size(dim))``.
        sparse_grad (bool): accepted for compatibility; gradients are dense.

    Example::

        >>> torch.gather(torch.tensor([[1, 2], [3, 4]]), 1, torch.tensor([[0, 0], [1, 0]]))
        tensor([[1, 1],
                [4, 3]])
    """
    if index.size == 0:
        return
    source, index, result = _at_least_1d(self, index, out)
    d = dim % source.ndim
    _checked_index(index, source.shape[d], d)
    if d == 0 and _expanded_along(index, 0) and index.shape[1:] == source.shape[1:] and \
            result.flags.c_contiguous:          # whole rows: an index_select
        take_rows(source, index[(slice(None),) + (0,) * (index.ndim - 1)], result)
        return
    source = np.ascontiguousarray(source)
    positions = _flat_positions(index, d, source.shape)
    if result.flags.c_contiguous:
        np.take(source.reshape(-1), positions, out=result, mode="wrap")   # checked already
    else:
        np.copyto(result, np.take(source.reshape(-1), positions))


# ----------------------------------------------------------------------------------
# scatter: src and value, with the legacy reduce='add' | 'multiply'
# ----------------------------------------------------------------------------------
_LEGACY_REDUCE = {"add": "sum", "multiply": "prod"}


def _legacy_reduce(reduce: str) -> str:
    if reduce not in _LEGACY_REDUCE:
        raise RuntimeError("reduce argument must be either add or multiply.")
    return _LEGACY_REDUCE[reduce]


def _scatter_src_meta(self, dim, index, src, out=None):
    _check_scatter("scatter", self, dim, index, src)
    check_out_dtype(self, out)
    check_written(out)
    return like_self(self)


def _scatter_value_meta(self, dim, index, value, out=None):
    """The kernels convert, and check, the value (torch's meta function does not)."""
    _check_scatter("scatter", self, dim, index)
    check_out_dtype(self, out)
    check_written(out)
    return like_self(self)


def _scatter_reduce_meta(self, dim, index, src, reduce, out=None):
    _check_scatter("scatter", self, dim, index, src)
    _legacy_reduce(reduce)
    check_out_dtype(self, out)
    check_written(out)
    warn_once("The reduce argument of torch.scatter with Tensor src is deprecated and will "
              "be removed in a future PyTorch release. Use torch.scatter_reduce instead for "
              "more reduction options.")         # once per process, as torch
    return like_self(self)


def _scatter_value_reduce_meta(self, dim, index, value, reduce, out=None):
    _legacy_reduce(reduce)
    return _scatter_value_meta(self, dim, index, value, out)


_SCATTER_GRAD = {"self": "grad.scatter(dim, index, 0)", "index": "non_differentiable"}


@op("scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
    meta=_scatter_src_meta, inplace=True, out=True, method=True,
    grad={**_SCATTER_GRAD, "src": "grad.gather(dim, index)"})
def scatter(self, dim, index, src, *, out):
    """Write `src` into a copy of `input` along `dim` at the positions `index` holds.

    ``out[index[i][j]][j] = src[i][j]`` for ``dim == 0``. `src` may also be a number
    (`value`), written at every indexed position. With ``reduce='add'`` or
    ``'multiply'`` the values are combined with what is there (prefer
    `scatter_reduce`). Where `index` names a position twice, the later value wins.

    Args:
        input (Tensor): the tensor to write into (a copy of it, unless in place).
        dim (int): the dim `index` addresses.
        index (LongTensor): positions along `dim`.
        src (Tensor or float): the values (as `value`: one number).
        reduce (str, optional): ``'add'`` or ``'multiply'``.

    Example::

        >>> torch.zeros(2, 3).scatter_(0, torch.tensor([[1, 0, 1]]), torch.ones(1, 3))
        tensor([[0., 1., 0.],
                [1., 0., 1.]])
    """
    out, index = _prepare(out, self, dim, index)
    src, = _at_least_1d(src)
    target, where = _targets(out, index, dim % out.ndim)
    target[where] = _extent(src, index)


@op("scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
    meta=_scatter_value_meta, inplace=True, out=True, method=True, grad=_SCATTER_GRAD)
def scatter_value(self, dim, index, value, *, out):
    """`scatter` with one number written at every indexed position."""
    value = checked_scalar(value, from_numpy_dtype(out.dtype))
    out, index = _prepare(out, self, dim, index)
    target, where = _targets(out, index, dim % out.ndim)
    target[where] = value


# scatter with reduce= has no derivative formula, in torch either: backward through it
# fails by name ("derivative for aten::scatter is not implemented")
@op("scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor",
    meta=_scatter_reduce_meta, inplace=True, out=True, method=True)
def scatter_reduce_legacy(self, dim, index, src, reduce, *, out):
    """`scatter` combining `src` with what is there: ``reduce='add'`` or ``'multiply'``."""
    out, index = _prepare(out, self, dim, index)
    src, = _at_least_1d(src)
    scatter_reduce_into(out, dim % out.ndim, index, _extent(src, index), _legacy_reduce(reduce))


@op("scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) "
    "-> Tensor", meta=_scatter_value_reduce_meta, inplace=True, out=True, method=True)
def scatter_value_reduce(self, dim, index, value, reduce, *, out):
    """`scatter` combining one number with what is there (``'add'`` or ``'multiply'``)."""
    value = checked_scalar(value, from_numpy_dtype(out.dtype))
    out, index = _prepare(out, self, dim, index)
    scatter_reduce_into(out, dim % out.ndim, index, value, _legacy_reduce(reduce))


# ----------------------------------------------------------------------------------
# scatter_add, scatter_reduce
# ----------------------------------------------------------------------------------
def _scatter_add_meta(self, dim, index, src, out=None):
    _check_scatter("scatter_add", self, dim, index, src)
    check_out_dtype(self, out)
    check_written(out)
    return like_self(self)


@op("scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
    meta=_scatter_add_meta, inplace=True, out=True, method=True,
    grad={"self": "grad", "src": "grad.gather(dim, index)", "index": "non_differentiable"})
def scatter_add(self, dim, index, src, *, out):
    """Add `src` into a copy of `input` along `dim` at the positions `index` holds.

    ``out[index[i][j]][j] += src[i][j]`` for ``dim == 0``; every duplicate adds.

    Args:
        input (Tensor): the tensor to add into (a copy of it, unless in place).
        dim (int): the dim `index` addresses.
        index (LongTensor): positions along `dim`.
        src (Tensor): the values to add.

    Example::

        >>> torch.zeros(3).scatter_add(0, torch.tensor([0, 0, 2]), torch.ones(3))
        tensor([2., 0., 1.])
    """
    out, index = _prepare(out, self, dim, index)
    src, = _at_least_1d(src)
    scatter_reduce_into(out, dim % out.ndim, index, _extent(src, index), "sum")


def _scatter_reduce_two_meta(self, dim, index, src, reduce, include_self=True, out=None):
    _check_scatter("scatter_reduce", self, dim, index, src)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    check_out_dtype(self, out)
    check_written(out)
    return like_self(self)


@derivative_helper
def scatter_reduce_backward(grad, self, dim, index, src, reduce, include_self, result):
    """Gradients of `scatter_reduce` for self and src: ``(grad_self, grad_src)``.

    sum passes the gradient through; mean divides it by each position's count; prod
    multiplies it by the product of the other factors (result / factor, so exact for
    nonzero factors); amax / amin share it evenly among the values equal to the
    result, as torch does. Positions `include_self=False` overwrote get no gradient
    for self.
    """
    if reduce == "sum":
        grad_self = grad if include_self else grad.scatter(dim, index, 0)
        return grad_self, grad.gather(dim, index)
    if reduce == "mean":
        counts = self.new_ones(self.shape) if include_self else self.new_zeros(self.shape)
        counts = counts.scatter_add(dim, index, src.new_ones(src.shape)).clamp(min=1)
        share = grad / counts
        grad_self = share if include_self else share.scatter(dim, index, 0)
        return grad_self, share.gather(dim, index)
    if reduce == "prod":
        grad_self = grad * result / self if include_self else grad.scatter(dim, index, 0)
        return grad_self, (grad * result).gather(dim, index) / src
    chosen_src = (src == result.gather(dim, index)).to(grad.dtype)
    if include_self:
        chosen_self = (self == result).to(grad.dtype)
        ties = chosen_self.scatter_add(dim, index, chosen_src)
    else:
        ties = self.new_zeros(self.shape).scatter_add(dim, index, chosen_src)
    share = grad / ties.clamp(min=1)
    grad_self = share * chosen_self if include_self else grad.scatter(dim, index, 0)
    return grad_self, share.gather(dim, index) * chosen_src


@op("scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, "
    "bool include_self=True) -> Tensor", meta=_scatter_reduce_two_meta, inplace=True,
    out=True, method=True,
    grad={"self": "scatter_reduce_backward(grad, self, dim, index, src, reduce, "
                  "include_self, result)[0]",
          "src": "scatter_reduce_backward(grad, self, dim, index, src, reduce, "
                 "include_self, result)[1]",
          "index": "non_differentiable"})
def scatter_reduce(self, dim, index, src, reduce, include_self, *, out):
    """Reduce `src` into a copy of `input` along `dim` at the positions `index` holds.

    Every position named by `index` becomes the reduction (``'sum'``, ``'prod'``,
    ``'mean'``, ``'amax'`` or ``'amin'``) of the `src` values sent to it, and of its
    own value when `include_self`. Integer means round down. Positions no index
    names keep their value.

    Args:
        input (Tensor): the tensor to reduce into (a copy of it, unless in place).
        dim (int): the dim `index` addresses.
        index (LongTensor): positions along `dim`.
        src (Tensor): the values to reduce.
        reduce (str): the reduction.
        include_self (bool): whether input's values take part.

    Example::

        >>> x = torch.tensor([1., 2., 3.])
        >>> x.scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([5., 7., 4.]), "amax")
        tensor([7., 4., 3.])
    """
    if reduce == "mean":
        refuse(out, "scatter_gather_tensor_cpu_reduce_mean", BOOL)
    elif reduce in ("amax", "amin"):
        refuse(out, f"scatter_gather_tensor_cpu_reduce_{reduce}", COMPLEX)
    out, index = _prepare(out, self, dim, index)
    src, = _at_least_1d(src)
    scatter_reduce_into(out, dim % out.ndim, index, _extent(src, index), reduce, include_self)
