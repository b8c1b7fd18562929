"""Shape operators written in other operators: reshape, flatten, movedim, chunk, ...

Each is a composite (ATen's CompositeImplicitAutograd): it checks its arguments the
way torch does, then calls the view operators of `view.py` (or `clone` when a copy
cannot be avoided). So it runs on every backend, and its results are views exactly
when the operators it calls make views: ``x.reshape(-1)`` of a contiguous `x` has
``_base is x``, of a transposed one it is a fresh tensor.
"""
from __future__ import annotations

import functools
import os
import sys
import warnings

from ....c10 import dtype as dtypes
from ....c10.device import device_type
from ....c10.dispatch_key import CONJUGATE
from ....c10.layout import contiguous_format
from ....c10.tensor_impl import forget_array
from ...backends import register_meta
from ...dispatcher import ops
from ...meta.shape import flattened_size, infer_size, reshape_plan, wrap_dim
from ...registry import composite
from ..creation.copy import clone, contiguous
from .split_views import chunk_split_size, split, split_with_sizes
from .view import (alias, as_strided, expand, permute, reshape_alias, select, size_at, slice_,
                   squeeze, squeeze_dim, squeeze_dims, strided_geometry, t_geometry, transpose,
                   unsafe_view, unsqueeze, view_, view_as_real)


# ----------------------------------------------------------------------------------
# Reshaping
# ----------------------------------------------------------------------------------
@composite("reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", method=True)
def reshape(self, shape):
    """`self` with a new shape: a view when strides allow it, else a contiguous copy.

    Args:
        input (Tensor): the tensor to reshape.
        shape (tuple of int): the new shape; one entry may be -1 (inferred).

    Example::

        >>> x = torch.zeros(2, 3)
        >>> x.reshape(-1)._base is x          # contiguous: a view
        True
        >>> x.t().reshape(-1)._base is None   # transposed: a copy
        True
    """
    try:
        size, stride, contiguous = reshape_plan(self._size, self._stride, shape)
    except TypeError:                           # a list from an internal caller
        size, stride, contiguous = reshape_plan(self._size, self._stride, tuple(shape))
    if stride is None:
        return unsafe_view.call(clone.call(self, contiguous_format), size)
    if contiguous:                              # torch's two view roads, two node names
        return view_.call(self, size)
    return reshape_alias.call(self, size, stride)


@composite("reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", method=True,
           function=False)
def reshape_as(self, other):
    """``self.reshape(other.shape)``."""
    return reshape.call(self, other._size)


@composite("view_as(Tensor(a) self, Tensor other) -> Tensor(a)", method=True, function=False)
def view_as(self, other):
    """``self.view(other.shape)``."""
    return view_.call(self, other._size)


@composite("flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)",
           method=True)
def flatten(self, start_dim=0, end_dim=-1):
    """Merge dims `start_dim` .. `end_dim` into one (by `reshape`: a view when possible).

    A 0-dim tensor becomes 1-D; when ``start_dim == end_dim`` `self` itself is returned.

    Example::

        >>> torch.zeros(2, 3, 4).flatten(1).shape
        torch.Size([2, 12])
    """
    size = flattened_size(self._size, start_dim, end_dim)
    return self if size is None else reshape.call(self, size)


@composite("unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)", method=True)
def unflatten(self, dim, sizes):
    """Split dim `dim` into several dims of the given `sizes` (one may be -1).

    Example::

        >>> torch.zeros(2, 12).unflatten(1, (3, -1)).shape
        torch.Size([2, 3, 4])
    """
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    d = wrap_dim(dim, len(self._size))
    try:
        inferred = infer_size(sizes, size_at(self, d))
    except (RuntimeError, IndexError) as error:
        if "is invalid for input of size" in str(error):
            raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to "
                               f"the size of dim {d} ({self._size[d]}) in the input "
                               f"tensor") from None
        raise RuntimeError(f"unflatten got an unexpected error:\n{error}") from None
    return view_.call(self, self._size[:d] + inferred + self._size[d + 1:])


@composite("ravel(Tensor(a) self) -> Tensor(a)", method=True)
def ravel(self):
    """The elements as a 1-D tensor: a view of `self` if contiguous, else of a copy.

    Example::

        >>> torch.zeros(2, 3).ravel().shape
        torch.Size([6])
    """
    return view_.call(contiguous.call(self, contiguous_format), (-1,))


# ----------------------------------------------------------------------------------
# Reordering dimensions
# ----------------------------------------------------------------------------------
@composite("swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)", method=True)
def swapaxes(self, axis0, axis1):
    """NumPy's name for `transpose`."""
    return transpose.call(self, axis0, axis1)


@composite("swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", method=True)
def swapdims(self, dim0, dim1):
    """Another name for `transpose`."""
    return transpose.call(self, dim0, dim1)


def _movedim(self, source, destination):
    order = _movedim_order(len(self._size), tuple(source), tuple(destination))
    return alias.call(self) if order is None else permute.call(self, order)


@functools.lru_cache(maxsize=256)
def _movedim_order(ndim: int, source: tuple, destination: tuple):
    """movedim's permutation of `ndim` dims (None for a 0-dim tensor), once per call
    pattern; its checks raise torch's errors."""
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source "
                           f"({list(source)} dims) should contain the same number of dims as "
                           f"destination ({list(destination)} dims)")
    src = [wrap_dim(d, ndim) for d in source]
    dst = [wrap_dim(d, ndim) for d in destination]
    for wrapped, given, name in ((src, source, "source"), (dst, destination, "destination")):
        if len(set(wrapped)) != len(wrapped):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(given)})")
    if ndim == 0:
        return None
    order = [None] * ndim
    for s, d in zip(src, dst):
        order[d] = s
    # The dims not moved keep their relative order in the free result positions.
    unmoved = iter(d for d in range(ndim) if d not in src)
    return tuple(d if d is not None else next(unmoved) for d in order)


_MOVEDIM_DOC = """Move dims `source` to positions `destination`; the others keep their order.

    Example::

        >>> torch.zeros(2, 3, 4).movedim(0, -1).shape
        torch.Size([3, 4, 2])
    """


def _declare_movedim(name: str) -> tuple:
    def movedim_int(self, source, destination):
        return _movedim(self, (source,), (destination,))

    def movedim_intlist(self, source, destination):
        return _movedim(self, source, destination)
    movedim_int.__doc__ = movedim_intlist.__doc__ = _MOVEDIM_DOC
    return (composite(f"{name}.int(Tensor(a) self, int source, int destination) -> Tensor(a)",
                      method=True)(movedim_int),
            composite(f"{name}.intlist(Tensor(a) self, int[] source, int[] destination) -> "
                      "Tensor(a)", method=True)(movedim_intlist))


movedim_int, movedim_intlist = _declare_movedim("movedim")
moveaxis_int, moveaxis_intlist = _declare_movedim("moveaxis")


# ----------------------------------------------------------------------------------
# Transposes spelled as properties (Tensor.T, .mT, .H, .mH) and adjoint
# ----------------------------------------------------------------------------------
_WARNED: set = set()      # torch warns once per process for these deprecations


def _warn_once(message: str) -> None:
    if message in _WARNED:
        return
    _WARNED.add(message)
    warnings.warn(message, UserWarning, stacklevel=_caller_stacklevel())


def _caller_stacklevel() -> int:
    """The `stacklevel` naming the first frame outside glasstorch (the user's line)."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _conj(t):
    """The lazy conjugate of a complex tensor (Note [Math bits]); plain `t` for reals."""
    return ops.aten.conj.default.call(t) if t._dtype.is_complex else t


@composite("numpy_T(Tensor(a) self) -> Tensor(a)", function=False)
def numpy_T(self):
    """`Tensor.T`: all dims reversed (deprecated by torch for anything but 2-D)."""
    ndim = len(self._size)
    if ndim not in (0, 2):
        _warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their "
                   "shape is deprecated and it will throw an error in a future release. "
                   "Consider `x.mT` to transpose batches of matrices or "
                   "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions "
                   "of a tensor.")
    if ndim == 0:
        _warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in "
                   "these cases.")
    return permute.call(self, tuple(range(ndim - 1, -1, -1)))


@composite("matrix_H(Tensor(a) self) -> Tensor(a)", function=False)
def matrix_H(self):
    """`Tensor.H`: the conjugate transpose of a matrix."""
    ndim = len(self._size)
    if ndim == 0:
        _warn_once("Tensor.H is deprecated on 0-D tensors. Consider using x.conj().")
        return _conj(self)
    if ndim != 2:
        hint = " For batches of matrices, consider using tensor.mH" if ndim > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{ndim}-D tensor.{hint}")
    return _conj(transpose.call(self, -2, -1))


def _batch_transpose(self, name: str, conjugate: bool, zero_dim_warning: str):
    ndim = len(self._size)
    if ndim == 0:           # deprecated, but still the identity (conjugated)
        _warn_once(zero_dim_warning)
        return _conj(self) if conjugate else self
    if ndim < 2:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of "
                           f"matrices. Got {ndim}-D tensor.")
    result = transpose.call(self, -2, -1)
    return _conj(result) if conjugate else result


@composite("mT(Tensor(a) self) -> Tensor(a)", function=False)
def mT(self):
    """`Tensor.mT`: the last two dims swapped (a batch of matrices transposed)."""
    return _batch_transpose(self, "mT", False, "Tensor.mT is deprecated on 0-D tensors. This "
                            "function is the identity in these cases.")


@composite("mH(Tensor(a) self) -> Tensor(a)", function=False)
def mH(self):
    """`Tensor.mH`: a batch of matrices conjugate-transposed."""
    return _batch_transpose(self, "mH", True, "Tensor.mH is deprecated on 0-D tensors. "
                            "Consider using x.conj().")


@composite("adjoint(Tensor(a) self) -> Tensor(a)", method=True)
def adjoint(self):
    """The conjugate transpose of the last two dims (``x.mH``).

    Example::

        >>> torch.zeros(5, 2, 3).adjoint().shape
        torch.Size([5, 3, 2])
    """
    return _batch_transpose(self, "adjoint()", True, "adjoint() is deprecated on 0-D tensors. "
                            "Consider using x.conj().")


# ----------------------------------------------------------------------------------
# Broadcasting, narrowing, real and imaginary parts
# ----------------------------------------------------------------------------------
@composite("expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", method=True, function=False)
def expand_as(self, other):
    """``self.expand(other.shape)``."""
    return expand.call(self, other._size, False)


@composite("broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)", method=True)
def broadcast_to(self, size):
    """`self` broadcast to `size` (a view with stride 0 in stretched dims), as `expand`.

    Example::

        >>> torch.zeros(3).broadcast_to((2, 3)).stride()
        (0, 1)
    """
    return expand.call(self, size, False)


@composite("narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)",
           method=True)
def narrow(self, dim, start, length):
    """Elements ``start .. start + length - 1`` along `dim`, as a view.

    Example::

        >>> torch.zeros(5, 2).narrow(0, 1, 3).shape
        torch.Size([3, 2])
    """
    if not self._size:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    d = wrap_dim(dim, len(self._size))
    size = self._size[d]
    if start < -size or start > size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if start > size - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return slice_.call(self, d, start, start + length, 1)


@composite("narrow.Tensor(Tensor(a) self, int dim, Tensor start, SymInt length) -> Tensor(a)",
           method=True)
def narrow_tensor(self, dim, start, length):
    """`narrow` with `start` given as a 0-dim integer tensor."""
    if start.dim() != 0 or start._dtype.is_floating_point or start._dtype.is_complex \
            or start._dtype is dtypes.bool:
        raise RuntimeError("start must be an 0-dim integral Tensor.")
    return narrow.call(self, dim, int(start.item()), length)


@composite("real(Tensor(a) self) -> Tensor(a)")
def real(self):
    """The real parts of a complex tensor, as a view; a real tensor is returned as is.

    Example::

        >>> torch.real(torch.zeros(2, dtype=torch.complex64)).dtype
        torch.float32
    """
    if self._dtype.is_complex:
        return select.call(_pairs(self), -1, 0)
    return self


@composite("imag(Tensor(a) self) -> Tensor(a)")
def imag(self):
    """The imaginary parts of a complex tensor, as a view (real tensors have none).

    Example::

        >>> torch.imag(torch.zeros(2, dtype=torch.complex64)).stride()
        (2,)
    """
    if not self._dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    pairs = _pairs(self)      # a conjugate's imaginary parts: its memory's, negated lazily
    pairs = ops.aten._neg_view.default.call(pairs) if self._keys & CONJUGATE else pairs
    return select.call(pairs, -1, 1)


def _pairs(self):
    """`view_as_real` of the memory of `self` (a conjugate view's, its bit dropped)."""
    if self._keys & CONJUGATE:
        self = ops.aten._conj.default.call(self)
    return view_as_real.call(self)


# ----------------------------------------------------------------------------------
# Splitting into several views
# ----------------------------------------------------------------------------------
@composite("split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]",
           method=True, function=False)
def split_sizes(self, split_size, dim=0):
    """`Tensor.split` given a list of lengths: `split_with_sizes`."""
    return split_with_sizes.call(self, split_size, dim)


def split_function(tensor, split_size_or_sections, dim=0) -> tuple:
    """Split a tensor into views along `dim`.

    Args:
        tensor (Tensor): the tensor to split.
        split_size_or_sections (int or list of int): the length of every piece (the
            last may be shorter), or the list of the pieces' lengths.
        dim (int): the dimension to split along.

    Returns:
        tuple of Tensor: views of `tensor`.

    Example::

        >>> [t.shape[0] for t in torch.split(torch.zeros(5), 2)]
        [2, 2, 1]
        >>> [t.shape[0] for t in torch.split(torch.zeros(5), [1, 4])]
        [1, 4]
    """
    return tensor.split(split_size_or_sections, dim)


split_function.__name__ = split_function.__qualname__ = "split"


@composite("chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]", method=True)
def chunk(self, chunks, dim=0):
    """At most `chunks` views of equal length along `dim` (the last may be shorter).

    Example::

        >>> [t.shape[0] for t in torch.zeros(6).chunk(4)]
        [2, 2, 2]
    """
    split_size = chunk_split_size(self, chunks, dim)
    if split_size is None:
        return split_with_sizes.call(self, [0] * chunks, dim)
    return split.call(self, split_size, dim)


def _check_splittable(self) -> int:
    if not self._size:
        raise RuntimeError(f"tensor_split expected at least a 1-dimensional tensor, but got a "
                           f"tensor with {len(self._size)} dims")
    return len(self._size)


@composite("tensor_split.sections(Tensor(a -> *) self, SymInt sections, int dim=0) -> "
           "Tensor(a)[]", method=True)
def tensor_split(self, sections, dim=0):
    """Split into `sections` views as equal as possible (NumPy's ``array_split``).

    The first ``size % sections`` pieces get one element more. With a list of
    `indices` instead, the pieces are ``[:i0], [i0:i1], ..., [ik:]``.

    Example::

        >>> [t.shape[0] for t in torch.zeros(7).tensor_split(3)]
        [3, 2, 2]
    """
    d = wrap_dim(dim, _check_splittable(self))
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    smaller, extra = divmod(self._size[d], sections)
    pieces, start = [], 0
    for i in range(sections):
        length = smaller + 1 if i < extra else smaller
        pieces.append(slice_.call(self, d, start, start + length, 1))
        start += length
    return pieces


@composite("tensor_split.indices(Tensor(a -> *) self, SymInt[] indices, int dim=0) -> "
           "Tensor(a)[]", method=True)
def tensor_split_indices(self, indices, dim=0):
    """`tensor_split` at the given indices (Python slice rules: negative, clamped)."""
    d = wrap_dim(dim, _check_splittable(self))
    pieces, start = [], 0
    for end in indices:
        pieces.append(slice_.call(self, d, start, end, 1))
        start = end
    pieces.append(slice_.call(self, d, start, self._size[d], 1))
    return pieces


@composite("tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, "
           "Tensor tensor_indices_or_sections, int dim=0) -> Tensor(a)[]", method=True)
def tensor_split_tensor(self, tensor_indices_or_sections, dim=0):
    """`tensor_split` with sections (0-dim) or indices (1-D) given as an int64 tensor."""
    _check_splittable(self)
    where = tensor_indices_or_sections
    if not device_type(where._device).host:        # its values are read here
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be on cpu, "
                           f"but it's on {where._device}")
    if where._dtype is not dtypes.int64:
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of "
                           f"long, but got {dtypes.scalar_type_name(where._dtype)}")
    if where.dim() > 1:
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                           f"zero-dimensional or one-dimensional tensor, but got a tensor with "
                           f"{where.dim()} dims")
    if where.dim() == 0:
        return tensor_split.call(self, int(where.item()), dim)
    return tensor_split_indices.call(self, tuple(int(i) for i in where.tolist()), dim)


def _declare_directional_split(name: str, min_dims: int, dim_of, doc: str) -> tuple:
    """hsplit / vsplit / dsplit: `tensor_split` along a fixed dim, sections must divide it."""
    def check(self) -> int:
        ndim = len(self._size)
        if ndim < min_dims:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} "
                               f"dimension, but got a tensor with {ndim} dimensions!")
        return dim_of(ndim)

    def by_sections(self, sections):
        d = check(self)
        if sections == 0 or self._size[d] % sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the "
                               f"size of the dimension {self._size[d]} is not divisible by the "
                               f"split_size {sections}!")
        return tensor_split.call(self, sections, d)

    def by_indices(self, indices):
        return tensor_split_indices.call(self, indices, check(self))
    by_sections.__doc__ = doc
    by_indices.__doc__ = f"`torch.{name}` at the given indices (see `tensor_split`)."
    return (composite(f"{name}.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]",
                      method=True)(by_sections),
            composite(f"{name}.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]",
                      method=True)(by_indices))


hsplit_int, hsplit_array = _declare_directional_split(
    "hsplit", 1, lambda ndim: 0 if ndim == 1 else 1,
    """Split into equal views column-wise: along dim 1 (dim 0 for a 1-D tensor).

    Example::

        >>> [t.shape for t in torch.zeros(2, 4).hsplit(2)]
        [torch.Size([2, 2]), torch.Size([2, 2])]
    """)
vsplit_int, vsplit_array = _declare_directional_split(
    "vsplit", 2, lambda ndim: 0,
    """Split into equal views row-wise: along dim 0 of a tensor with 2 or more dims.""")
dsplit_int, dsplit_array = _declare_directional_split(
    "dsplit", 3, lambda ndim: 2,
    """Split into equal views depth-wise: along dim 2 of a tensor with 3 or more dims.""")


# ----------------------------------------------------------------------------------
# In-place views: `self` itself takes the new geometry (x.t_(), x.unsqueeze_(0), ...).
# Autograd records them with their view's formula (TBackward1, ...), as torch does; the
# version bump (torch counts a change of geometry as a write) is the declaration's.
# ----------------------------------------------------------------------------------
def _declare_in_place(schema: str, name: str, rule, grad: dict, meta_rule=None) -> None:
    restride = _restride_by(rule)
    restride.__doc__ = (f"In-place `{name}`: `self` takes the geometry the view would have, "
                        f"and is returned.")
    declared = composite(schema, method=True, function=False, grad=grad)(restride)
    declared.declaration.in_place_view = True          # see autograd/views.py is_tracked_view
    if meta_rule is not None:
        register_meta(declared, _restride_by(meta_rule))


def _restride_by(rule):
    def restride(self, *args):
        size, stride, offset = rule(self, *args)[:3]
        self._size, self._stride, self._offset = size, stride, offset
        forget_array(self)          # the cached ndarray has the old geometry
        return self
    return restride


for _schema, _name, _rule, _grad in (
        ("t_(Tensor(a!) self) -> Tensor(a!)", "t", lambda self: t_geometry(self, "t_"),
         {"self": "grad.t()"}),
        ("transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", "transpose",
         transpose.declaration.meta, transpose.declaration.grad),
        ("swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)", "swapaxes",
         transpose.declaration.meta, {"self": "grad.transpose(axis0, axis1)"}),
        ("swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", "swapdims",
         transpose.declaration.meta, transpose.declaration.grad),
        ("unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)", "unsqueeze",
         unsqueeze.declaration.meta, unsqueeze.declaration.grad),
        ("squeeze_(Tensor(a!) self) -> Tensor(a!)", "squeeze", squeeze.declaration.meta,
         squeeze.declaration.grad),
        ("squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)", "squeeze",
         squeeze_dim.declaration.meta, squeeze.declaration.grad),
        ("squeeze_.dims(Tensor(a!) self, int[] dim) -> Tensor(a!)", "squeeze",
         squeeze_dims.declaration.meta, squeeze.declaration.grad)):
    _declare_in_place(_schema, _name, _rule, _grad)
_declare_in_place(
    "as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
    "-> Tensor(a!)", "as_strided",
    lambda self, size, stride, offset: strided_geometry(self, size, stride, offset, True),
    as_strided.declaration.grad,
    lambda self, size, stride, offset: strided_geometry(self, size, stride, offset, True,
                                                        meta_words=True))
