"""Joining tensors: cat (and its names concat / concatenate), stack, and the NumPy-style
stacks hstack / vstack / row_stack / dstack / column_stack with the atleast_nd they use.

`cat` and `stack` are structured operators: the meta rule checks the inputs and
describes the result, and the kernel copies each input straight into its part of
that result (NumPy's ``concatenate`` / ``stack`` with ``out=``), with no copy between.
The NumPy-style stacks are composites over `cat`, as in ATen, so their out= forms
hand `out` on to ``cat.out``.

Note [cat's legacy empty tensors]
    Before tensors could have any shape with zero elements, the only empty tensor
    was the 1-D ``torch.tensor([])``, and ``cat`` learned to ignore it. torch keeps
    that rule: a tensor of shape ``(0,)`` takes no part in the shape checks, the dim
    is wrapped by the first other tensor, yet its dtype still joins the promotion.
    So ``torch.cat([torch.tensor([]).double(), torch.ones(2, 3)])`` is a float64
    (2, 3) tensor. Empty tensors of any other shape are checked as usual.
"""
from __future__ import annotations

import numpy as np

from ....c10.dtype import from_numpy_dtype, scalar_type_name
from ....c10.layout import channels_last, contiguous_format
from ....c10.promotion import can_cast, promote_types
from ....c10.size import Size
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...dispatcher import ops
from ...meta.shape import (check_no_internal_overlap, check_no_overlap, compute_view_stride,
                          wrap_dim)
from ...registry import TensorMeta, composite, op
from ..creation.copy import cast_array, memory_format_strides, suggest_memory_format
from .shape import reshape
from .view import unsqueeze


# ----------------------------------------------------------------------------------
# cat
# ----------------------------------------------------------------------------------
def _skipped(t) -> bool:
    """A legacy empty tensor of shape (0,): see Note [cat's legacy empty tensors]."""
    return t._size == (0,)


def _result_dtype(tensors, out, name: str):
    """Every input's dtype promoted together; an out= tensor must be able to hold it."""
    dtype = tensors[0]._dtype
    for t in tensors:
        if t._dtype is not dtype:
            dtype = promote_types(dtype, t._dtype)
    if out is not None and not can_cast(dtype, out._dtype):
        raise TypeError(f"{name}(): input types can't be cast to the desired output type "
                        f"{scalar_type_name(out._dtype)}")
    return dtype


def _output_format(tensors):
    """channels_last when every input looks channels_last, else contiguous (torch's rule)."""
    found = None
    for t in tensors:
        layout = suggest_memory_format(t) if len(t._size) in (4, 5) else contiguous_format
        if layout is contiguous_format or (found is not None and layout is not found):
            return contiguous_format
        found = layout
    return found


def _check_cat_shapes(tensors, first, dim: int) -> int:
    """torch's per-tensor checks against the first non-skipped tensor; returns the total
    size along `dim`."""
    total = 0
    want = first._size
    for i, t in enumerate(tensors):
        size = t._size
        if size == (0,):                # skipped: Note [cat's legacy empty tensors]
            continue
        if len(size) != len(want):
            raise RuntimeError(f"Tensors must have same number of dimensions: got "
                               f"{len(want)} and {len(size)}")
        if size != want:
            for d, (expected, got) in enumerate(zip(want, size)):
                if d != dim and expected != got:
                    raise RuntimeError(f"Sizes of tensors must match except in dimension "
                                       f"{dim}. Expected size {expected} but got size {got} "
                                       f"for tensor number {i} in the list.")
        total += size[dim]
    return total


def _check_meta_shapes(tensors, dim: int) -> None:
    """On meta tensors torch checks through its Python reference (`torch._refs.cat`),
    with its own words: dims against the first tensor that is not 1-D, sizes against
    the first kept tensor, counting kept tensors only."""
    example = next((t for t in tensors if t.dim() != 1), None)
    for i, t in enumerate(tensors):
        if example is not None and t.dim() != example.dim() and not _skipped(t):
            raise RuntimeError(f"Number of dimensions of tensors must match.  Expected "
                               f"{example.dim()}-D tensors, but got {t.dim()}-D for tensor "
                               f"number {i} in the list")
    kept = [t for t in tensors if not _skipped(t)]
    for i, t in enumerate(kept):
        for d, (want, got) in enumerate(zip(kept[0]._size, t._size)):
            if d != dim and want != got:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. "
                                   f"Expected {want} in dimension {d} but got {got} for tensor "
                                   f"number {i} in the list")


def _check_written(out, tensors) -> None:
    """An out= tensor may not share memory with itself or with any input."""
    if out is not None:
        check_no_internal_overlap(out)
        for t in tensors:
            check_no_overlap(out, t)


def _cat_meta(tensors, dim=0, out=None):
    _check_some(tensors)
    first = None
    for i, t in enumerate(tensors):
        if not t._size:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
        if first is None and t._size != (0,):
            first = t
    return _cat_result(tensors, dim, out, first)


def _cat_meta_key(tensors, dim=0, out=None):
    """On meta torch checks through its Python reference (`_check_meta_shapes`), which
    does not refuse 0-dim tensors up front."""
    _check_some(tensors)
    first = next((t for t in tensors if t._size != (0,)), None)
    return _cat_result(tensors, dim, out, first, _check_meta_shapes)


def _check_some(tensors) -> None:
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")


def _cat_result(tensors, dim, out, first, check_shapes=None) -> TensorMeta:
    """The joined result, after `check_shapes` (words of the Meta registration's) and
    torch's checks of every tensor against `first`, the first one kept."""
    if first is not None:
        dim = wrap_dim(dim, len(first._size))
    dtype = _result_dtype(tensors, out, "torch.cat")
    if first is None:
        return TensorMeta((0,), dtype)
    if check_shapes is not None:
        check_shapes(tensors, dim)
    size = list(first._size)
    size[dim] = _check_cat_shapes(tensors, first, dim)
    _check_written(out, tensors)
    size = tuple(size)
    layout = _output_format(tensors)
    return TensorMeta(size, dtype,
                      None if layout is contiguous_format else memory_format_strides(size, layout))


def real_like(piece, like):
    """A gradient piece for a real input is real (torch's handle_r_to_c)."""
    return piece.real if piece.is_complex() and not like.is_complex() else piece


@derivative_helper
def cat_backward(grad, tensors, dim: int):
    """Each input's slice of `grad` along `dim`; torch's skipped (0,) inputs get empties."""
    kept = [t for t in tensors if tuple(t.shape) != (0,)]
    dim = dim % kept[0].dim() if kept else dim
    grads, start = [], 0
    for t in tensors:
        if tuple(t.shape) == (0,):
            grads.append(grad.new_zeros((0,), dtype=t.dtype))
            continue
        grads.append(real_like(grad.narrow(dim, start, t.shape[dim]), t))
        start += t.shape[dim]
    return grads


@op("cat(Tensor[] tensors, int dim=0) -> Tensor", meta=_cat_meta, out=True,
    grad={"tensors": "cat_backward(grad, tensors, dim)"})
def cat(tensors, dim, *, out):
    """Join tensors along an existing dimension.

    All tensors must have the same shape except along `dim`. A 1-D tensor of size
    0 is ignored whatever the other shapes are (torch's legacy rule). The result's
    dtype is the promotion of all the inputs' dtypes.

    Args:
        tensors (sequence of Tensor): the tensors to join, with at least one dimension.
        dim (int): the dimension to join along.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Returns:
        Tensor: the joined tensor.

    Example::

        >>> x = torch.tensor([[1, 2], [3, 4]])
        >>> torch.cat((x, x), 1)
        tensor([[1, 2, 1, 2],
                [3, 4, 3, 4]])
        >>> torch.cat((x, torch.tensor([[5.0, 6.0]])))
        tensor([[1., 2.],
                [3., 4.],
                [5., 6.]])
    """
    if out.size == 0:
        return
    arrays = [a for a in tensors if a.shape != (0,)]
    kind = out.dtype
    if any(a.dtype != kind for a in arrays):
        dtype = from_numpy_dtype(kind)
        arrays = [a if a.dtype == kind else cast_array(a, dtype) for a in arrays]
    np.concatenate(arrays, axis=dim % out.ndim, out=out)


register_meta(cat, _cat_meta_key)


cat_out = ops.aten.cat.out


def _declare_cat_alias(name: str):
    def alias(tensors, dim=0, out=None):
        if out is None:
            return cat.call(tensors, dim)
        return cat_out.call(tensors, dim, out)
    alias.__name__ = alias.__qualname__ = name
    alias.__doc__ = f"Another name for `torch.cat`: ``torch.{name}(tensors, dim=0)``."
    return composite(f"{name}(Tensor[] tensors, int dim=0) -> Tensor", out=True)(alias)


concat = _declare_cat_alias("concat")
concatenate = _declare_cat_alias("concatenate")


# ----------------------------------------------------------------------------------
# stack
# ----------------------------------------------------------------------------------
def _stack_meta(tensors, dim=0, out=None, python_words: bool = False):
    """`python_words`: as torch._refs words the size check (the Meta registration)."""
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]
    dim = wrap_dim(dim, first.dim() + 1)
    for i, t in enumerate(tensors[1:], 1):
        if t._size != first._size and python_words:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{Size(first._size)} at entry 0 ")
        if t._size != first._size:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(first._size)} at entry 0 and {list(t._size)} at entry "
                               f"{i}")
    dtype = _result_dtype(tensors, out, "torch.cat")
    _check_written(out, tensors)
    size = first._size[:dim] + (len(tensors),) + first._size[dim:]
    stride = None
    if out is None and dim < first.dim() and _output_format(tensors) is channels_last:
        # torch joins along `dim` (channels_last kept) and splits that dim by a view
        joined = first._size[:dim] + (len(tensors) * first._size[dim],) + first._size[dim + 1:]
        stride = compute_view_stride(joined, memory_format_strides(joined, channels_last), size)
    return TensorMeta(size, dtype, stride)


@derivative_helper
def stack_backward(grad, tensors, dim: int):
    """Each input's index of `grad` along the new dim."""
    return [real_like(piece, t) for piece, t in zip(grad.unbind(dim % grad.dim()), tensors)]


@op("stack(Tensor[] tensors, int dim=0) -> Tensor", meta=_stack_meta, out=True,
    grad={"tensors": "stack_backward(grad, tensors, dim)"})
def stack(tensors, dim, *, out):
    """Join tensors of one shape along a new dimension.

    Args:
        tensors (sequence of Tensor): the tensors to join, all of the same shape.
        dim (int): where the new dimension goes, between 0 and the inputs' ``dim()``.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Returns:
        Tensor: a tensor with one more dimension, of size ``len(tensors)`` at `dim`.

    Example::

        >>> x = torch.tensor([1, 2, 3])
        >>> torch.stack((x, x * 10), dim=1)
        tensor([[ 1, 10],
                [ 2, 20],
                [ 3, 30]])
    """
    if out.size == 0:
        return
    dtype = from_numpy_dtype(out.dtype)
    before = (slice(None),) * (dim % out.ndim)
    for i, a in enumerate(tensors):         # each input into its index along `dim`
        np.copyto(out[before + (i, ...)], a if a.dtype == out.dtype else cast_array(a, dtype))


@register_meta(stack)
def _stack_meta_key(tensors, dim=0, out=None):
    return _stack_meta(tensors, dim, out, python_words=True)


# ----------------------------------------------------------------------------------
# atleast_1d / 2d / 3d
# ----------------------------------------------------------------------------------
def _atleast(self, ndim: int):
    """`self` with size-1 dims added the way NumPy's atleast_nd adds them."""
    rank = self.dim()
    if rank >= ndim:
        return self
    if rank == 0:
        return reshape.call(self, (1,) * ndim)
    if ndim == 2 or rank == 2:          # (n,) -> (1, n); (m, n) -> (m, n, 1)
        return unsqueeze.call(self, 0 if ndim == 2 else -1)
    return unsqueeze.call(unsqueeze.call(self, 0), -1)    # (n,) -> (1, n, 1)


def _declare_atleast(ndim: int, example: str):
    name = f"atleast_{ndim}d"

    def one(self):
        return _atleast(self, ndim)

    def many(tensors):
        return [_atleast(t, ndim) for t in tensors]
    one.__name__ = one.__qualname__ = name
    many.__name__ = many.__qualname__ = f"{name}_sequence"
    one.__doc__ = (f"""`input` with at least {ndim} dimensions (size-1 dims added as NumPy's
    ``{name}`` adds them); a tensor that has them comes back as it is.

    Args:
        input (Tensor or sequence of Tensor): one tensor, several tensors as
            arguments, or a sequence of tensors.

    Returns:
        Tensor, or a tuple of Tensor for several inputs.

    Example::

{example}
    """)
    many.__doc__ = f"`{name}` of every tensor of a sequence."
    return (composite(f"{name}(Tensor self) -> Tensor")(one),
            composite(f"{name}.Sequence(Tensor[] tensors) -> Tensor[]")(many))


atleast_1d, atleast_1d_sequence = _declare_atleast(1, """\
        >>> torch.atleast_1d(torch.tensor(1.5))
        tensor([1.5000])""")
atleast_2d, atleast_2d_sequence = _declare_atleast(2, """\
        >>> torch.atleast_2d(torch.tensor([1, 2])).shape
        torch.Size([1, 2])""")
atleast_3d, atleast_3d_sequence = _declare_atleast(3, """\
        >>> torch.atleast_3d(torch.tensor([1, 2])).shape
        torch.Size([1, 2, 1])""")


# ----------------------------------------------------------------------------------
# hstack, vstack, row_stack, dstack, column_stack
# ----------------------------------------------------------------------------------
def _stack_along(name: str, tensors, ndim: int, dim_of, out):
    """`cat` of the inputs raised to `ndim` dims, along the dim ``dim_of(first)`` picks."""
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    raised = [_atleast(t, ndim) for t in tensors]
    dim = dim_of(raised[0])
    return cat.call(raised, dim) if out is None else cat_out.call(raised, dim, out)


@composite("hstack(Tensor[] tensors) -> Tensor", out=True)
def hstack(tensors, out=None):
    """Join tensors column-wise: along dim 1, or dim 0 for 1-D tensors (0-dim ones count
    as 1-D).

    Args:
        tensors (sequence of Tensor): the tensors to join.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.hstack((torch.tensor([1, 2]), torch.tensor([3])))
        tensor([1, 2, 3])
    """
    return _stack_along("hstack", tensors, 1, lambda t: 0 if t.dim() == 1 else 1, out)


_VSTACK_DOC = """Join tensors row-wise: along dim 0 once 0-dim and 1-D tensors are made
    rows (``atleast_2d``).

    Args:
        tensors (sequence of Tensor): the tensors to join.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.{name}((torch.tensor([1, 2]), torch.tensor([3, 4])))
        tensor([[1, 2],
                [3, 4]])
    """


def _declare_vstack(name: str):
    def body(tensors, out=None):
        return _stack_along("vstack", tensors, 2, lambda t: 0, out)
    body.__name__ = body.__qualname__ = name
    body.__doc__ = _VSTACK_DOC.format(name=name)
    return composite(f"{name}(Tensor[] tensors) -> Tensor", out=True)(body)


vstack = _declare_vstack("vstack")
row_stack = _declare_vstack("row_stack")


@composite("dstack(Tensor[] tensors) -> Tensor", out=True)
def dstack(tensors, out=None):
    """Join tensors depth-wise: along dim 2 once each has 3 dims (``atleast_3d``).

    Args:
        tensors (sequence of Tensor): the tensors to join.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.dstack((torch.tensor([1, 2]), torch.tensor([3, 4])))
        tensor([[[1, 3],
                 [2, 4]]])
    """
    return _stack_along("dstack", tensors, 3, lambda t: 2, out)


@composite("column_stack(Tensor[] tensors) -> Tensor", out=True)
def column_stack(tensors, out=None):
    """Join tensors as columns: 0-dim and 1-D tensors become columns ``(n, 1)``, then
    everything is joined along dim 1 (``hstack``).

    Args:
        tensors (sequence of Tensor): the tensors to join.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.column_stack((torch.tensor([1, 2]), torch.tensor([3, 4])))
        tensor([[1, 3],
                [2, 4]])
    """
    if not tensors:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    columns = [reshape.call(t, (t.numel(), 1)) if t.dim() <= 1 else t for t in tensors]
    return _stack_along("hstack", columns, 1, lambda t: 0 if t.dim() == 1 else 1, out)
