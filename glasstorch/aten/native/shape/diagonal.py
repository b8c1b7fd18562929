"""Diagonals and the scatter twins of views.

* diag, diag_embed, diagflat: between vectors and the diagonals of matrices.
* trace, fill_diagonal_: the sum of, and a value written along, a main diagonal.
* diagonal_scatter, select_scatter, slice_scatter, as_strided_scatter: `self` copied,
  with `src` written into the part of the copy a view operator would select. They are
  the out-of-place forms of ``self.diagonal(...).copy_(src)`` and friends, which
  functionalization (and autograd's backward of views) need.

Note [Scatter copies keep the input's layout]
    As in ATen, a scatter op's result is a copy of `self`'s whole storage, viewed with
    `self`'s sizes, strides and storage offset (`clone_preserve_strides`); a `self`
    with internal overlap (expanded) is cloned densely instead. So
    ``as_strided_scatter`` reads and writes offsets relative to the same storage as
    ``self.as_strided`` would, and the result of a transposed `self` is transposed too.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.promotion import can_cast
from ....c10.tensor_impl import make_tensor
from ... import functions as at
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...dispatcher import ops
from ...meta.shape import check_no_internal_overlap, has_internal_overlap, wrap_dim
from ...registry import META, TensorMeta, prepare_out, composite, op
from ..creation.copy import clone, copy_
from ..reduction.sum import accumulation
from .shape import reshape
from .triangular import exact_out_dtype
from .view import as_strided, diagonal, select, slice_


def diagonal_of(a: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """A writable view of the diagonal of `a` in the (dim1, dim2) planes, as the last dim.

    NumPy hands out diagonals read-only (a guard from its 1.9 transition); the view is
    an ordinary strided view of `a`, so when `a` itself is writable the flag can be set
    back, which costs nothing (NumPy's `as_strided` costs ~10 us per call).
    """
    view = a.diagonal(offset, dim1, dim2)
    view.flags.writeable = a.flags.writeable
    return view


# ----------------------------------------------------------------------------------
# diag_embed, diag, diagflat
# ----------------------------------------------------------------------------------
def _embed_dims(self, dim1: int, dim2: int) -> tuple:
    ndim = self.dim() + 1
    d1, d2 = wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


def _diag_embed_meta(self, offset=0, dim1=-2, dim2=-1, out=None):
    d1, d2 = _embed_dims(self, dim1, dim2)
    exact_out_dtype(self._dtype, out)
    side = abs(offset) + self._size[-1]
    size = list(self._size[:-1])
    size.insert(min(d1, d2), side)
    size.insert(max(d1, d2), side)
    return TensorMeta(tuple(size), self._dtype)


@op("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor",
    meta=_diag_embed_meta, method=True, out=True, bind_out=False,
    grad={"self": "grad.diagonal(offset, dim1, dim2)"})
def diag_embed(self, offset, dim1, dim2, *, out):
    """Matrices whose diagonals are the last dim of `input`, zeros elsewhere.

    The result has one dim more than `input`: the last dim of `input` becomes the
    diagonal of the planes spanned by `dim1` and `dim2` of the result.

    Args:
        input (Tensor): at least 1-D.
        offset (int): which diagonal: 0 the main one, > 0 above it, < 0 below it.
        dim1 (int): the first dim of the planes (of the result). Default: -2.
        dim2 (int): the second dim of the planes (of the result). Default: -1.

    Example::

        >>> torch.diag_embed(torch.tensor([[1, 2], [3, 4]]))
        tensor([[[1, 0],
                 [0, 2]],
        <BLANKLINE>
                [[3, 0],
                 [0, 4]]])
    """
    ndim = out.ndim
    out.fill(0)
    np.copyto(diagonal_of(out, offset, dim1 % ndim, dim2 % ndim), self)


def _diag_meta(self, diagonal=0, out=None):
    ndim = self.dim()
    if ndim not in (1, 2):
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {ndim}D")
    if ndim == 1 and out is not None and not can_cast(self._dtype, out._dtype):
        raise RuntimeError(f"diag: result type {scalar_type_name(self._dtype)} can't be cast to "
                           f"the desired out= type {scalar_type_name(out._dtype)}")
    exact_out_dtype(self._dtype, out)
    if out is not None:
        check_no_internal_overlap(out)
    if ndim == 1:
        side = self._size[0] + abs(diagonal)
        return TensorMeta((side, side), self._dtype)
    rows, cols = self._size
    length = min(rows, cols - diagonal) if diagonal >= 0 else min(rows + diagonal, cols)
    return TensorMeta((max(length, 0),), self._dtype)


@derivative_helper
def diag_backward(grad, sizes, diagonal: int):
    """`diag` of a vector made a matrix: the gradient is that matrix's diagonal. `diag`
    of a matrix read its diagonal: the gradient is zeros with `grad` on it."""
    if len(sizes) == 1:
        return grad.diagonal(diagonal)
    return at.diagonal_scatter(grad.new_zeros(sizes), grad, diagonal)


@op("diag(Tensor self, int diagonal=0) -> Tensor", meta=_diag_meta, out=True, method=True,
    grad={"self": "diag_backward(grad, self_sym_sizes, diagonal)"})
def diag(self, diagonal, *, out):
    """A square matrix from a vector's elements, or a vector from a matrix's diagonal.

    A 1-D `input` of n elements gives the ``(n + |diagonal|)``-square matrix with
    `input` on that diagonal; a 2-D `input` gives a copy of its diagonal.

    Args:
        input (Tensor): a 1-D or 2-D tensor.
        diagonal (int): which diagonal: 0 the main one, > 0 above it, < 0 below it.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.diag(torch.tensor([1, 2]), 1)
        tensor([[0, 1, 0],
                [0, 0, 2],
                [0, 0, 0]])
        >>> torch.diag(torch.arange(6).view(2, 3), -1)
        tensor([3])
    """
    if self.ndim == 1:
        out.fill(0)
        np.copyto(diagonal_of(out, diagonal, 0, 1), self)
    else:
        np.copyto(out, diagonal_of(self, diagonal, 0, 1))


@composite("diagflat(Tensor self, int offset=0) -> Tensor", method=True)
def diagflat(self, offset=0):
    """A square matrix with the elements of `input` (flattened) on a diagonal.

    Args:
        input (Tensor): any tensor; it is flattened first.
        offset (int): which diagonal: 0 the main one, > 0 above it, < 0 below it.

    Example::

        >>> torch.diagflat(torch.tensor([[1, 2], [3, 4]]))
        tensor([[1, 0, 0, 0],
                [0, 2, 0, 0],
                [0, 0, 3, 0],
                [0, 0, 0, 4]])
    """
    return diag.call(reshape.call(self, (-1,)), offset)


# ----------------------------------------------------------------------------------
# trace, fill_diagonal_
# ----------------------------------------------------------------------------------
def _trace_meta(self, out=None):
    if self._dtype is dtypes.bool:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    return _trace_result(self, out, "trace: ")


def _trace_meta_key(self, out=None):
    """torch's meta function words the check without the op's name and has no dtype check."""
    return _trace_result(self, out, "")


def _trace_result(self, out, prefix: str) -> TensorMeta:
    if self.dim() != 2:
        raise RuntimeError(f"{prefix}expected a matrix, but got tensor with dim {self.dim()}")
    integral = not (self._dtype.is_floating_point or self._dtype.is_complex)
    result = dtypes.int64 if integral else self._dtype
    exact_out_dtype(result, out)
    return TensorMeta((), result)


@derivative_helper
def trace_backward(grad, sizes):
    """Every element of the main diagonal contributed once to the sum."""
    return at.diagonal_scatter(grad.new_zeros(sizes), grad.expand(min(sizes)))


@op("trace(Tensor self) -> Tensor", meta=_trace_meta, method=True, out=True, bind_out=False,
    grad={"self": "trace_backward(grad, self_sym_sizes)"})
def trace(self, *, out):
    """The sum of the main diagonal of a matrix (integers sum to int64).

    Args:
        input (Tensor): a 2-D tensor.

    Example::

        >>> torch.trace(torch.arange(9).view(3, 3))
        tensor(12)
    """
    # float16 / bfloat16 sum in float32 and round once, as torch's accumulate type does.
    out[()] = np.trace(self, dtype=accumulation(out.dtype))


register_meta(trace, _trace_meta_key)


@composite("fill_diagonal_(Tensor(a!) self, Scalar fill_value, bool wrap=False) -> Tensor(a!)",
           method=True, function=False)
def fill_diagonal_(self, fill_value, wrap=False):
    """Write `fill_value` on the main diagonal of `self`, in place.

    A tensor of more than 2 dims must have all sizes equal; its diagonal is the
    elements ``[i, i, ..., i]``. With `wrap`, a tall matrix (more than one row more
    than columns) gets the diagonal again every ``width + 1`` rows, as NumPy's
    `fill_diagonal` does.

    Args:
        fill_value (Number): the value to write.
        wrap (bool): restart the diagonal below a tall matrix's first square.

    Example::

        >>> torch.zeros(5, 2).fill_diagonal_(1, wrap=True)
        tensor([[1., 0.],
                [0., 1.],
                [0., 0.],
                [1., 0.],
                [0., 1.]])
    """
    ndim = self.dim()
    if ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = self._size[:2]
    if ndim > 2 and any(s != height for s in self._size[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    # The diagonal as one stride over the storage: a step in every dim at once.
    step = sum(self._stride)
    size = min(height, width)
    ops.aten.fill_.Scalar.call(as_strided.call(self, (size,), (step,), self._offset), fill_value)
    if wrap and ndim == 2 and height > width + 1:
        # torch counts the wrapped elements from numel and steps of width + 1 rows,
        # whatever the strides: the same arithmetic keeps its results on strided input.
        count = (self.numel() + width) // (width + 1) - size
        start = self._offset + self._stride[0] * (width + 1)
        ops.aten.fill_.Scalar.call(as_strided.call(self, (count,), (step,), start), fill_value)
    return self


# ----------------------------------------------------------------------------------
# The scatter twins of views
# ----------------------------------------------------------------------------------
def clone_preserve_strides(self):
    """A copy of `self`'s whole storage, viewed as `self` is (see Note [Scatter copies
    keep the input's layout]); a dense clone when `self` overlaps itself."""
    if has_internal_overlap(self._size, self._stride):
        return clone.call(self, None)
    return make_tensor(self._storage.clone(), self._size, self._stride, self._offset,
                       self._dtype)


def _part(output, view_op, *args, geometry=None):
    """The view `view_op` would make of the fresh `output`, by its geometry rule alone
    (or by `geometry`, its Meta registration's): inside the op no version or base
    bookkeeping is due, so no dispatch either (these ops run in every backward of
    indexing: select_backward is a select_scatter)."""
    size, stride, offset = (geometry or view_op.declaration.meta)(output, *args)[:3]
    return make_tensor(output._storage, tuple(size), tuple(stride), offset, output._dtype)


def _scatter(name: str, self, src, take, out):
    """`self` copied, with `src` written into ``take(copy)``, a view of the copy."""
    output = clone_preserve_strides(self)
    _scatter_into(output, take(output), src)
    return output if out is None else _write_out(name, output, out)


def _copy_only(name: str, self, out):
    """The Meta registrations of diagonal/select/slice_scatter: torch's meta kernels only
    describe the copy, checking nothing."""
    output = clone_preserve_strides(self)
    return output if out is None else _write_out(name, output, out)


def _write_out(name: str, result, out):
    """The out= overload of a scatter op, as torch's generated wrapper runs it: the
    result first, then `out` checked (its exact dtype), resized and written."""
    exact_out_dtype(result._dtype, out)
    prepare_out(getattr(ops.aten, name).out, out, TensorMeta(result._size, result._dtype))
    copy_.call(out, result, False)
    return out


def _scatter_into(output, part, src) -> None:
    """Copy `src` into `part` (a view of `output`) after torch's size check."""
    if part._size != src._size:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{list(src._size)}, slice size = {list(part._size)}")
    copy_.call(part, src, False)


@composite("diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) "
           "-> Tensor", method=True, out=True, bind_out=False,
           grad={"self": "diagonal_scatter(grad, zeros_like(src), offset, dim1, dim2)",
                 "src": "grad.diagonal(offset, dim1, dim2)"})
def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1, out=None):
    """A copy of `input` with `src` written on a diagonal: the out-of-place
    ``input.diagonal(offset, dim1, dim2).copy_(src)``.

    Args:
        input (Tensor): at least 2-D.
        src (Tensor): the values, shaped as ``input.diagonal(offset, dim1, dim2)``.
        offset, dim1, dim2: which diagonal, as in `torch.diagonal`.

    Example::

        >>> torch.diagonal_scatter(torch.zeros(2, 3), torch.ones(2), 1)
        tensor([[0., 1., 0.],
                [0., 0., 1.]])
    """
    return _scatter("diagonal_scatter", self, src,
                    lambda output: _part(output, diagonal, offset, dim1, dim2), out)


@register_meta(diagonal_scatter)
def _diagonal_scatter_meta(self, src, offset=0, dim1=0, dim2=1, out=None):
    return _copy_only("diagonal_scatter", self, out)


@composite("select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor",
           method=True, out=True, bind_out=False,
           grad={"self": "select_scatter(grad, zeros_like(src), dim, index)",
                 "src": "grad.select(dim, index)"})
def select_scatter(self, src, dim, index, out=None):
    """A copy of `input` with `src` written at `index` along `dim`: the out-of-place
    ``input.select(dim, index).copy_(src)``.

    Args:
        input (Tensor): at least 1-D.
        src (Tensor): the values, shaped as ``input.select(dim, index)``.
        dim (int): the dim to index.
        index (int): the position along `dim`.

    Example::

        >>> torch.select_scatter(torch.zeros(2, 2), torch.ones(2), 0, 0)
        tensor([[1., 1.],
                [0., 0.]])
    """
    return _scatter("select_scatter", self, src, lambda output: _part(output, select, dim, index),
                    out)


@derivative_helper
def slice_part(grad, dim: int, start, end, step: int):
    """``grad[start:end:step]`` along `dim`: the gradient of `slice_scatter`'s `src`."""
    return ops.aten.slice.Tensor(grad, dim, start, end, step)


@register_meta(select_scatter)
def _select_scatter_meta(self, src, dim, index, out=None):
    return _copy_only("select_scatter", self, out)


@composite("slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, "
           "SymInt? end=None, SymInt step=1) -> Tensor", method=True, out=True,
           bind_out=True,      # torch.slice_scatter alone of the scatters takes out=
           grad={"self": "slice_scatter(grad, zeros_like(src), dim, start, end, step)",
                 "src": "slice_part(grad, dim, start, end, step)"})
def slice_scatter(self, src, dim=0, start=None, end=None, step=1, out=None):
    """A copy of `input` with `src` written over ``start:end:step`` along `dim`.

    Args:
        input (Tensor): at least 1-D.
        src (Tensor): the values, shaped as that slice of `input`.
        dim (int): the dim to slice. Default: 0.
        start, end (int, optional): the slice's bounds (Python's rules).
        step (int): the slice's step (positive). Default: 1.

    Example::

        >>> torch.slice_scatter(torch.zeros(2, 4), torch.ones(2, 2), 1, step=2)
        tensor([[1., 0., 1., 0.],
                [1., 0., 1., 0.]])
    """
    return _scatter("slice_scatter", self, src,
                    lambda output: _part(output, slice_, dim, start, end, step), out)


@derivative_helper
def as_strided_scatter_backward(grad, sizes, size, stride, storage_offset):
    """What torch's autograd gives `input` (for the contiguous inputs it allows): zeros
    of the input's sizes holding, in the written part, `grad`'s values there. (The
    written part's own gradient goes to `src`; torch's formula places a copy here too,
    and glasstorch follows it.)"""
    part = grad.contiguous().as_strided(size, stride, storage_offset)
    return at.as_strided_scatter(grad.new_zeros(sizes), part, size, stride, storage_offset)


@register_meta(slice_scatter)
def _slice_scatter_meta(self, src, dim=0, start=None, end=None, step=1, out=None):
    return _copy_only("slice_scatter", self, out)


@composite("as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, "
           "SymInt? storage_offset=None) -> Tensor", method=True, out=True,
           bind_out=False,
           grad={"self": "as_strided_scatter_backward(grad, self_sym_sizes, size, stride, "
                         "storage_offset)",
                 "src": "grad.contiguous().as_strided(size, stride, storage_offset)"})
def as_strided_scatter(self, src, size, stride, storage_offset=None, out=None):
    """A copy of `input` with `src` written where ``input.as_strided(size, stride,
    storage_offset)`` would look (offsets count in `input`'s storage).

    Args:
        input (Tensor): the tensor to copy.
        src (Tensor): the values, of shape `size`.
        size, stride (tuple of int): the geometry of the written part.
        storage_offset (int, optional): its offset; default: `input`'s own.

    Example::

        >>> torch.as_strided_scatter(torch.zeros(2, 2), torch.ones(2), (2,), (3,))
        tensor([[1., 0.],
                [0., 1.]])
    """
    return _as_strided_scatter(self, src, size, stride, storage_offset, out)


@register_meta(as_strided_scatter)
def _as_strided_scatter_meta(self, src, size, stride, storage_offset=None, out=None):
    """The part's geometry by as_strided's Meta registration (no storage bounds)."""
    return _as_strided_scatter(self, src, size, stride, storage_offset, out,
                               as_strided.declaration.form.meta_rules[META])


def _as_strided_scatter(self, src, size, stride, storage_offset, out, geometry=None):
    if self.requires_grad and not self.is_contiguous():
        # torch's backward assumes a dense input, so it refuses the others up front.
        raise RuntimeError("as_strided_scatter is currently only supported for contiguous "
                           "inputs")
    output = clone_preserve_strides(self)
    part = _part(output, as_strided, size, stride, storage_offset, geometry=geometry)
    _scatter_into(output, part, src)
    return output if out is None else _write_out("as_strided_scatter", output, out)
