"""Indexing a tensor read as if flattened: `take`, `put`, and `take_along_dim` (NumPy's
``take_along_axis``)."""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...backends import register_meta
from ...derivatives import derivative_helper, sum_to
from ...meta.pointwise import permuted_strides
from ...meta.shape import broadcast_shapes, compute_view_stride, wrap_dim
from ...registry import TensorMeta, op
from .advanced import (check_in_range, check_out_dtype, check_out_overlap, check_written,
                       like_self, out_of_bounds)


# ----------------------------------------------------------------------------------
# take / put: the tensor read as if flattened
# ----------------------------------------------------------------------------------
def _check_long(op_name: str, index, python_words: bool = False) -> None:
    """`python_words`: torch's meta function (the Meta registrations) prints the dtype as
    Python does (torch.int32)."""
    if index._dtype is not dtypes.int64:
        name = str(index._dtype) if python_words else scalar_type_name(index._dtype)
        raise RuntimeError(f"{op_name}(): Expected a long tensor for index, but got {name}")


def _flat_range_error(numel: int):
    return lambda value: IndexError(f"out of range: tried to access index {value} on a tensor "
                                    f"of {numel} elements.")


def _take_meta(self, index, out=None, python_words: bool = False):
    _check_long("take", index, python_words)
    if self.numel() == 0 and index.numel():
        raise IndexError("take(): tried to take from an empty tensor")
    if out is not None:
        check_out_dtype(self, out, f"take(): self and out expected to have the same dtype, but "
                                   f"got self.dtype = {scalar_type_name(self._dtype)} and "
                                   f"out.dtype = {scalar_type_name(out._dtype)}")
        check_out_overlap(out, self, index)
        # out= goes through TensorIterator, which lays it out as the index is
        return TensorMeta(index._size, self._dtype, permuted_strides([index], index._size))
    return TensorMeta(index._size, self._dtype)


@op("take(Tensor self, Tensor index) -> Tensor", meta=_take_meta, out=True, method=True,
    grad={"self": "grad.new_zeros(self_sym_sizes).put(index, grad, True)",
          "index": "non_differentiable"})
def take(self, index, *, out):
    """The elements of `input` at `index`, reading `input` as if it were 1-D.

    Args:
        input (Tensor): the tensor to read.
        index (LongTensor): flat positions (negative ones count from the end).

    Example::

        >>> torch.take(torch.tensor([[1, 2], [3, 4]]), torch.tensor([0, 3]))
        tensor([1, 4])
    """
    numel = self.size
    check_in_range(index, numel, _flat_range_error(numel))
    if index.size:
        np.copyto(out, np.take(self.reshape(-1), index, mode="wrap"))


@register_meta(take)
def _take_meta_key(self, index, out=None):
    return _take_meta(self, index, out, python_words=True)


def _put_meta(self, index, source, accumulate=False, out=None):
    _check_long("put_", index)
    check_out_dtype(self, out)
    if source._dtype is not self._dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {scalar_type_name(self._dtype)} and source.dtype = "
                           f"{scalar_type_name(source._dtype)}")
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, index.numel() "
                         f"= {index.numel()}")
    check_written(out)
    return like_self(self, preserve=out is None or out is self)    # out= is made row-major


@op("put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor",
    meta=_put_meta, inplace=True, out=True, method=True,
    grad={"self": "grad if accumulate else grad.put(index, source.new_zeros(source.shape), "
                  "False)",
          "source": "grad.take(index).reshape_as(source)", "index": "non_differentiable"})
def put(self, index, source, accumulate, *, out):
    """Write `source` at flat positions `index` of `input` (read as if 1-D).

    Args:
        input (Tensor): the tensor to write into (a copy of it, out of place).
        index (LongTensor): flat positions; negative ones count from the end.
        source (Tensor): one value per index, of input's dtype.
        accumulate (bool): add into the elements instead of overwriting them.

    Example::

        >>> torch.zeros(2, 2).put_(torch.tensor([0, 3, 3]), torch.tensor([1., 2., 3.]), True)
        tensor([[1., 0.],
                [0., 5.]])
    """
    numel = self.size
    if numel == 0 and index.size:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    check_in_range(index, numel, _flat_range_error(numel))
    if not np.may_share_memory(out, self):
        np.copyto(out, self)
    flat = index.reshape(-1)
    values = source.reshape(-1)
    if out.flags.c_contiguous:
        target, where = out.reshape(-1), flat
    else:                         # a strided `out`: write through its own dims
        target, where = out, np.unravel_index(np.where(flat < 0, flat + numel, flat), out.shape)
    if accumulate:
        np.add.at(target, where, values)
    else:
        target[where] = values


@register_meta(put)
def _put_meta_key(self, index, source, accumulate=False, out=None):
    """torch's meta function checks no more than the index's dtype and the out= dtype."""
    _check_long("put_", index, python_words=True)
    check_out_dtype(self, out)
    return like_self(self, preserve=out is None)


# ----------------------------------------------------------------------------------
# take_along_dim
# ----------------------------------------------------------------------------------
def _take_along_dim_meta(self, indices, dim=None, out=None):
    if indices._dtype is not dtypes.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{scalar_type_name(indices._dtype)}")
    check_out_dtype(self, out)
    if dim is None:
        for t in (self, indices):            # torch flattens both with view(-1)
            if compute_view_stride(t._size, t._stride, (t.numel(),)) is None:
                raise RuntimeError("view size is not compatible with input tensor's size and "
                                   "stride (at least one dimension spans across two contiguous "
                                   "subspaces). Use .reshape(...) instead.")
        return TensorMeta((indices.numel(),), self._dtype)
    if len(self._size) != len(indices._size):
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {len(self._size)} dimensions for "
                           f"input, and {len(indices._size)} dimensions for indices")
    if not self._size:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = wrap_dim(dim, len(self._size))
    shape = list(broadcast_shapes(_without(self._size, d), _without(indices._size, d)))
    shape[d] = indices._size[d]
    return TensorMeta(tuple(shape), self._dtype)


def _without(size: tuple, d: int) -> tuple:
    """`size` with dim d set to 1: every dim but the indexed one broadcasts."""
    return size[:d] + (1,) + size[d + 1:]


@derivative_helper
def take_along_dim_backward(grad, self, indices, dim):
    """Add the gradient back along `dim` (summed over the dims self was broadcast in)."""
    if dim is None:
        return self.new_zeros(self.shape).put(indices.reshape(-1), grad.reshape(-1), True)
    shape = list(grad.shape)
    shape[dim] = self.shape[dim]
    wrapped = indices.remainder(self.shape[dim]).expand(grad.shape)
    full = grad.new_zeros(shape).scatter_add(dim, wrapped, grad)
    return sum_to(full, self.shape)


@op("take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor",
    meta=_take_along_dim_meta, out=True, method=True,
    grad={"self": "take_along_dim_backward(grad, self, indices, dim)",
          "indices": "non_differentiable"})
def take_along_dim(self, indices, dim, *, out):
    """Pick values along `dim` at `indices` (NumPy's ``take_along_axis``).

    `input` and `indices` broadcast in every dim but `dim`; indices are taken modulo
    the size of `dim` (so negative ones count from the end). Without `dim`, both are
    read as if flattened, and indices must lie in ``[0, input.numel())``.

    Args:
        input (Tensor): the tensor to read.
        indices (LongTensor): positions along `dim`.
        dim (int, optional): the dim to pick along.

    Example::

        >>> x = torch.tensor([[10, 30, 20], [60, 40, 50]])
        >>> torch.take_along_dim(x, x.argsort(dim=1), dim=1)
        tensor([[10, 20, 30],
                [40, 50, 60]])
    """
    if dim is None:
        flat = self.reshape(-1)
        check_in_range(indices, flat.size, out_of_bounds(0, flat.size, RuntimeError), low=0)
        np.take(flat, indices.reshape(-1), out=out, mode="wrap")
        return
    d = dim % self.ndim
    size = self.shape[d]
    if size == 0 and indices.size:
        raise ZeroDivisionError("ZeroDivisionError")       # torch's own words
    shape = out.shape
    source = np.broadcast_to(self, shape[:d] + (size,) + shape[d + 1:])
    where = np.broadcast_to(indices % max(size, 1), shape)
    np.copyto(out, np.take_along_axis(source, where, axis=d))
