"""Bool masks: masked_fill, masked_scatter, masked_select, and the positions of the
nonzero elements: nonzero (and ``as_tuple``), argwhere.

`mask` broadcasts against `self` (the functional forms return the broadcast shape).
A mask names elements in row-major order; masked_select reads them in that order,
masked_scatter fills them from `source` read in that order.

`nonzero`'s result shape depends on the data, so its meta rule counts the nonzero
elements (on CPU; a meta tensor has no data to count, and torch refuses it too).
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype, scalar_type_name, type_meta_name
from ... import functions as at
from ...derivatives import derivative_helper, sum_to
from ...backends import no_meta_kernel, register_meta
from ...meta.shape import broadcast_shapes
from ...dispatcher import ops
from ...registry import TensorMeta, composite, op
from ..creation.copy import cast_array, checked_scalar
from .advanced import (META_NONZERO, check_out_dtype, check_out_overlap, check_written,
                       warn_if_expanded)
from ..shape.split_views import unbind
from ..shape.view import expand, view_


# ----------------------------------------------------------------------------------
# masked_fill
# ----------------------------------------------------------------------------------
def _masked_fill_meta(self, mask, value, out=None, python_words: bool = False):
    """The value is converted, and checked, by the kernels. `python_words`: the words of
    torch's meta function (the Meta registration)."""
    if mask._dtype is not dtypes.bool:
        raise RuntimeError(f"expected predicate to be bool, got {mask._dtype}" if python_words
                           else f"masked_fill_ only supports boolean masks, but got mask with "
                                f"dtype {type_meta_name(mask._dtype)}")
    if hasattr(value, "_size") and value._size:
        if python_words:
            raise RuntimeError(f"only supports a 0-dimensional value tensor, but got tensor "
                               f"with {len(value._size)} dimension")
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but "
                           f"got tensor with {len(value._size)} dimension(s).")
    check_out_dtype(self, out)
    if out is self:
        warn_if_expanded(out, "masked_fill_", "tensor[mask] = scalar")
    return TensorMeta(broadcast_shapes(mask._size, self._size), self._dtype)


def _fill_where(self, mask, value, out) -> None:
    if not np.may_share_memory(out, self):
        np.copyto(out, self)
    np.copyto(out, value, where=mask)


_FILL_GRAD = {"self": "grad.masked_fill(mask, 0)", "mask": "non_differentiable"}


@op("masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor",
    meta=_masked_fill_meta, inplace=True, out=True, method=True, out_overload="Tensor_out",
    grad={**_FILL_GRAD, "value": "grad.masked_fill(mask.logical_not(), 0).sum()"})
def masked_fill_tensor(self, mask, value, *, out):
    """`input` with `value` wherever the bool `mask` is True (mask broadcasts).

    Args:
        input (Tensor): the tensor to fill (a copy of it, unless in place).
        mask (BoolTensor): where to fill.
        value (Number or 0-dim Tensor): the fill value, converted to input's dtype.

    Example::

        >>> x = torch.tensor([1., -2., 3.])
        >>> x.masked_fill(x < 0, 0.)
        tensor([1., 0., 3.])
    """
    dtype = from_numpy_dtype(out.dtype)
    checked_scalar(value.item(), dtype)       # converted as its item() would be
    _fill_where(self, mask, cast_array(value, dtype), out)


def _masked_fill_meta_key(self, mask, value, out=None):
    return _masked_fill_meta(self, mask, value, out, python_words=True)


register_meta(masked_fill_tensor, _masked_fill_meta_key)


@op("masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor",
    meta=_masked_fill_meta, inplace=True, out=True, method=True, out_overload="Scalar_out",
    grad=_FILL_GRAD)
def masked_fill(self, mask, value, *, out):
    """`masked_fill` with a number as the value (checked to fit input's dtype)."""
    _fill_where(self, mask, checked_scalar(value, from_numpy_dtype(out.dtype)), out)


register_meta(masked_fill, _masked_fill_meta_key)


# ----------------------------------------------------------------------------------
# masked_scatter / masked_select
# ----------------------------------------------------------------------------------
def _masked_scatter_meta(self, mask, source, out=None, python_words: bool = False):
    """`python_words`: the words of torch's meta function (the Meta registration)."""
    if mask._dtype is not dtypes.bool:
        raise RuntimeError("Mask must be bool or uint8" if python_words else
                           f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {scalar_type_name(mask._dtype)}")
    if source._dtype is not self._dtype:
        names = (str(self._dtype), str(source._dtype)) if python_words else \
            (scalar_type_name(self._dtype), scalar_type_name(source._dtype))
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{' ' if python_words else ''}{names[0]} and {names[1]}")
    if out is self:                   # in place, the mask is expanded to self's shape
        expand.call(mask, self._size)
    check_out_dtype(self, out)
    check_written(out)
    return TensorMeta(broadcast_shapes(mask._size, self._size), self._dtype)


@derivative_helper
def masked_scatter_backward(grad, mask, sizes):
    """The gradient of masked_scatter's source: the masked elements of `grad`, in order,
    padded with zeros to source's size."""
    taken = grad.masked_select(mask)
    total = 1
    for n in sizes:
        total *= n
    taken = taken[:total]
    positions = at.arange(taken.numel())
    return grad.new_zeros((total,)).index_copy(0, positions, taken).reshape(sizes)


@op("masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor",
    meta=_masked_scatter_meta, inplace=True, out=True, method=True,
    grad={"self": "grad.masked_fill(mask, 0)",
          "source": "masked_scatter_backward(grad, mask, source.shape)",
          "mask": "non_differentiable"})
def masked_scatter(self, mask, source, *, out):
    """`input` with the elements where `mask` is True replaced, in row-major order, by
    the first elements of `source` (read as if flattened).

    Args:
        input (Tensor): the tensor to write into (a copy of it, unless in place).
        mask (BoolTensor): where to write (broadcasts with input).
        source (Tensor): at least as many elements as `mask` has True entries.

    Example::

        >>> x = torch.zeros(2, 2)
        >>> x.masked_scatter(torch.tensor([[True, False], [True, True]]), torch.arange(1., 5.))
        tensor([[1., 0.],
                [2., 3.]])
    """
    where = np.broadcast_to(mask, out.shape)
    count = int(np.count_nonzero(where))
    if count > source.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    if not np.may_share_memory(out, self):
        np.copyto(out, self)
    out[where] = source.reshape(-1)[:count]


@register_meta(masked_scatter)
def _masked_scatter_meta_key(self, mask, source, out=None):
    return _masked_scatter_meta(self, mask, source, out, python_words=True)


def _masked_select_meta(self, mask, out=None):
    """A data-dependent shape: the CPU rule counts the mask (torch has no meta kernel:
    the Meta registration refuses)."""
    if mask._dtype is not dtypes.bool:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    shape = broadcast_shapes(mask._size, self._size)
    check_out_dtype(self, out, "masked_select(): self and result must have the same scalar type")
    check_out_overlap(out, self, mask)
    mask_array = np.broadcast_to(mask._np, shape)
    return TensorMeta((int(np.count_nonzero(mask_array)),), self._dtype)


@derivative_helper
def masked_select_backward(grad, self, mask):
    """Each gradient element back where masked_select read it (summed over the dims
    self was broadcast in)."""
    full = at.zeros_like(self).masked_fill(mask, 0)        # the broadcast shape
    return sum_to(full.masked_scatter(mask, grad), self.shape)


@op("masked_select(Tensor self, Tensor mask) -> Tensor", meta=_masked_select_meta, out=True,
    method=True,
    grad={"self": "masked_select_backward(grad, self, mask)", "mask": "non_differentiable"})
def masked_select(self, mask, *, out):
    """The elements of `input` where `mask` is True, as a 1-D tensor (row-major order).

    Args:
        input (Tensor): the tensor to read.
        mask (BoolTensor): which elements (broadcasts with input).

    Example::

        >>> x = torch.tensor([[1, 2], [3, 4]])
        >>> torch.masked_select(x, x > 1)
        tensor([2, 3, 4])
    """
    if self.shape == mask.shape:
        np.compress(mask.reshape(-1), self.reshape(-1), out=out)
        return
    shape = broadcast_shapes(self.shape, mask.shape)
    np.copyto(out, np.broadcast_to(self, shape)[np.broadcast_to(mask, shape)])


no_meta_kernel(masked_select)


# ----------------------------------------------------------------------------------
# nonzero / argwhere
# ----------------------------------------------------------------------------------
def _check_nonzero_out(out) -> None:
    if out is not None and out._dtype is not dtypes.int64:
        raise RuntimeError(f"nonzero: Expected out tensor to have scalar type Long but got "
                           f"scalar type{scalar_type_name(out._dtype)}")


def _nonzero_meta(self, out=None):
    """A data-dependent shape: the CPU rule counts (the Meta registration refuses)."""
    _check_nonzero_out(out)
    count = int(np.count_nonzero(self._np))
    ndim = len(self._size)
    # torch fills the (count, ndim) result one column at a time: column-major strides
    return TensorMeta((count, ndim), dtypes.int64, (1, count))


@op("nonzero(Tensor self) -> Tensor", meta=_nonzero_meta, out=True, method=False,
    function=False, grad={"self": "non_differentiable"})
def nonzero(self, *, out):
    """The positions of the nonzero elements of `input`, one row per element (row-major
    order), one column per dim. ``as_tuple=True`` gives one 1-D tensor per dim instead
    (a 0-dim input counts as 1-D then).

    Args:
        input (Tensor): the tensor to look at.
        as_tuple (bool): return a tuple of 1-D tensors, one per dim.

    Example::

        >>> torch.nonzero(torch.tensor([[0, 1], [2, 0]]))
        tensor([[0, 1],
                [1, 0]])
        >>> torch.nonzero(torch.tensor([[0, 1], [2, 0]]), as_tuple=True)
        (tensor([0, 1]), tensor([1, 0]))
    """
    if self.ndim == 0:              # (count, 0): no columns to write
        return
    for column, positions in enumerate(np.nonzero(self)):
        out[:, column] = positions


@register_meta(nonzero)
def _nonzero_meta_key(self, out=None):
    _check_nonzero_out(out)
    raise NotImplementedError(META_NONZERO)


def _nonzero_static_meta(self, size, fill_value=-1, out=None, column_major: bool = False):
    """`column_major`: laid out column by column, as torch's meta function does (the Meta
    registration); its CPU kernel lays the result out by rows."""
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    if out is not None and out._dtype is not dtypes.int64:
        raise RuntimeError(f"nonzero_static: Expected out tensor to have scalar type Long but "
                           f"got scalar type{scalar_type_name(out._dtype)}")
    shape = (size, len(self._size))
    return TensorMeta(shape, dtypes.int64, (1, size) if column_major else None)


@op("nonzero_static(Tensor self, *, SymInt size, int fill_value=-1) -> Tensor",
    meta=_nonzero_static_meta, out=True, method=True, grad={"self": "non_differentiable"})
def nonzero_static(self, size, fill_value, *, out):
    """`nonzero` with a fixed number of rows, `size`: the first `size` positions, padded
    with `fill_value` when there are fewer (so the shape does not depend on the data).

    Example::

        >>> torch.nonzero_static(torch.tensor([0, 3, 5]), size=3)
        tensor([[ 1],
                [ 2],
                [-1]])
    """
    out[...] = fill_value
    if self.ndim == 0:
        return
    for column, positions in enumerate(np.nonzero(self)):
        count = min(size, positions.size)
        out[:count, column] = positions[:count]


@register_meta(nonzero_static)
def _nonzero_static_meta_key(self, size, fill_value=-1, out=None):
    return _nonzero_static_meta(self, size, fill_value, out, column_major=True)


@composite("nonzero_numpy(Tensor self) -> Tensor[]", function=False)
def nonzero_numpy(self):
    """`nonzero` as one 1-D tensor per dim (views of its columns); 0-dim counts as 1-D."""
    flat = view_.call(self, (1,)) if not self._size else self
    return unbind.call(nonzero.call(flat), 1)


@composite("argwhere(Tensor self) -> Tensor", method=True)
def argwhere(self):
    """The positions of the nonzero elements of `input`: ``torch.nonzero(input)``.

    Example::

        >>> torch.argwhere(torch.tensor([0, 3, 0, 5]))
        tensor([[1],
                [3]])
    """
    return nonzero.call(self)


def nonzero_function(input, *, out=None, as_tuple: bool = False):
    """torch.nonzero: the Python-only `as_tuple` picks nonzero or nonzero_numpy (as in torch)."""
    if as_tuple:
        return tuple(nonzero_numpy.call(input))
    if out is not None:
        return ops.aten.nonzero.out.call(input, out)
    return nonzero.call(input)


def nonzero_method(self, *, as_tuple: bool = False):
    """Tensor.nonzero (see torch.nonzero)."""
    return nonzero_function(self, as_tuple=as_tuple)


nonzero_function.__name__ = nonzero_function.__qualname__ = "nonzero"
nonzero_function.__doc__ = nonzero_method.__doc__ = nonzero.declaration.doc
nonzero_method.__name__ = "nonzero"
nonzero_method.__qualname__ = "Tensor.nonzero"
