"""View operators: each returns new geometry over the same storage, never a copy.

A view rule gets the input tensor (on any device) and returns
``(sizes, strides, storage_offset)``; the registry makes the aliasing tensor and
shares the version counter (see `registry.view`). So every rule here is plain
stride arithmetic, the heart of the strided tensor model.
"""
from __future__ import annotations

from ...c10 import dtype as dtypes
from ...c10.dtype import scalar_type_name
from ..meta.shape import compute_view_stride, infer_size, wrap_dim, wrap_dims
from ..registry import view


@view("view(Tensor(a) self, SymInt[] size) -> Tensor(a)", function=False)
def view_(self, size):
    """Return a tensor with the same data and a new shape (one size may be -1).

    The result shares storage with `self`; when no strides can express the new shape
    over the existing layout, this raises and `reshape` should be used instead.

    Example::

        >>> torch.arange(6).view(2, 3).stride()
        (3, 1)
    """
    numel = self.numel()
    size = infer_size(size, numel)
    stride = compute_view_stride(self._size, self._stride, size)
    if stride is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.")
    return size, stride, self._offset


@view("view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", function=False)
def view_dtype(self, dtype):
    """Reinterpret the bytes of `self` as `dtype`; the last dim rescales when sizes differ."""
    old, new = self._dtype.itemsize, dtype.itemsize
    if old == new:
        return self._size, self._stride, self._offset, dtype
    if self.dim() == 0:
        raise RuntimeError("self.dim() cannot be 0 to view " + scalar_type_name(self._dtype) +
                           " as " + scalar_type_name(dtype) + " (different element sizes)")
    if self._stride[-1] != 1:
        raise RuntimeError("self.stride(-1) must be 1 to view " + scalar_type_name(self._dtype) +
                           " as " + scalar_type_name(dtype) + " (different element sizes), but "
                           f"got {self._stride[-1]}")
    if new > old:
        ratio = new // old
        if self._size[-1] % ratio:
            raise RuntimeError(f"self.size(-1) must be divisible by {ratio} to view "
                               f"{scalar_type_name(self._dtype)} as {scalar_type_name(dtype)} "
                               f"(different element sizes), but got {self._size[-1]}")
        if self._offset % ratio:
            raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} to view "
                               f"{scalar_type_name(self._dtype)} as {scalar_type_name(dtype)} "
                               f"(different element sizes), but got {self._offset}")
        for i, st in enumerate(self._stride[:-1]):
            if st % ratio:
                raise RuntimeError(f"self.stride({i}) must be divisible by {ratio} to view "
                                   f"{scalar_type_name(self._dtype)} as "
                                   f"{scalar_type_name(dtype)} (different element sizes), "
                                   f"but got {st}")
        size = self._size[:-1] + (self._size[-1] // ratio,)
        stride = tuple(st // ratio for st in self._stride[:-1]) + (1,)
        return size, stride, self._offset // ratio, dtype
    ratio = old // new
    size = self._size[:-1] + (self._size[-1] * ratio,)
    stride = tuple(st * ratio for st in self._stride[:-1]) + (1,)
    return size, stride, self._offset * ratio, dtype


@view("t(Tensor(a) self) -> Tensor(a)")
def t(self):
    """Transpose a tensor of at most 2 dims (0-D and 1-D tensors come back as they are)."""
    ndim = self.dim()
    if ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {ndim}D")
    if ndim < 2:
        return self._size, self._stride, self._offset
    return self._size[::-1], self._stride[::-1], self._offset


@view("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)")
def transpose(self, dim0, dim1):
    """Swap dimensions `dim0` and `dim1`: a view with two sizes and strides exchanged."""
    ndim = self.dim()
    d0, d1 = wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)
    if ndim == 0:
        return self._size, self._stride, self._offset
    size, stride = list(self._size), list(self._stride)
    size[d0], size[d1] = size[d1], size[d0]
    stride[d0], stride[d1] = stride[d1], stride[d0]
    return tuple(size), tuple(stride), self._offset


@view("permute(Tensor(a) self, int[] dims) -> Tensor(a)")
def permute(self, dims):
    """Reorder the dimensions: result dim i is input dim ``dims[i]``."""
    ndim = self.dim()
    if len(dims) != ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {ndim} is not equal to len(dims) = {len(dims)}")
    order = wrap_dims(dims, ndim, "permute(): duplicate dims are not allowed.")
    return (tuple(self._size[d] for d in order), tuple(self._stride[d] for d in order),
            self._offset)


@view("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)",
      function=False)
def expand(self, size, implicit=False):
    """Broadcast size-1 dims to larger sizes with stride 0 (no memory is used); -1 keeps a size."""
    ndim = self.dim()
    if len(size) < ndim:
        raise RuntimeError(f"expand({self.type()}{{{list(self._size)}}}, size={list(size)}): the "
                           f"number of sizes provided ({len(size)}) must be greater or equal to "
                           f"the number of dimensions in the tensor ({ndim})")
    lead = len(size) - ndim
    new_size, new_stride = [], []
    for i, target in enumerate(size):
        if i < lead:
            if target < 0:
                raise RuntimeError(f"The expanded size of the tensor ({target}) isn't allowed "
                                   f"in a leading, non-existing dimension {i}")
            new_size.append(target)
            new_stride.append(0)
            continue
        have, step = self._size[i - lead], self._stride[i - lead]
        if target == -1:
            target = have
        if have == target:
            new_size.append(have)
            new_stride.append(step)
        elif have == 1:
            new_size.append(target)
            new_stride.append(0)
        else:
            raise RuntimeError(f"The expanded size of the tensor ({target}) must match the "
                               f"existing size ({have}) at non-singleton dimension {i}.  "
                               f"Target sizes: {list(size)}.  Tensor sizes: {list(self._size)}")
    return tuple(new_size), tuple(new_stride), self._offset


@view("select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)")
def select(self, dim, index):
    """Take one index along `dim`, removing that dimension."""
    ndim = self.dim()
    if ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, ndim)
    size = self._size[d]
    if index < -size or index >= size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(self._size)} at dimension {dim}")
    if index < 0:
        index += size
    return (self._size[:d] + self._size[d + 1:], self._stride[:d] + self._stride[d + 1:],
            self._offset + index * self._stride[d])


@view("slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
      "SymInt step=1) -> Tensor(a)", method=False, function=False)
def slice_(self, dim=0, start=None, end=None, step=1):
    """Python's ``start:end:step`` along `dim` (clamped to the size; step must be positive)."""
    ndim = self.dim()
    if ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, ndim)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    length = self._size[d]
    start = 0 if start is None else (start + length if start < 0 else start)
    end = length if end is None else (end + length if end < 0 else end)
    start = min(max(start, 0), length)
    end = min(max(end, start), length)
    count = (end - start + step - 1) // step
    size = self._size[:d] + (count,) + self._size[d + 1:]
    stride = self._stride[:d] + (self._stride[d] * step,) + self._stride[d + 1:]
    return size, stride, self._offset + start * self._stride[d]


@view("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)")
def unsqueeze(self, dim):
    """Insert a size-1 dimension at `dim` (its stride keeps the layout contiguous-compatible)."""
    ndim = self.dim()
    d = wrap_dim(dim, ndim + 1)
    new_stride = 1 if d >= ndim else self._size[d] * self._stride[d]
    return (self._size[:d] + (1,) + self._size[d:], self._stride[:d] + (new_stride,) +
            self._stride[d:], self._offset)


def _squeeze(self, dims):
    keep = [i for i in range(self.dim()) if not (i in dims and self._size[i] == 1)]
    return (tuple(self._size[i] for i in keep), tuple(self._stride[i] for i in keep),
            self._offset)


@view("squeeze(Tensor(a) self) -> Tensor(a)")
def squeeze(self):
    """Remove every size-1 dimension."""
    return _squeeze(self, range(self.dim()))


@view("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)")
def squeeze_dim(self, dim):
    """Remove dimension `dim` if its size is 1 (otherwise return the same geometry)."""
    return _squeeze(self, (wrap_dim(dim, self.dim()),))


@view("squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)")
def squeeze_dims(self, dim):
    """Remove the listed dimensions that have size 1."""
    return _squeeze(self, wrap_dims(dim, self.dim(), "squeeze"))


@view("as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
      "-> Tensor(a)")
def as_strided(self, size, stride, storage_offset=None):
    """View the storage with explicit sizes, strides and offset (checked against its bounds)."""
    offset = self._offset if storage_offset is None else storage_offset
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape")
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    for st in stride:
        if st < 0:
            raise RuntimeError("as_strided: Negative strides are not supported at the moment, "
                               f"got strides: {list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if all(s > 0 for s in size):
        needed = (offset + 1 + sum((s - 1) * st for s, st in zip(size, stride))) * \
            self._dtype.itemsize
        available = self._storage.nbytes()
        if needed > available:
            raise RuntimeError(
                f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
                f"{offset}, and itemsize {self._dtype.itemsize} requiring a storage size of "
                f"{needed} are out of bounds for storage of size {available}")
    return tuple(size), tuple(stride), offset


@view("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)")
def diagonal(self, offset=0, dim1=0, dim2=1):
    """The diagonal of the (dim1, dim2) planes, as a new last dimension."""
    ndim = self.dim()
    d1, d2 = wrap_dim(dim1, ndim, False), wrap_dim(dim2, ndim, False)
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


@view("alias(Tensor(a) self) -> Tensor(a)", method=False, function=False)
def alias(self):
    """A new tensor object viewing exactly the same elements."""
    return self._size, self._stride, self._offset
