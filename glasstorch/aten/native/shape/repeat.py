"""Repeating and reordering elements: repeat / tile, repeat_interleave, roll, flip
(fliplr, flipud) and rot90.

Each kernel writes its result in one pass: `repeat` broadcasts the input into the
result seen as ``(r0, s0, r1, s1, ...)``, `roll` copies at most two blocks per rolled
dim, `flip` copies a reversed view; none builds an intermediate array.
"""
from __future__ import annotations

import itertools

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ... import functions as at
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...meta.shape import compute_view_stride, wrap_dim, wrap_dims
from ...registry import TensorMeta, composite, op
from ....c10.layout import contiguous_format
from ....c10.tensor_impl import contiguous_strides
from ..creation.copy import clone, strides_like
from .shape import flatten, reshape
from .view import expand, unsqueeze


# ----------------------------------------------------------------------------------
# repeat, tile
# ----------------------------------------------------------------------------------
def _repeat_meta(self, repeats, out=None):
    _check_repeat_rank(self, repeats)
    padded = (1,) * (len(repeats) - self.dim()) + self._size
    size = tuple(s * r for s, r in zip(padded, repeats))
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"{list(size)}")
    check_exact_out_dtype(out, self._dtype)
    return TensorMeta(size, self._dtype)


def _check_repeat_rank(self, repeats) -> None:
    if len(repeats) < self.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")


def _repeat_meta_key(self, repeats, out=None):
    """torch's meta rule refuses a negative repeat in its own words."""
    _check_repeat_rank(self, repeats)
    for i, r in enumerate(repeats):
        if r < 0:
            raise RuntimeError(f"Repeats cannot be negative, found {r} at index {i}")
    return _repeat_meta(self, repeats, out)


def check_exact_out_dtype(out, dtype) -> None:
    """Refuse an out= tensor of any other dtype (kernels that write `out` directly)."""
    if out is not None and out._dtype is not dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(dtype)}, but "
                           f"got {type_meta_name(out._dtype)} instead")


@derivative_helper
def repeat_backward(grad, repeats, sizes):
    """Every copy of each element summed: `grad` seen as (r0, s0, r1, s1, ...) summed over
    the r dims (and over the dims `repeat` added in front)."""
    if 0 in repeats:
        return grad.new_zeros(sizes)
    extra = len(repeats) - len(sizes)
    if extra:
        grad = grad.sum(tuple(range(extra)))
    split = []
    for r, s in zip(repeats[extra:], sizes):
        split += [r, s]
    return grad.reshape(split).sum(tuple(range(0, len(split), 2))) if split else grad


@op("repeat(Tensor self, SymInt[] repeats) -> Tensor", meta=_repeat_meta, out=True,
    method=True, function=False, grad={"self": "repeat_backward(grad, repeats, self_sym_sizes)"})
def repeat(self, repeats, *, out):
    """Repeat the tensor along each dimension: ``repeats[i]`` copies along dim i.

    With more repeats than dimensions, size-1 dims are added in front first. Unlike
    `numpy.repeat` (which is `torch.repeat_interleave`), whole tensors are tiled.

    Args:
        repeats (torch.Size or int...): the number of copies along each dimension.

    Example::

        >>> torch.tensor([1, 2]).repeat(2, 2)
        tensor([[1, 2, 1, 2],
                [1, 2, 1, 2]])
    """
    if out.size == 0:
        return
    padded = (1,) * (len(repeats) - self.ndim) + self.shape
    # the result, seen as (r0, s0, r1, s1, ...), is the input broadcast over the r dims
    tiled = tuple(itertools.chain.from_iterable(zip(repeats, padded)))
    source = self.reshape(tuple(itertools.chain.from_iterable((1, s) for s in padded)))
    if out.flags.c_contiguous:
        np.copyto(out.reshape(tiled), source)
    else:
        np.copyto(out, np.broadcast_to(source, tiled).reshape(out.shape))


register_meta(repeat, _repeat_meta_key)


@composite("tile(Tensor self, SymInt[] dims) -> Tensor", method=True)
def tile(self, dims):
    """Repeat the tensor along each dimension, NumPy's ``tile``: as `Tensor.repeat`, but
    fewer `dims` than dimensions are padded with 1s in front.

    Args:
        input (Tensor): the tensor to repeat.
        dims (tuple of int): the number of copies along each (trailing) dimension.

    Example::

        >>> torch.tile(torch.tensor([[1, 2], [3, 4]]), (2,))
        tensor([[1, 2, 1, 2],
                [3, 4, 3, 4]])
    """
    padded = (1,) * (self.dim() - len(dims)) + tuple(dims)
    return repeat.call(self, padded)


# ----------------------------------------------------------------------------------
# repeat_interleave
# ----------------------------------------------------------------------------------
# The result's size depends on the values of `repeats`: the CPU rules read them (a rule
# that reads data, as torch's CPU repeat_interleave computes the indices first); the Meta
# registrations, without values, take `output_size`.
def _count_repeats(repeats, output_size):
    """The sum of `repeats` (checked as torch checks it)."""
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats._dtype not in (dtypes.int64, dtypes.int32):
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for "
                                  f"'{scalar_type_name(repeats._dtype)}'")
    counts = repeats._np
    if counts.size and counts.min() < 0:
        raise RuntimeError("repeats can not be negative")
    total = int(counts.sum())
    if output_size is not None and output_size != total:
        raise RuntimeError("allocated size does not match required size")
    return total


def _given_size(output_size):
    """The result's size on meta, where `repeats` has no values to count."""
    if output_size is None:
        raise RuntimeError("cannot repeat_interleave a meta tensor without output_size")
    return output_size


def _indices_meta(repeats, output_size=None):
    return TensorMeta((_count_repeats(repeats, output_size),), repeats._dtype)


def _indices_meta_key(repeats, output_size=None):
    return TensorMeta((_given_size(output_size),), repeats._dtype)


@op("repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor",
    meta=_indices_meta)
def repeat_interleave_indices(repeats, output_size, *, out):
    """Index ``i`` repeated ``repeats[i]`` times (`repeats` alone: int32/int64, 1-D)."""
    np.copyto(out, np.repeat(np.arange(repeats.size, dtype=out.dtype), repeats))


register_meta(repeat_interleave_indices, _indices_meta_key)


def _interleave_geometry(self, dim):
    """(dim to repeat along, the input's size there); dim None flattens the input."""
    if dim is None:
        return 0, self.numel()
    if not self._size:          # torch repeats along a 0-dim input's missing dim 1
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but "
                         "got 1)")
    d = wrap_dim(dim, self.dim())
    return d, self._size[d]


def _interleave_tensor_meta(self, repeats, dim=None, output_size=None):
    d, length = _check_interleave(self, repeats, dim)
    if repeats.numel() == 1:
        total = _count_repeats(reshape.call(repeats, (1,)), None) * length
        if output_size is not None and output_size != total:
            raise RuntimeError("allocated size does not match required size")
    else:
        total = _count_repeats(reshape.call(repeats, (-1,)), output_size)
    return _interleaved(self, d, dim, total)


def _interleave_tensor_meta_key(self, repeats, dim=None, output_size=None):
    d, _ = _check_interleave(self, repeats, dim)
    return _interleaved(self, d, dim, _given_size(output_size))


def _check_interleave(self, repeats, dim) -> tuple:
    """The dim to repeat along and the input's size there, once `repeats` fits."""
    d, length = _interleave_geometry(self, dim)
    if repeats.dim() > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    if repeats.dim() == 1 and repeats._size[0] not in (1, length):
        raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                           f"repeats.size(0) = {repeats._size[0]} and input.size({d}) = "
                           f"{length}")
    return d, length


def _interleaved(self, d: int, dim, total: int) -> TensorMeta:
    size = (total,) if dim is None else self._size[:d] + (total,) + self._size[d + 1:]
    return TensorMeta(size, self._dtype)


@derivative_helper
def repeat_interleave_backward(grad, self, repeats, dim):
    """Each element's copies (slices along `dim`) summed back into it."""
    source = self.reshape(-1) if dim is None else self
    dim = 0 if dim is None else dim % self.dim()
    counts = repeats.reshape(-1).expand(source.shape[dim]) if repeats.numel() == 1 else repeats
    index = at.repeat_interleave(counts.contiguous())
    return grad.new_zeros(source.shape).index_add(dim, index, grad).reshape(self.shape)


@op("repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, "
    "SymInt? output_size=None) -> Tensor", meta=_interleave_tensor_meta, method=True,
    grad={"self": "repeat_interleave_backward(grad, self, repeats, dim)"})
def repeat_interleave(self, repeats, dim, output_size, *, out):
    """Repeat each element (each slice along `dim`) ``repeats`` times in a row, NumPy's
    ``repeat``.

    Args:
        input (Tensor): the tensor whose elements are repeated.
        repeats (Tensor or int): the number of copies, one for all or one per index.
        dim (int, optional): the dimension to repeat along; by default the input is
            flattened first.

    Keyword args:
        output_size (int, optional): the total size along `dim`, if known.

    A lone `repeats` tensor gives ``repeat_interleave(arange(len(repeats)), repeats)``.

    Example::

        >>> torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2)
        tensor([1, 1, 2, 2, 3, 3, 4, 4])
        >>> torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), torch.tensor([1, 2]), 0)
        tensor([[1, 2],
                [3, 4],
                [3, 4]])
    """
    _interleave(self, repeats.reshape(-1), dim, out)


register_meta(repeat_interleave, _interleave_tensor_meta_key)


def _interleave(self, counts, dim, out) -> None:
    """Write `self` with each index along `dim` repeated ``counts[i]`` times into `out`."""
    if out.size == 0:
        return
    if dim is None:
        self, dim = self.reshape(-1), 0
    dim %= self.ndim
    if counts.size == 1 and out.flags.c_contiguous:
        # the same count everywhere: `out` seen with a (size, count) pair at `dim` is
        # the input broadcast along the count
        shape = self.shape[:dim] + (self.shape[dim], int(counts[0])) + self.shape[dim + 1:]
        np.copyto(out.reshape(shape), np.expand_dims(self, dim + 1))
        return
    index = np.repeat(np.arange(self.shape[dim]), counts)
    np.take(self, index, axis=dim, out=out, mode="clip")      # indices are in range


@composite("repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, "
           "SymInt? output_size=None) -> Tensor", method=True)
def repeat_interleave_int(self, repeats, dim=None, output_size=None):
    """`repeat_interleave` with one number of copies for every element: the input
    broadcast along a new dim after `dim`, copied once, and that dim merged into `dim`
    (so, as in torch, the result is a view of that copy)."""
    if dim is None:
        self, dim = flatten.call(self, 0, -1), 0
    d = wrap_dim(dim, self.dim()) if self._size else dim
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    expected = repeats * self._size[d] if self._size else repeats
    if output_size is not None and output_size != expected:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {expected} but "
                           f"got {output_size}")
    spread = unsqueeze.call(self, d + 1)
    spread = expand.call(spread, spread._size[:d + 1] + (repeats,) + spread._size[d + 2:],
                         False)
    return flatten.call(clone.call(spread, contiguous_format), d, d + 1)


# ----------------------------------------------------------------------------------
# roll
# ----------------------------------------------------------------------------------
def _roll_meta(self, shifts, dims=(), space: str = ""):
    """`space`: " " in the words of torch's meta rule (the Meta registration)."""
    if not shifts:
        raise RuntimeError("`shifts` required")
    if dims and len(shifts) != len(dims) or not dims and len(shifts) != 1:
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{space}{len(dims)}")
    for d in dims:
        if not self._size:
            raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
        wrap_dim(d, self.dim())
    if self.numel() == 0 and dims:   # torch returns a clone, keeping the input's layout
        return TensorMeta(self._size, self._dtype, strides_like(self, None))
    if self.numel() == 0:           # ... of the input viewed flat, viewed back
        flat = compute_view_stride(self._size, self._stride, (0,))
        return TensorMeta(self._size, self._dtype, compute_view_stride((0,), flat, self._size))
    return TensorMeta(self._size, self._dtype)


@derivative_helper
def roll_backward(grad, shifts, dims):
    """roll undone: the same roll, backwards."""
    return grad.roll([-s for s in shifts], dims)


@op("roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor", meta=_roll_meta,
    method=True, grad={"self": "roll_backward(grad, shifts, dims)"})
def roll(self, shifts, dims, *, out):
    """Shift the elements along dimensions, wrapping around at the end.

    Args:
        input (Tensor): the tensor to roll.
        shifts (int or tuple of int): how far to shift (negative: backwards).
        dims (int or tuple of int): the dimensions to roll; without any, the tensor
            is rolled as if flattened and its shape restored.

    Example::

        >>> x = torch.tensor([[1, 2], [3, 4], [5, 6]])
        >>> torch.roll(x, 1, 0)
        tensor([[5, 6],
                [1, 2],
                [3, 4]])
        >>> torch.roll(x, 1)
        tensor([[6, 1],
                [2, 3],
                [4, 5]])
    """
    if out.size == 0:
        return
    if not dims:
        if out.flags.c_contiguous:
            _roll_blocks(self.reshape(-1), {0: shifts[0]}, out.reshape(-1))
        else:
            np.copyto(out, np.roll(self.reshape(-1), shifts[0]).reshape(out.shape))
        return
    total = {}
    for s, d in zip(shifts, dims):       # rolling one dim twice adds the shifts
        d %= self.ndim
        total[d] = total.get(d, 0) + s
    _roll_blocks(self, total, out)


@register_meta(roll)
def _roll_meta_key(self, shifts, dims=()):
    return _roll_meta(self, shifts, dims, space=" ")


def _roll_blocks(self, shifts: dict, out) -> None:
    """Copy `self` into `out` rolled by ``shifts[dim]``: two blocks per rolled dim."""
    pieces = []
    for d in range(self.ndim):
        size = self.shape[d]
        k = shifts.get(d, 0) % size
        if not k:
            pieces.append(((slice(None), slice(None)),))
        else:
            pieces.append(((slice(k, None), slice(None, size - k)),
                           (slice(None, k), slice(size - k, None))))
    for combination in itertools.product(*pieces):
        target = tuple(c[0] for c in combination)
        source = tuple(c[1] for c in combination)
        out[target] = self[source]


# ----------------------------------------------------------------------------------
# flip, fliplr, flipud, rot90
# ----------------------------------------------------------------------------------
def _flip_meta(self, dims):
    wrap_dims(dims, self.dim())
    if self._stride == contiguous_strides(self._size):
        return TensorMeta(self._size, self._dtype)          # row-major, the common case
    return TensorMeta(self._size, self._dtype, strides_like(self, None))


@op("flip(Tensor self, int[] dims) -> Tensor", meta=_flip_meta, method=True,
    grad={"self": "grad.flip(dims)"})
def flip(self, dims, *, out):
    """Reverse the order of the elements along the given dimensions (a copy, unlike
    NumPy's `flip` which makes a view).

    Args:
        input (Tensor): the tensor to flip.
        dims (tuple of int): the dimensions to reverse.

    Example::

        >>> torch.flip(torch.tensor([[1, 2], [3, 4]]), (0,))
        tensor([[3, 4],
                [1, 2]])
    """
    if self.ndim:
        flipped = {d % self.ndim for d in dims}
        self = self[tuple(slice(None, None, -1) if d in flipped else slice(None)
                          for d in range(self.ndim))]
    np.copyto(out, self)


@register_meta(flip)
def _flip_meta_key(self, dims):
    """torch's meta rule words every refusal of `dims` as a duplicate."""
    try:
        wrap_dims(dims, self.dim())
    except RuntimeError:
        raise RuntimeError("duplicate value in the list of dims") from None
    return _flip_meta(self, dims)


@composite("fliplr(Tensor self) -> Tensor", method=True)
def fliplr(self):
    """Reverse the columns: `flip` along dim 1 of a tensor with at least 2 dims.

    Example::

        >>> torch.fliplr(torch.tensor([[1, 2], [3, 4]]))
        tensor([[2, 1],
                [4, 3]])
    """
    if self.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip.call(self, (1,))


@composite("flipud(Tensor self) -> Tensor", method=True)
def flipud(self):
    """Reverse the rows: `flip` along dim 0 of a tensor with at least 1 dim.

    Example::

        >>> torch.flipud(torch.tensor([[1, 2], [3, 4]]))
        tensor([[3, 4],
                [1, 2]])
    """
    if self.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip.call(self, (0,))


def _rot90_meta(self, k=1, dims=(0, 1)):
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    ndim = self.dim()
    if ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {ndim}")
    d0, d1 = wrap_dim(dims[0], ndim), wrap_dim(dims[1], ndim)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} "
                           f"and dim1 = {dims[1]}")
    if k % 4 == 0:                      # torch returns a contiguous clone
        return TensorMeta(self._size, self._dtype)
    size, stride = list(self._size), list(strides_like(self, None))
    if k % 2:                           # a flip (layout kept), then the two dims swapped
        size[d0], size[d1] = size[d1], size[d0]
        stride[d0], stride[d1] = stride[d1], stride[d0]
    return TensorMeta(tuple(size), self._dtype, tuple(stride))


@op("rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", meta=_rot90_meta,
    method=True, grad={"self": "grad.rot90(-k, dims)"})
def rot90(self, k, dims, *, out):
    """Rotate by 90 degrees `k` times in the plane of `dims`, from the first dim's axis
    towards the second's (NumPy's ``rot90``).

    Args:
        input (Tensor): the tensor to rotate, with at least 2 dims.
        k (int): the number of quarter turns (negative: the other way).
        dims (list of int): the two dimensions of the plane.

    Example::

        >>> torch.rot90(torch.tensor([[1, 2], [3, 4]]))
        tensor([[2, 4],
                [1, 3]])
    """
    np.copyto(out, np.rot90(self, k, tuple(dims)))

