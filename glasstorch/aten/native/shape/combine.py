"""Combining tensors into grids and products: meshgrid, broadcast_tensors, cartesian_prod,
combinations, block_diag and kron, with torch's Python-level helpers broadcast_shapes
and unravel_index.

meshgrid and broadcast_tensors make views (stride-0 expansions), so they are
composites over `view` / `expand`; block_diag, kron and combinations are structured
operators whose kernels write each element of the result once.

Several of these are variadic in Python (``torch.meshgrid(a, b)``): torch wraps the
schema's tensor list in a small Python function (torch/functional.py). `variadic`
makes those wrappers here; ``glasstorch/__init__.py`` re-exports them.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from types import SimpleNamespace

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.promotion import get_default_dtype, promote_types, result_type
from ....c10.size import Size
from ....c10.tensor_impl import TensorBase, contiguous_strides, wrap_array
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...meta.pointwise import permuted_strides
from ...meta.shape import broadcast_shapes as broadcast_sizes, compute_view_stride
from ...registry import TensorMeta, composite, op
from ..creation.copy import cast_array, copy_array
from ..creation.factory import empty
from ..indexing.advanced import index
from .join import atleast_1d, atleast_2d, atleast_3d, real_like, stack
from .repeat import check_exact_out_dtype
from .shape import _warn_once, flatten
from .view import expand, view_


# ----------------------------------------------------------------------------------
# meshgrid, broadcast_tensors, cartesian_prod
# ----------------------------------------------------------------------------------
def _meshgrid(tensors, indexing: str) -> list:
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for a, b in zip(tensors, tensors[1:]):
        if a._dtype is not b._dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if a._device != b._device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
    if indexing not in ("xy", "ij"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                           f"received: {indexing}")
    order = list(tensors)
    swap = indexing == "xy" and len(order) >= 2     # x (columns) first: swap dims 0 and 1
    if swap:
        order[0], order[1] = order[1], order[0]
    for t in order:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: {t}")
    shape = tuple(t.numel() for t in order)
    grids = []
    for i, t in enumerate(order):
        along = (1,) * i + (-1,) + (1,) * (len(order) - i - 1)
        grids.append(expand.call(view_.call(t, along), shape, False))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return grids


@composite("meshgrid(Tensor[] tensors) -> Tensor[]")
def meshgrid(tensors):
    """Grids of coordinates from 1-D tensors: grid ``i`` repeats ``tensors[i]`` along
    dim i (``indexing='ij'``) and is constant along the others; all are views.

    Without `indexing`, torch warns that the argument will become required.

    Args:
        tensors (Tensor...): 0-D or 1-D tensors of one dtype, or one list of them.

    Keyword args:
        indexing (str, optional): ``'ij'`` (matrix indexing, the default) or ``'xy'``
            (Cartesian: the first two dims swapped, as NumPy's default).

    Returns:
        tuple of Tensor: one grid per input.

    Example::

        >>> x, y = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]),
        ...                       indexing='ij')
        >>> x
        tensor([[1, 1],
                [2, 2],
                [3, 3]])
        >>> y
        tensor([[4, 5],
                [4, 5],
                [4, 5]])
    """
    _warn_once("torch.meshgrid: in an upcoming release, it will be required to pass the "
               "indexing argument.")
    return _meshgrid(tensors, "ij")


@composite("meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]")
def meshgrid_indexing(tensors, indexing):
    """`meshgrid` with an explicit `indexing` (``'ij'`` or ``'xy'``)."""
    return _meshgrid(tensors, indexing)


@composite("broadcast_tensors(Tensor[] tensors) -> Tensor[]")
def broadcast_tensors(tensors):
    """The tensors broadcast to their common shape (views; a tensor that already has the
    shape comes back as it is).

    Args:
        tensors (Tensor...): the tensors to broadcast.

    Example::

        >>> a, b = torch.broadcast_tensors(torch.tensor([1, 2]), torch.tensor([[3], [4]]))
        >>> a
        tensor([[1, 2],
                [1, 2]])
    """
    shape = broadcast_sizes(*(t._size for t in tensors))
    return [t if t._size == shape else expand.call(t, shape, False) for t in tensors]


@composite("cartesian_prod(Tensor[] tensors) -> Tensor")
def cartesian_prod(tensors):
    """Every combination of one element from each 1-D tensor, one per row, in the order
    of nested loops (``itertools.product``).

    Args:
        tensors (Tensor...): 1-D tensors of one dtype.

    Returns:
        Tensor: of shape ``(product of the lengths, len(tensors))``; a single input is
        returned as it is.

    Example::

        >>> torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]))
        tensor([[1, 3],
                [1, 4],
                [2, 3],
                [2, 4]])
    """
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t._size)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = [flatten.call(g, 0, -1) for g in _meshgrid(tensors, "ij")]
    return stack.call(grids, 1)


# ----------------------------------------------------------------------------------
# combinations
# ----------------------------------------------------------------------------------
def combination_indices(n: int, r: int, with_replacement: bool) -> np.ndarray:
    """The index tuples of `combinations`, one per row, in lexicographic order: the
    non-decreasing (or increasing) points of the ``n ** r`` grid."""
    grid = np.indices((n,) * r).reshape(r, -1)
    steps = np.diff(grid, axis=0)
    keep = (steps >= 0 if with_replacement else steps > 0).all(axis=0)
    return np.ascontiguousarray(grid[:, keep].T)


@composite("combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor")
def combinations(self, r=2, with_replacement=False):
    """The length-`r` combinations of the elements of a 1-D tensor, one per row, as
    Python's ``itertools.combinations`` (or ``combinations_with_replacement``).

    The index tuples are computed once (a small integer array) and the elements
    gathered by `index`, so autograd flows through the gather.

    Args:
        input (Tensor): a 1-D tensor.
        r (int): the number of elements per combination.
        with_replacement (bool): whether an element may repeat within a combination.

    Example::

        >>> torch.combinations(torch.tensor([1, 2, 3]))
        tensor([[1, 2],
                [1, 3],
                [2, 3]])
    """
    if self.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(self._size)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:          # a fresh empty tensor, outside any graph (as torch's)
        return empty.call((0,), self._dtype, None, self._device, None, None)
    rows = combination_indices(self._size[0], r, with_replacement)
    return index.call(self, [wrap_array(rows, dtypes.int64)])


# ----------------------------------------------------------------------------------
# block_diag, kron
# ----------------------------------------------------------------------------------
def _block_diag_meta(tensors, out=None, prefix: str = "torch.block_diag: "):
    """`prefix` starts the message of a matrix refused; torch's meta function (the Meta
    registration) has none."""
    if not tensors:
        return TensorMeta((1, 0), get_default_dtype())
    for i, t in enumerate(tensors):
        if t._device != tensors[0]._device:
            raise RuntimeError(f"torch.block_diag: input tensors must all be on the same "
                               f"device. Input 0 is on device {tensors[0]._device} and input "
                               f"{i} is on device {t._device}")
    dtype = result_type(*tensors)
    rows = columns = 0
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"{prefix}Input tensors must have 2 or fewer dimensions. Input "
                               f"{i} has {t.dim()} dimensions")
        height, width = _block_shape(t._size)
        rows, columns = rows + height, columns + width
    check_exact_out_dtype(out, dtype)
    return TensorMeta((rows, columns), dtype)


def _block_shape(size: tuple) -> tuple:
    """A block's (rows, columns): a 1-D tensor is one row, a 0-dim one a 1x1 block."""
    return size if len(size) == 2 else (1, size[0] if size else 1)


@derivative_helper
def block_diag_backward(grad, tensors):
    """Each block's part of `grad`, in the block's own shape."""
    grads, row, column = [], 0, 0
    for t in tensors:
        height, width = tuple(t.shape) if t.dim() == 2 else (1, t.numel())
        piece = grad[row:row + height, column:column + width].reshape(t.shape)
        grads.append(real_like(piece, t))
        row, column = row + height, column + width
    return grads


@op("block_diag(Tensor[] tensors) -> Tensor", meta=_block_diag_meta, out=True,
    grad={"tensors": "block_diag_backward(grad, tensors)"})
def block_diag(tensors, *, out):
    """A block-diagonal matrix with the given tensors as its blocks, zeros elsewhere.

    Args:
        *tensors (Tensor): blocks with at most 2 dims (a 1-D tensor is one row, a
            0-dim one a 1x1 block). The result's dtype promotes all of theirs.

    Example::

        >>> torch.block_diag(torch.tensor([[1, 2], [3, 4]]), torch.tensor(5))
        tensor([[1, 2, 0],
                [3, 4, 0],
                [0, 0, 5]])
    """
    out.fill(0)
    row = column = 0
    dtype = dtypes.from_numpy_dtype(out.dtype)
    for block in tensors:
        height, width = _block_shape(block.shape)
        out[row:row + height, column:column + width] = cast_array(block, dtype).reshape(
            height, width)
        row, column = row + height, column + width


@register_meta(block_diag)
def _block_diag_meta_key(tensors, out=None):
    return _block_diag_meta(tensors, out, prefix="")


def kron_shapes(a: tuple, b: tuple) -> tuple:
    """The inputs padded to one rank, as interleaved shapes ``(a0, 1, a1, 1, ...)`` and
    ``(1, b0, 1, b1, ...)``; their product has shape ``(a0, b0, a1, b1, ...)``."""
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + tuple(a)
    b = (1,) * (rank - len(b)) + tuple(b)
    left = sum(((s, 1) for s in a), ())
    right = sum(((1, s) for s in b), ())
    return left, right, tuple(x * y for x, y in zip(a, b))


def _kron_meta(self, other):
    left, right, size = kron_shapes(self._size, other._size)
    _check_kron_view(self, other, left, right, size)
    return TensorMeta(size, promote_types(self._dtype, other._dtype))


def _check_kron_view(self, other, left: tuple, right: tuple, size: tuple) -> None:
    """torch multiplies the interleaved views, then *views* the product (laid out as
    TensorIterator lays out a product of these operands) as the result: an input whose
    layout makes that product non-viewable (a transposed matrix) fails, as in torch."""
    views = [SimpleNamespace(_size=shape, _stride=compute_view_stride(t._size, t._stride, shape))
             for t, shape in ((self, left), (other, right))]
    product = tuple(a * b for a, b in zip(left, right))
    if all(v._stride == contiguous_strides(v._size) for v in views if v._size):
        return
    if compute_view_stride(product, permuted_strides(views, product), size) is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.")


@derivative_helper
def kron_backward(grad, self, other):
    """kron's gradients: each factor's elements times the matching parts of the other,
    summed (`grad` seen as (a0, b0, a1, b1, ...))."""
    left, right, _ = kron_shapes(tuple(self.shape), tuple(other.shape))
    blocks = grad.reshape([a * b for a, b in zip(left, right)])
    grad_self, grad_other = blocks * other.reshape(right).conj(), blocks * self.reshape(left).conj()
    if left:                            # sum over the other factor's interleaved dims
        grad_self = grad_self.sum(tuple(range(1, len(left), 2)))
        grad_other = grad_other.sum(tuple(range(0, len(left), 2)))
    return grad_self.reshape(self.shape), grad_other.reshape(other.shape)


@op("kron(Tensor self, Tensor other) -> Tensor", meta=_kron_meta, out=True, method=True,
    grad={"self": "kron_backward(grad, self, other)[0]",
          "other": "kron_backward(grad, self, other)[1]"})
def kron(self, other, *, out):
    """The Kronecker product: each element of `input` times the whole of `other`, laid
    out block by block (inputs of different ranks are padded with leading 1s).

    Args:
        input (Tensor): the first factor.
        other (Tensor): the second factor.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.ones(2, 2, dtype=torch.int64))
        tensor([[1, 1, 2, 2],
                [1, 1, 2, 2],
                [3, 3, 4, 4],
                [3, 3, 4, 4]])
    """
    left, right, _ = kron_shapes(self.shape, other.shape)
    dtype = promote_types(dtypes.from_numpy_dtype(self.dtype),
                          dtypes.from_numpy_dtype(other.dtype))
    a, b = cast_array(self, dtype).reshape(left), cast_array(other, dtype).reshape(right)
    product = tuple(x * y for x, y in zip(left, right))
    if out.flags.c_contiguous and out.dtype == dtype._np:
        np.multiply(a, b, out=out.reshape(product))
    else:       # an out= of another dtype gets the product rounded to the result's dtype
        copy_array(out, np.multiply(a, b).reshape(out.shape))


# ----------------------------------------------------------------------------------
# torch's Python-level functions
# ----------------------------------------------------------------------------------
def variadic(operator, unwrap: str):
    """torch's Python form of an operator over a tensor list: ``torch.<name>(a, b)``.

    `unwrap` says when a single argument stands for the whole list: ``"sequence"``
    (meshgrid: a list or tuple), ``"any"`` (atleast_nd: a tensor or a list) or
    ``"never"`` (block_diag, broadcast_tensors, cartesian_prod).
    """
    from ...binding import get_binding
    name = operator._schema.name

    def function(*tensors, **kwargs):
        if len(tensors) == 1 and (unwrap == "any" or unwrap == "sequence"
                                  and isinstance(tensors[0], (list, tuple))):
            tensors = tensors[0]
        elif unwrap == "never":         # the tuple of arguments is the list: no nesting
            for i, t in enumerate(tensors):
                if not isinstance(t, TensorBase):
                    raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                                    f"{type(t).__name__}")
        return get_binding("function", name)(tensors, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = operator.declaration.doc
    return function


_meshgrid_binding = variadic(meshgrid, "sequence")


def meshgrid_function(*tensors, indexing: str | None = None):
    if indexing is None:
        return _meshgrid_binding(*tensors)
    return _meshgrid_binding(*tensors, indexing=indexing)


meshgrid_function.__name__ = meshgrid_function.__qualname__ = "meshgrid"
meshgrid_function.__doc__ = meshgrid.declaration.doc
broadcast_tensors_function = variadic(broadcast_tensors, "never")
block_diag_function = variadic(block_diag, "never")
cartesian_prod_function = variadic(cartesian_prod, "never")
atleast_1d_function = variadic(atleast_1d, "any")
atleast_2d_function = variadic(atleast_2d, "any")
atleast_3d_function = variadic(atleast_3d, "any")


def broadcast_shapes(*shapes) -> Size:
    """The shape that tensors of all the given shapes broadcast to, without making any.

    Args:
        *shapes (torch.Size or int...): shapes (an int is a 1-D shape; None is skipped).

    Returns:
        torch.Size: the broadcast shape.

    Example::

        >>> torch.broadcast_shapes((2,), (3, 1), (1, 1, 1))
        torch.Size([1, 3, 2])
    """
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    if not shapes:
        return Size([])
    for shape in shapes:
        if not isinstance(shape, Sequence):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a "
                               f"list of ints, got {shape}")
    common = [1] * max(len(s) for s in shapes)
    for position, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            if shape[i] == common[i]:
                continue
            if common[i] == 1:
                if shape[i] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[i] = shape[i]
            if shape[i] != 1 and common[i] != shape[i]:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[i]} "
                                   f"at {i}! Mismatching argument at index {position} had "
                                   f"{shape}; but expected shape should be broadcastable to "
                                   f"{common}")
    return Size(common)


def unravel_index(indices, shape) -> tuple:
    """Flat indices into a tensor of `shape`, as one tensor of coordinates per dimension
    (NumPy's ``unravel_index``; negative indices count from the end).

    Args:
        indices (Tensor): integer flat indices.
        shape (int or sequence of int): the shape they index.

    Returns:
        tuple of Tensor: int64 coordinates, each shaped like `indices`.

    Example::

        >>> torch.unravel_index(torch.tensor([4, 1]), (2, 3))
        (tensor([1, 0]), tensor([1, 1]))
    """
    if indices.is_complex() or indices.is_floating_point() or indices.dtype is dtypes.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, int):
        shape = (shape,)
    elif isinstance(shape, Sequence):
        for size in shape:
            if not isinstance(size, int):
                raise TypeError(f"expected 'shape' sequence to only contain ints, but got "
                                f"{type(size)}")
    else:
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got "
                        f"{type(shape)}")
    shape = tuple(shape)
    if any(size < 0 for size in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    place_values = np.array([math.prod(shape[i + 1:]) for i in range(len(shape))], np.int64)
    sizes = wrap_array(np.array(shape, np.int64), dtypes.int64)
    coordinates = indices.unsqueeze(-1).floor_divide(wrap_array(place_values, dtypes.int64))
    return (coordinates % sizes).unbind(-1)
