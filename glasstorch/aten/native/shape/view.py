"""View operators: each returns new geometry over the same storage, never a copy.

A view rule gets the input tensor (on any device) and returns
``(sizes, strides, storage_offset)`` (plus a dtype when it reinterprets the bytes),
or a list of those for operators returning several views; the registry makes the
aliasing tensors and shares `_base` and the version counter (see `registry.view`).
So every rule here is plain stride arithmetic, the heart of the strided tensor
model. Shape operators written in terms of these rules live in `shape.py`.
"""
from __future__ import annotations

from ....c10 import dtype as dtypes
from ....c10.device import device_type
from ....c10.dispatch_key import CONJUGATE
from ....c10.dtype import scalar_type_name
from ... import functions as at
from ...derivatives import derivative_helper
from ...math_bits import refuse_reinterpret
from ...meta.shape import compute_view_stride, infer_size, wrap_dim, wrap_dims
from ...backends import register_meta
from ...registry import view


def legacy_type_name(t) -> str:
    """torch's legacy name of a tensor's type, as its messages and `Tensor.type()` print
    it: ``torch.FloatTensor``, ``torch.meta.LongTensor``."""
    return f"{device_type(t._device).legacy_module}.{scalar_type_name(t._dtype)}Tensor"


def type_string(t) -> str:
    """ATen's ``toString()`` of a tensor's type: ``torch.FloatTensor`` for the classic CPU
    types, ``CPUBoolType`` / ``MetaFloatType`` for the others (as expand's message shows)."""
    kind = device_type(t._device)
    if t._dtype in kind.legacy_dtypes:
        return legacy_type_name(t)
    return f"{kind.backend}{scalar_type_name(t._dtype)}Type"


def size_at(t, dim: int) -> int:
    """``t.size(dim)`` for a wrapped `dim`, with torch's error for 0-dim tensors."""
    if not t._size:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return t._size[dim]


# ----------------------------------------------------------------------------------
# Reshaping views
# ----------------------------------------------------------------------------------
def _view_geometry(self, size) -> tuple:
    size = infer_size(size, self.numel())
    stride = compute_view_stride(self._size, self._stride, size)
    if stride is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.")
    return size, stride, self._offset


# The gradient of a view that only regroups elements: reshaped back.
_RESHAPE = {"self": "grad.reshape(self_sym_sizes)"}


@view("view(Tensor(a) self, SymInt[] size) -> Tensor(a)", function=False, grad=_RESHAPE,
      cached=True)
def view_(self, size):
    """Return a tensor with the same data and a new shape (one size may be -1).

    The result shares storage with `self`. When no strides can express the new
    shape over the existing layout, this raises; `reshape` copies instead.

    Args:
        size (torch.Size or int...): the new shape.

    Example::

        >>> x = torch.zeros(2, 6)
        >>> x.view(3, -1).shape
        torch.Size([3, 4])
    """
    return _view_geometry(self, size)


@view("view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", function=False,
      is_view=False)
def view_dtype(self, dtype):
    """Reinterpret the bytes of `self` as `dtype` (the last dim rescales if sizes differ).

    As in torch, the result shares storage and version counter but is not recorded
    as a view (`_base` is None): autograd cannot follow a change of dtype.

    Example::

        >>> torch.zeros(2, 4).view(torch.complex64).shape
        torch.Size([2, 2])
    """
    refuse_reinterpret(self)
    old, new = self._dtype.itemsize, dtype.itemsize
    if old == new:
        return self._size, self._stride, self._offset, dtype
    what = f"to view {scalar_type_name(self._dtype)} as {scalar_type_name(dtype)} " \
           "(different element sizes)"
    if not self._size:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    if old > new:
        if self._stride[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {self._stride[-1]}")
        ratio = old // new
        return (self._size[:-1] + (self._size[-1] * ratio,),
                tuple(st * ratio for st in self._stride[:-1]) + (1,), self._offset * ratio,
                dtype)
    ratio = new // old
    if self._size[-1] % ratio:
        raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got "
                           f"{self._size[-1]}")
    if self._offset % ratio:
        raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, but "
                           f"got {self._offset}")
    if self._stride[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {self._stride[-1]}")
    for i, st in enumerate(self._stride[:-1]):
        if st % ratio:
            raise RuntimeError(f"self.stride({i}) must be divisible by {ratio} {what}, but "
                               f"got {st}")
    return (self._size[:-1] + (self._size[-1] // ratio,),
            tuple(st // ratio for st in self._stride[:-1]) + (1,), self._offset // ratio, dtype)


@view("_reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)",
      method=False, function=False, grad=_RESHAPE, cached=True)
def reshape_alias(self, size, stride):
    """The view `reshape` makes once it has found strides for the new shape."""
    return tuple(size), tuple(stride), self._offset


@view("_unsafe_view(Tensor self, SymInt[] size) -> Tensor", method=False, function=False,
      is_view=False, grad=_RESHAPE)
def unsafe_view(self, size):
    """`view` of a fresh tensor that is not recorded as a view (reshape's copying path)."""
    return _view_geometry(self, size)


# ----------------------------------------------------------------------------------
# Reordering dimensions
# ----------------------------------------------------------------------------------
@view("t(Tensor(a) self) -> Tensor(a)", grad={"self": "grad.t()"}, cached=True)
def t(self):
    """Transpose a tensor of at most 2 dims (0-D and 1-D tensors come back as they are).

    Example::

        >>> torch.zeros(2, 3).t().stride()
        (1, 3)
    """
    return t_geometry(self, "t")


def t_geometry(self, name: str) -> tuple:
    """`t`'s rule; `name` is the operator the message names (`t` or `t_`)."""
    ndim = len(self._size)
    if ndim > 2:
        raise RuntimeError(f"{name}() expects a tensor with <= 2 dimensions, but self is "
                           f"{ndim}D")
    if ndim < 2:
        return self._size, self._stride, self._offset
    return self._size[::-1], self._stride[::-1], self._offset


@view("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
      grad={"self": "grad.transpose(dim0, dim1)"}, cached=True)
def transpose(self, dim0, dim1):
    """Swap dimensions `dim0` and `dim1`: a view with two sizes and strides exchanged.

    Example::

        >>> torch.zeros(2, 3, 4).transpose(0, 2).shape
        torch.Size([4, 3, 2])
    """
    ndim = len(self._size)
    d0, d1 = wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)
    if ndim == 0:
        return self._size, self._stride, self._offset
    size, stride = list(self._size), list(self._stride)
    size[d0], size[d1] = size[d1], size[d0]
    stride[d0], stride[d1] = stride[d1], stride[d0]
    return tuple(size), tuple(stride), self._offset


@derivative_helper
def permute_backwards(grad, dims):
    """permute's inverse: dimension `dims[i]` of the input is dimension `i` of the view."""
    inverse = [0] * len(dims)
    for position, dim in enumerate(dims):
        inverse[dim % len(dims)] = position
    return grad.permute(inverse)


@view("permute(Tensor(a) self, int[] dims) -> Tensor(a)",
      grad={"self": "permute_backwards(grad, dims)"}, cached=True)
def permute(self, dims):
    """Reorder the dimensions: result dim i is input dim ``dims[i]``.

    Example::

        >>> torch.zeros(2, 3, 4).permute(2, 0, 1).shape
        torch.Size([4, 2, 3])
    """
    ndim = len(self._size)
    if len(dims) != ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {ndim} is not equal to len(dims) = {len(dims)}")
    order = []
    for d in dims:          # wrap and check one at a time: the first bad entry decides
        d = wrap_dim(d, ndim)
        if d in order:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        order.append(d)
    return (tuple(self._size[d] for d in order), tuple(self._stride[d] for d in order),
            self._offset)


# ----------------------------------------------------------------------------------
# Broadcasting
# ----------------------------------------------------------------------------------
@view("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)",
      function=False, grad={"self": "sum_to(grad, self_sym_sizes)"}, cached=True)
def expand(self, size, implicit=False):
    """Broadcast size-1 dims to larger sizes with stride 0 (no memory is used).

    New dims may be added in front; -1 keeps a dim's size.

    Example::

        >>> torch.zeros(3, 1).expand(2, 3, 4).stride()
        (0, 1, 0)
    """
    ndim = len(self._size)
    if len(size) < ndim:
        raise RuntimeError(f"expand({type_string(self)}{{{list(self._size)}}}, size="
                           f"{list(size)}): the number of sizes provided ({len(size)}) must be "
                           f"greater or equal to the number of dimensions in the tensor ({ndim})")
    if ndim == 0:
        new_size, new_stride = tuple(size), (0,) * len(size)
    else:
        new_size, new_stride = _expand_geometry(self._size, self._stride, tuple(size))
    for s in new_size:
        if s < 0:           # torch only notices when it counts the elements
            raise RuntimeError("numel: integer multiplication overflow")
    return new_size, new_stride, self._offset


def _expand_geometry(size: tuple, stride: tuple, target: tuple) -> tuple:
    """Sizes and strides of `expand`, right-aligned as broadcasting is (torch's order of checks).

    A new leading dim of size 1 gets the stride it would have in a dense layout; any
    stretched dim gets stride 0.
    """
    ndim, lead = len(target), len(target) - len(size)
    new_size, new_stride = [0] * ndim, [0] * ndim
    for i in range(ndim - 1, -1, -1):
        existing = i >= lead
        have = size[i - lead] if existing else 1
        step = stride[i - lead] if existing else new_size[i + 1] * new_stride[i + 1]
        wanted = target[i]
        if wanted == -1:
            if not existing:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            wanted = have
        if have != wanted:
            if have != 1:
                raise RuntimeError(f"The expanded size of the tensor ({wanted}) must match the "
                                   f"existing size ({have}) at non-singleton dimension {i}.  "
                                   f"Target sizes: {list(target)}.  Tensor sizes: {list(size)}")
            have, step = wanted, 0
        new_size[i], new_stride[i] = have, step
    return tuple(new_size), tuple(new_stride)


# ----------------------------------------------------------------------------------
# Taking part of a tensor: the gradient lands in the positions the view showed
# ----------------------------------------------------------------------------------
@derivative_helper
def select_backward(grad, sizes, dim: int, index: int):
    return at.select_scatter(grad.new_zeros(sizes), grad, dim, index)


@derivative_helper
def slice_backward(grad, sizes, dim: int, start, end, step: int):
    return at.slice_scatter(grad.new_zeros(sizes), grad, dim, start, end, step)


@derivative_helper
def diagonal_backward(grad, sizes, offset: int, dim1: int, dim2: int):
    return at.diagonal_scatter(grad.new_zeros(sizes), grad, offset, dim1, dim2)


@derivative_helper
def unfold_backward(grad, sizes, dimension: int, size: int, step: int):
    """Each window's gradient added back at the positions it covered (windows overlap
    when step < size, so their contributions sum)."""
    if not sizes:                             # a 0-dim input: one window of itself
        return grad.reshape(sizes)
    dimension = dimension % len(sizes)
    positions = (at.arange(grad.shape[dimension]) * step).unsqueeze(1) + at.arange(size)
    spread = grad.movedim(-1, dimension + 1).flatten(dimension, dimension + 1)
    return grad.new_zeros(sizes).index_add(dimension, positions.flatten(), spread)


def _storage_positions(sizes, strides, offset: int):
    """The storage index of every element of a strided geometry, in row-major order."""
    positions = at.full((), offset, dtype=dtypes.int64)
    for size, stride in zip(sizes, strides):
        positions = positions.unsqueeze(-1) + at.arange(size) * stride
    return positions.reshape(-1)


@derivative_helper
def as_strided_backward(grad, sizes, strides, offset, size, stride, storage_offset):
    """Each element of the strided view adds its gradient to the storage slot it read
    (slots read twice sum), and the input reads its elements back from those slots."""
    storage_offset = offset if storage_offset is None else storage_offset
    read = _storage_positions(size, stride, storage_offset)
    mine = _storage_positions(sizes, strides, offset)
    extent = 1 + max([0] + [int(p.max()) for p in (read, mine) if p.numel()])
    slots = grad.new_zeros((extent,)).index_add(0, read, grad.reshape(-1))
    return slots.index_select(0, mine).reshape(sizes)


@view("select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)",
      grad={"self": "select_backward(grad, self_sym_sizes, dim, index)"}, cached=True)
def select(self, dim, index):
    """Take one index along `dim`, removing that dimension.

    Example::

        >>> torch.zeros(2, 3).select(1, -1).storage_offset()
        2
    """
    ndim = len(self._size)
    if ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, ndim)
    size = self._size[d]
    if index < -size or index >= size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(self._size)} at dimension {d}")
    if index < 0:
        index += size
    return (self._size[:d] + self._size[d + 1:], self._stride[:d] + self._stride[d + 1:],
            self._offset + index * self._stride[d])


@view("slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
      "SymInt step=1) -> Tensor(a)", method=False, function=False,
      grad={"self": "slice_backward(grad, self_sym_sizes, dim, start, end, step)"},
      cached=True)
def slice_(self, dim=0, start=None, end=None, step=1):
    """Python's ``start:end:step`` along `dim` (clamped to the size; step must be positive)."""
    sizes, strides = self._size, self._stride
    if not sizes:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, len(sizes))
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    # Python's own clamping is torch's for a positive step: negative bounds count from
    # the end, both bounds are clipped to the size, an empty range starts at `start`.
    start, end, _ = slice(start, end).indices(sizes[d])
    count = len(range(start, end, step))
    return (sizes[:d] + (count,) + sizes[d + 1:],
            strides[:d] + (strides[d] * step,) + strides[d + 1:],
            self._offset + start * strides[d])


@view("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)",
      grad={"self": "diagonal_backward(grad, self_sym_sizes, offset, dim1, dim2)"},
      cached=True)
def diagonal(self, offset=0, dim1=0, dim2=1):
    """The diagonal of the (dim1, dim2) planes, as a new last dimension.

    A positive `offset` moves above the main diagonal, a negative one below.

    Example::

        >>> torch.zeros(3, 3).diagonal(1).shape
        torch.Size([2])
    """
    ndim = len(self._size)
    d1, d2 = wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    start = self._offset
    if offset >= 0:
        length = max(min(self._size[d1], self._size[d2] - offset), 0)
        start += offset * self._stride[d2] if length else 0
    else:
        length = max(min(self._size[d1] + offset, self._size[d2]), 0)
        start -= offset * self._stride[d1] if length else 0
    keep = [i for i in range(ndim) if i not in (d1, d2)]
    size = tuple(self._size[i] for i in keep) + (length,)
    stride = tuple(self._stride[i] for i in keep) + (self._stride[d1] + self._stride[d2],)
    return size, stride, start


@view("unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", function=False,
      grad={"self": "unfold_backward(grad, self_sym_sizes, dimension, size, step)"},
      cached=True)
def unfold(self, dimension, size, step):
    """All windows of `size` elements along `dimension`, `step` apart, as a new last dim.

    Windows may overlap (``step < size``): they share memory, nothing is copied.

    Example::

        >>> torch.zeros(5).unfold(0, 2, 1).shape
        torch.Size([4, 2])
    """
    ndim = len(self._size)
    d = wrap_dim(dimension, ndim)
    max_size = self._size[d] if ndim else 1
    if size > max_size:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {max_size} but size "
                           f"is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if ndim == 0:
        return (size,), (1,), self._offset
    count = (self._size[d] - size) // step + 1
    return (self._size[:d] + (count,) + self._size[d + 1:] + (size,),
            self._stride[:d] + (self._stride[d] * step,) + self._stride[d + 1:] +
            (self._stride[d],), self._offset)


@view("as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
      "-> Tensor(a)",
      grad={"self": "as_strided_backward(grad, self_sym_sizes, self_sym_strides, "
                    "self_sym_storage_offset, size, stride, storage_offset)"})
def as_strided(self, size, stride, storage_offset=None):
    """View the storage with explicit sizes, strides and offset (checked against its bounds).

    Example::

        >>> torch.zeros(6).as_strided((2, 2), (1, 2), 1).stride()
        (1, 2)
    """
    return strided_geometry(self, size, stride, storage_offset, True)


@register_meta(as_strided)
def _as_strided_meta(self, size, stride, storage_offset=None):
    """torch checks a meta tensor's storage bounds only in place (as_strided_)."""
    return strided_geometry(self, size, stride, storage_offset, False, meta_words=True)


def strided_geometry(self, size, stride, storage_offset, check_bounds: bool,
                     meta_words: bool = False) -> tuple:
    """`as_strided`'s rule: torch's checks, in torch's order, then the geometry.
    `meta_words`: a negative size refused as torch's meta path refuses it (counting
    elements), for the Meta registrations."""
    offset = self._offset if storage_offset is None else storage_offset
    if any(st < 0 for st in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, "
                           f"got strides: {list(stride)}")
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in size):
        if meta_words:
            raise RuntimeError("numel: integer multiplication overflow")
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    if check_bounds and all(s > 0 for s in size):
        itemsize = self._dtype.itemsize
        needed = (offset + 1 + sum((s - 1) * st for s, st in zip(size, stride))) * itemsize
        available = self._storage.nbytes()
        if needed > available:
            raise RuntimeError(
                f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
                f"{offset}, and itemsize {itemsize} requiring a storage size of {needed} are "
                f"out of bounds for storage of size {available}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    return tuple(size), tuple(stride), offset


# ----------------------------------------------------------------------------------
# Adding and removing size-1 dimensions
# ----------------------------------------------------------------------------------
@view("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", grad={"self": "grad.squeeze(dim)"},
      cached=True)
def unsqueeze(self, dim):
    """Insert a size-1 dimension at `dim` (-1 appends one at the end).

    Its stride is the one a dense layout would give it, so contiguity is kept.

    Example::

        >>> torch.zeros(2, 3).unsqueeze(1).shape
        torch.Size([2, 1, 3])
    """
    ndim = len(self._size)
    d = wrap_dim(dim, ndim + 1)
    new_stride = 1 if d >= ndim else self._size[d] * self._stride[d]
    return (self._size[:d] + (1,) + self._size[d:],
            self._stride[:d] + (new_stride,) + self._stride[d:], self._offset)


def _squeeze(self, dims) -> tuple:
    keep = [i for i in range(len(self._size)) if not (i in dims and self._size[i] == 1)]
    return (tuple(self._size[i] for i in keep), tuple(self._stride[i] for i in keep),
            self._offset)


@view("squeeze(Tensor(a) self) -> Tensor(a)", grad=_RESHAPE, cached=True)
def squeeze(self):
    """Remove every size-1 dimension.

    Example::

        >>> torch.zeros(2, 1, 3, 1).squeeze().shape
        torch.Size([2, 3])
    """
    return _squeeze(self, range(len(self._size)))


@view("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", grad=_RESHAPE, cached=True)
def squeeze_dim(self, dim):
    """Remove dimension `dim` if its size is 1 (otherwise the geometry stays)."""
    return _squeeze(self, (wrap_dim(dim, len(self._size)),))


@view("squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)", grad=_RESHAPE, cached=True)
def squeeze_dims(self, dim):
    """Remove those of the listed dimensions that have size 1."""
    return _squeeze(self, wrap_dims(dim, len(self._size)))


@view("alias(Tensor(a) self) -> Tensor(a)", method=False, function=False,
      grad={"self": "grad"}, cached=True)
def alias(self):
    """A new tensor object viewing exactly the same elements."""
    return self._size, self._stride, self._offset


# ----------------------------------------------------------------------------------
# Complex numbers as pairs of reals
# ----------------------------------------------------------------------------------
@view("view_as_real(Tensor(a) self) -> Tensor(a)", method=False,
      grad={"self": "view_as_complex(grad.contiguous())"})
def view_as_real(self):
    """View a complex tensor as real numbers, with a new last dim of size 2 (real, imag).

    Example::

        >>> torch.view_as_real(torch.zeros(3, dtype=torch.complex64)).shape
        torch.Size([3, 2])
    """
    if not self._dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if self._keys & CONJUGATE:
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To "
                           "resolve the conjugate tensor so you can view it as real, use "
                           "self.resolve_conj(); however, be warned that the resulting tensor "
                           "will NOT alias the original.")
    return (self._size + (2,), tuple(st * 2 for st in self._stride) + (1,), self._offset * 2,
            self._dtype.to_real())


@view("view_as_complex(Tensor(a) self) -> Tensor(a)", method=False,
      grad={"self": "view_as_real(grad.contiguous())"})
def view_as_complex(self):
    """View pairs of reals (a last dim of size 2, stride 1) as complex numbers.

    Example::

        >>> torch.view_as_complex(torch.zeros(3, 2)).dtype
        torch.complex64
    """
    if self._dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
        raise RuntimeError(f"view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: "
                           f"{scalar_type_name(self._dtype)}")
    if not self._size:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if self._size[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if self._stride[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(st % 2 for st in self._stride[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if self._offset % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    complex_dtype = self._dtype.to_complex()
    return (self._size[:-1], tuple(st // 2 for st in self._stride[:-1]), self._offset // 2,
            complex_dtype)
