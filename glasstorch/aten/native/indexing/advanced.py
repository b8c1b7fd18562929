"""Advanced indexing: `index` (``x[tensors]``) and `index_put` (``x[tensors] = v``), and
the checks every op taking index tensors shares.

Note [Where the advanced dimensions land]
    `index(self, indices)` takes one optional index tensor per leading dim of `self`
    (None: the dim is kept whole). A bool / uint8 mask stands for as many long
    tensors as it has dims (its `nonzero()` columns). The index tensors broadcast
    together to one shape B. If the indexed dims are adjacent, B replaces them in
    place; if a kept dim separates them, B goes in front (NumPy's rule, which
    NumPy's fancy indexing applies to the same index tuple, so the kernel lets
    NumPy gather). The result is a fresh tensor laid out as torch's TensorIterator
    lays it out over `self` restrided (stride 0 on the indexed dims) and the index
    tensors: see `_index_strides`.
"""
from __future__ import annotations

import warnings

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.tensor_impl import TensorBase, contiguous_strides, wrap_array
from ...meta.pointwise import permuted_strides
from ...parallel import GRAIN_SIZE, parallel_for
from ...backends import register_meta
from ...meta.shape import (broadcast_shapes, check_no_internal_overlap, check_no_overlap,
                          compute_view_stride, has_internal_overlap, holds_data)
from ...registry import TensorMeta, op
from ...structured import fast_path
from ..creation.copy import checked_scalar, strides_like
from ..shape.shape import _caller_stacklevel as caller_stacklevel

META_NONZERO = (
    "The register_meta function for torch.nonzero() raises unimplemented by default, as a "
    "correct data-independent implementation does not exist. This implementation returns a "
    "fake value, assuming all elements of the tensor are non-zero. To enable this "
    "registration, please set "
    "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.")
_INDEX_DTYPES = (dtypes.int64, dtypes.int32)
_FEW = 64               # index arrays this small are range-checked in Python
_MASK_DTYPES = (dtypes.bool, dtypes.uint8)


# ----------------------------------------------------------------------------------
# Shared by every op taking index tensors
# ----------------------------------------------------------------------------------
def like_self(self, preserve: bool = False) -> TensorMeta:
    """The result of an op that writes into a copy of `self`: row-major, or with
    `preserve` in self's own layout (torch clones with either, op by op)."""
    return TensorMeta(self._size, self._dtype, strides_like(self, None) if preserve else None)


def check_in_range(index: np.ndarray, size: int, message, low: int | None = None) -> None:
    """Raise if some index lies outside ``[low, size)`` (`low` defaults to ``-size``:
    negative indices count from the end); `message(value)` words the error.

    Looks at the extremes only (two NumPy passes; a few indices are read as Python
    ints, cheaper than two reductions), then reports the first offending value in
    memory order, as torch's serial kernels meet it.
    """
    if index.size == 0:
        return
    low = -size if low is None else low
    if 0 in index.strides:      # an expanded index repeats its values: read each once
        index = index[tuple(0 if stride == 0 else slice(None) for stride in index.strides)]
    count = index.size
    flat = index.reshape(-1)
    if count <= _FEW:
        values = flat.tolist()
        if min(values) >= low and max(values) < size:
            return
    elif index.min() >= low and index.max() < size:
        return
    bad = flat[(flat < low) | (flat >= size)][0]
    raise message(int(bad))


def out_of_bounds(dim: int, size: int, error=IndexError, prefix: str = ""):
    """The usual message: ``index 5 is out of bounds for dimension 0 with size 3``."""
    return lambda value: error(f"{prefix}index {value} is out of bounds for dimension {dim} "
                               f"with size {size}")


def check_out_overlap(out, *reads) -> None:
    """An out= tensor may not overlap itself nor any tensor the op reads (torch's
    assert_no_internal_overlap / assert_no_overlap for gathering ops, which have no
    in-place form: `out` is always an out= tensor)."""
    if out is None:
        return
    check_no_internal_overlap(out)
    for t in reads:
        check_no_overlap(out, t)


def check_written(out) -> None:
    """Scatter-like ops (not index_put_ / index_fill_ / masked_fill_) refuse to write,
    in place or out=, a tensor whose elements share memory (an expanded one)."""
    if out is not None:
        check_no_internal_overlap(out)


def check_out_dtype(self, out, message: str | None = None) -> None:
    """These ops write an out= tensor of self's dtype only (torch casts nothing here).

    `out` is what a meta rule sees: None for the functional call, self in place."""
    if out is None or out is self or out._dtype is self._dtype:
        return
    raise RuntimeError(message or f"Expected out tensor to have dtype "
                                  f"{type_meta_name(self._dtype)}, but got "
                                  f"{type_meta_name(out._dtype)} instead")


class _Operand:
    """The geometry of one TensorIterator operand (what `permuted_strides` reads)."""

    __slots__ = ("_size", "_stride")

    def __init__(self, size: tuple, stride: tuple) -> None:
        self._size = size
        self._stride = stride


# ----------------------------------------------------------------------------------
# index.Tensor: x[i0, i1, ...]
# ----------------------------------------------------------------------------------
def _check_index_types(indices, error: type) -> None:
    for t in indices:
        if t is not None and t._dtype not in _INDEX_DTYPES + _MASK_DTYPES:
            raise error("tensors used as indices must be long, int, byte or bool tensors")


def _expand_masks(self, indices) -> list:
    """torch's expandTensors: one entry per indexed dim, `None` or an `_Operand` of the
    long index it stands for (a k-dim mask gives k entries of its nonzero count)."""
    entries = []
    for t in indices:
        if t is None or t._dtype not in _MASK_DTYPES:
            entries.append(None if t is None else _Operand(t._size, t._stride))
            continue
        if t._dtype is dtypes.uint8:
            warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a "
                          "dtype torch.bool instead.", UserWarning, stacklevel=5)
        count = _mask_count(t)             # on meta, torch's nonzero refuses first
        _check_mask_shape(self, t, len(entries))
        entries.extend(_Operand((count,), (len(t._size),)) for _ in t._size)
    return entries


def _check_mask_shape(self, mask, start: int) -> None:
    """A mask indexing dims start, start + 1, ... must have those dims' sizes."""
    for j, n in enumerate(mask._size):
        if start + j >= len(self._size) or self._size[start + j] != n:
            raise IndexError(f"The shape of the mask {list(mask._size)} at index {j} does not "
                             f"match the shape of the indexed tensor {list(self._size)} at "
                             f"index {start + j}")


def _mask_count(mask: TensorBase) -> int:
    """The number of True elements, which sizes the result: torch counts them with
    nonzero, which refuses a mask without values (a meta one)."""
    if not holds_data(mask):
        raise NotImplementedError(META_NONZERO)
    return int(np.count_nonzero(mask._np))


def _broadcast_indices(entries: list) -> tuple:
    shapes = [e._size for e in entries if e is not None]
    if len(shapes) == 1:
        return shapes[0]
    try:
        return broadcast_shapes(*shapes)
    except RuntimeError:
        listed = ", ".join(str(list(s)) for s in shapes)
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {listed}") from None


def indexing_geometry(self, indices, error: type = IndexError) -> tuple:
    """Check `indices` against `self`; return the result's (shape, strides) (Note above).
    `error` is the type of the refusals: torch's meta function (the Meta registration)
    raises RuntimeError where its CPU kernel raises IndexError."""
    _check_index_types(indices, error)
    entries = _expand_masks(self, indices)
    ndim = len(self._size)
    if len(entries) > ndim:
        raise error(f"too many indices for tensor of dimension {ndim} (got {len(entries)})")
    entries += [None] * (ndim - len(entries))
    indexed = [d for d, e in enumerate(entries) if e is not None]
    middle = _broadcast_indices(entries)
    if 0 not in middle and any(self._size[d] == 0 for d in indexed):
        # no index can point into an empty dim (torch checks this before its kernel)
        raise IndexError("index is out of bounds for dimension with size 0")
    if indexed != list(range(indexed[0], indexed[-1] + 1)):       # separated: B in front
        kept = [d for d in range(ndim) if entries[d] is None]
        order = indexed + kept
        entries = [entries[d] for d in order]
        size = tuple(self._size[d] for d in order)
        stride = tuple(self._stride[d] for d in order)
        before = 0
    else:
        size, stride, before = self._size, self._stride, indexed[0]
    after = before + len(indexed)
    shape = size[:before] + middle + size[after:]
    if _all_row_major(self, indices):
        return shape, None          # TensorIterator keeps the row-major order: no sorting
    return shape, _index_strides(shape, stride, entries, before, after, middle)


def _all_row_major(self, indices) -> bool:
    """`self` and every index tensor row-major (the common case, decided cheaply)."""
    return all(t._stride == contiguous_strides(t._size) for t in (self, *indices)
               if t is not None)


def _index_strides(shape, stride, entries, before, after, middle) -> tuple:
    """TensorIterator's layout over `self` restrided and the reshaped index tensors."""
    source = _Operand(shape, stride[:before] + (0,) * len(middle) + stride[after:])
    operands = [source]
    padded = (1,) * before + middle + (1,) * (len(shape) - before - len(middle))
    for e in entries[before:after]:
        lead = len(middle) - len(e._size)
        expanded = (0,) * lead + tuple(0 if n == 1 and m != 1 else s for n, s, m in
                                       zip(e._size, e._stride, middle[lead:]))
        view_stride = compute_view_stride(middle, expanded, padded)
        if view_stride is not None:
            operands.append(_Operand(padded, view_stride))
    strides = permuted_strides(operands, shape)
    if 0 in shape and strides != contiguous_strides(shape):
        strides = _zero_spans(shape, strides)
    return strides


def _zero_spans(shape: tuple, strides: tuple) -> tuple:
    """TensorIterator's strides for an empty result in a permuted order: laid out in the
    same dim order, but an empty dim makes every outer stride 0 (row-major results
    keep contiguous strides instead, which skip empty dims)."""
    order = sorted(range(len(shape)), key=lambda d: (strides[d], shape[d] > 1))
    result, step = [0] * len(shape), 1
    for d in order:
        result[d] = step
        step *= shape[d]
    return tuple(result)


def _index_meta(self, indices, out=None, error: type = IndexError):
    if not indices:
        raise IndexError("at least one index must be provided")
    shape, stride = indexing_geometry(self, indices, error)
    check_out_dtype(self, out, f"index_out: self ({scalar_type_name(self._dtype)}) and result "
                               f"({scalar_type_name(out._dtype)}) must have the same scalar "
                               f"type" if out is not None else None)
    return TensorMeta(shape, self._dtype, stride)


def _index_meta_key(self, indices, out=None):
    """torch's meta function: RuntimeErrors, and empty results laid out row-major."""
    described = _index_meta(self, indices, out, RuntimeError)
    if 0 in described.shape:
        described.stride = None
    return described


def numpy_index(indices: list) -> tuple:
    """The index tuple NumPy's fancy indexing reads as torch reads `indices`."""
    return tuple(slice(None) if i is None else
                 (i.view(np.bool_) if i.dtype == np.uint8 else i) for i in indices)


def check_index_bounds(shape: tuple, indices: list) -> None:
    """Every integer index within its dim; torch numbers the dims among the indexed ones.
    torch checks the values as its kernel reads them, so a selection without elements
    checks nothing."""
    if _selects_nothing(shape, indices):
        return
    position, dim = 0, 0
    for i in indices:
        if i is None:
            dim += 1
            continue
        if i.dtype.kind in "iu" and i.dtype != np.uint8:
            check_in_range(i, shape[dim], out_of_bounds(position, shape[dim]))
            dim, position = dim + 1, position + 1
        else:
            dim, position = dim + i.ndim, position + i.ndim


def _selects_nothing(shape: tuple, indices: list) -> bool:
    """Whether ``x[indices]`` of a tensor of `shape` has no elements."""
    kept, shapes, dim = 1, [], 0
    for i in indices:
        if i is None:
            kept *= shape[dim]
            dim += 1
        elif i.dtype.kind in "iu" and i.dtype != np.uint8:
            shapes.append(i.shape)
            dim += 1
        else:
            shapes.append((int(np.count_nonzero(i)),))
            dim += i.ndim
    for n in shape[dim:]:
        kept *= n
    return kept == 0 or 0 in np.broadcast_shapes(*shapes)


@fast_path("slices of a row-major tensor picked by one int64 index")
def _index_fast(self, indices):
    """``x[i]`` / ``x[:, i]`` for a row-major `x` and a row-major int64 `i` after whole
    dims, small enough for one thread: NumPy's take along that dim, its row-major result
    wrapped. An index out of range (NumPy refuses it) or anything else goes to the
    general path and its checks."""
    dim = len(indices) - 1
    if not 0 <= dim < len(self._size) or self._dtype is dtypes.complex32 or \
            any(i is not None for i in indices[:dim]):
        return None
    index = indices[dim]
    if not isinstance(index, TensorBase) or index._dtype is not dtypes.int64 or \
            self._stride != contiguous_strides(self._size) or \
            index._stride != contiguous_strides(index._size):
        return None
    values = self._arr if self._arr is not None else self._np
    picked = index._arr if index._arr is not None else index._np
    if picked.size * (values.size // max(self._size[dim], 1)) > GRAIN_SIZE:
        return None                             # large: the pool's share of the slices
    try:
        return wrap_array(np.take(values, picked, axis=dim), self._dtype)
    except IndexError:
        return None


@op("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", meta=_index_meta, out=True,
    out_overload="Tensor_out", function=False, fast=_index_fast,   # x[i], torch.ops.aten
    grad={"self": "grad.new_zeros(self_sym_sizes).index_put(indices, grad, True)", "indices": "non_differentiable"})
def index(self, indices, *, out):
    """Gather the elements named by index tensors, one per leading dim (``x[i, j]``).

    Args:
        input (Tensor): the tensor to read.
        indices (list of Tensor or None): long / int index tensors, or bool masks, for
            the leading dims; None keeps a dim whole. They broadcast together.

    Returns:
        Tensor: a new tensor (see Note [Where the advanced dimensions land]).

    Example::

        >>> x = torch.arange(6).reshape(2, 3)
        >>> torch.ops.aten.index(x, [None, torch.tensor([2, 0])])
        tensor([[2, 0],
                [5, 3]])
    """
    if out.size == 0:               # nothing to read: torch checks no index either
        return
    check_index_bounds(self.shape, indices)
    present = [d for d, i in enumerate(indices) if i is not None]
    if len(present) == 1 and indices[present[0]].dtype.kind in "iu" and \
            indices[present[0]].dtype != np.uint8 and out.flags.c_contiguous:
        # One integer index: np.take writes the result directly (mode 'wrap' is safe:
        # the range was checked, and it maps -1 to the last element as torch does)
        if present[0] == 0:
            take_rows(self, indices[0], out)
        else:
            np.take(self, indices[present[0]], axis=present[0], out=out, mode="wrap")
        return
    np.copyto(out, self[numpy_index(indices)])


register_meta(index, _index_meta_key)


# ----------------------------------------------------------------------------------
# index_put: x[i0, i1, ...] = values
# ----------------------------------------------------------------------------------
def warn_if_expanded(out, op_name: str, example: str) -> None:
    """torch's deprecation warning for writing in place into an expanded tensor (where
    there is memory to share: a meta tensor's storage holds none)."""
    if out is not None and has_internal_overlap(out._size, out._stride) and holds_data(out):
        warnings.warn(f"Use of {op_name} on expanded tensors is deprecated. Please clone() the "
                      f"tensor before performing this operation. This also applies to advanced "
                      f"indexing e.g. {example}", UserWarning, stacklevel=caller_stacklevel())


def _single_mask(indices, values, accumulate):
    """torch's index_put_ shortcut: one mask index (the rest None) and a one-element value
    without accumulate become ``masked_fill_(mask, value.item())``; that mask, or None."""
    if accumulate or values.numel() != 1:
        return None
    present = [t for t in indices if t is not None]
    if len(present) == 1 and present[0]._dtype in _MASK_DTYPES:
        return present[0]
    return None


def _index_put_meta(self, indices, values, accumulate=False, out=None):
    check_out_dtype(self, out)
    if out is self:
        warn_if_expanded(out, "index_put_", "tensor[indices] = tensor")
    mask = _single_mask(indices, values, accumulate)
    if mask is not None:
        _check_mask_shape(self, mask, next(i for i, t in enumerate(indices) if t is mask))
        if mask._dtype is not dtypes.bool:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with "
                               "dtype unsigned char")
        checked_scalar(values._np.item(), self._dtype)
        if out is self:
            warn_if_expanded(out, "masked_fill_", "tensor[mask] = scalar")
        return like_self(self, preserve=out is None or out is self)
    _check_values(self, indices, values)
    if out is self:
        check_no_overlap(self, values)
    return like_self(self, preserve=out is None or out is self)    # out= is made row-major


def _check_values(self, indices, values) -> None:
    if values._dtype is not self._dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{scalar_type_name(self._dtype)} for the destination and "
                           f"{scalar_type_name(values._dtype)} for the source.")
    if any(t is not None for t in indices):
        shape, _ = indexing_geometry(self, indices)
        try:
            if broadcast_shapes(values._size, shape) != tuple(shape):
                raise RuntimeError
        except RuntimeError:
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(values._size)} "
                               f"cannot be broadcast to indexing result of shape "
                               f"{list(shape)}") from None


@op("index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor",
    meta=_index_put_meta, inplace=True, out=True, method=True,
    grad={"self": "grad if accumulate else grad.index_put(indices, values.new_zeros(()), False)",
          "values": "sum_to(ops.aten.index.Tensor(grad, indices), values_sym_sizes)",
          "indices": "non_differentiable"})
def index_put(self, indices, values, accumulate, *, out):
    """Write (or with `accumulate`, add) `values` at the elements the indices name.

    Every index is checked before anything is written. Without `accumulate`, an
    element named twice keeps the last value written; with it, every value is summed
    in (unbuffered, as ``np.add.at``).

    Args:
        input (Tensor): the tensor to write into (a copy of it, out of place).
        indices (tuple of Tensor or None): as for indexing (``x[indices]``).
        values (Tensor): broadcast to the shape ``x[indices]`` has; same dtype as input.
        accumulate (bool): add instead of overwrite.

    Example::

        >>> x = torch.zeros(4)
        >>> x.index_put_((torch.tensor([0, 0, 2]),), torch.tensor([1., 2., 3.]), True)
        tensor([3., 0., 3., 0.])
    """
    check_index_bounds(self.shape, indices)
    if not np.may_share_memory(out, self):
        np.copyto(out, self)
    where = numpy_index(indices)
    if not accumulate:
        out[where] = values
    elif len(where) == 1 and np.ndim(where[0]) == 1 and where[0].dtype.kind == "i" and \
            np.shape(values) == (len(where[0]),) + out.shape[1:]:
        add_at(out, 0, where[0], values)            # whole slices along dim 0
    else:
        np.add.at(out, where, values)


@register_meta(index_put)
def _index_put_meta_key(self, indices, values, accumulate=False, out=None):
    """torch's meta function checks only the out= dtype."""
    check_out_dtype(self, out)
    return like_self(self, preserve=out is None)


# ----------------------------------------------------------------------------------
# Reading and adding whole slices along dim 0
# ----------------------------------------------------------------------------------
def take_rows(source: np.ndarray, index: np.ndarray, out: np.ndarray) -> None:
    """``out = source[index]`` along dim 0 for a range-checked `index` (any shape; -1 is
    the last row) and a row-major `out`, in chunks of the index over the thread pool
    (np.take releases the GIL; each chunk writes its own rows of `out`)."""
    index = index.reshape(-1)
    rows = out.reshape((len(index),) + source.shape[1:])
    per_row = max(1, rows[0].size) if len(rows) else 1

    def run(start: int, stop: int) -> None:
        np.take(source, index[start:stop], axis=0, out=rows[start:stop], mode="wrap")
    parallel_for(0, len(index), max(1, GRAIN_SIZE // per_row), run)


# ----------------------------------------------------------------------------------
# Adding slices at repeated indices
# ----------------------------------------------------------------------------------
_ROUNDS_FROM = 256      # fewer slices than this: np.add.at's own loop is as fast


def add_at(target: np.ndarray, dim: int, index: np.ndarray, values: np.ndarray) -> None:
    """``target[..., index[k], ...] += values[..., k, ...]`` along `dim`, one k after
    another: ``np.add.at``'s result, bit for bit.

    Note [Adding at repeated indices]
        `index_add`, `index_put(accumulate=True)` and their kin add each slice of
        `values` into the slice of `target` its index names, in the order of the index,
        so a slice named twice is ``(t + v1) + v2`` (torch's order, and np.add.at's).
        np.add.at does that one slice at a time, slowly for slices of several
        elements. Done in rounds instead: round r adds, for every index value, its
        r-th occurrence; within a round no two slices meet, so each round is one
        gather of the target slices, one vectorised add and one scatter back (shared
        over the thread pool), and the order of the terms of every sum is the index's
        order. Random indices need a handful of rounds; when a round would add few
        slices (one index repeated many times), np.add.at takes the rest, whose
        earlier terms the rounds have already added.
    """
    slices = target.size // target.shape[dim] if target.shape[dim] else 0
    if index.size < _ROUNDS_FROM or slices <= 1:
        np.add.at(target, (slice(None),) * dim + (index,), values)
        return
    rows, terms = np.moveaxis(target, dim, 0), np.moveaxis(values, dim, 0)
    if index.min() < 0:                     # one spelling per slice (index_put's -1)
        index = np.where(index < 0, index + rows.shape[0], index)
    # the bookkeeping in 32 bits where it fits: half the memory traffic
    small = np.int32 if max(index.size, rows.shape[0]) < 2 ** 31 else np.int64
    first = np.full(rows.shape[0], index.size, small)
    position, remaining = np.arange(index.size, dtype=small), index.astype(small)
    while position.size:
        np.minimum.at(first, remaining, position)       # each index's earliest left
        chosen = first[remaining] == position
        if np.count_nonzero(chosen) * 8 < position.size:    # few distinct indices left
            np.add.at(rows, remaining, terms[position])
            return
        at = remaining[chosen]
        _add_round(rows, at, terms, position[chosen])
        first[at] = index.size
        position, remaining = position[~chosen], remaining[~chosen]


def _add_round(rows: np.ndarray, at: np.ndarray, terms: np.ndarray, picked: np.ndarray) -> None:
    """``rows[at] += terms[picked]`` for distinct `at`, in chunks over the thread pool."""
    per_slice = rows[0].size
    # row-major slices are written back as single items (np.put of one opaque item
    # per slice), several times faster than NumPy's fancy assignment of sub-arrays
    whole = np.dtype((np.void, rows.itemsize * per_slice))
    items = rows.reshape(len(rows), -1).view(whole)[:, 0] if rows.flags.c_contiguous else None

    def run(start: int, stop: int) -> None:
        where = at[start:stop]
        updated = np.take(rows, where, axis=0)
        updated += np.take(terms, picked[start:stop], axis=0)
        if items is None:
            rows[where] = updated
        else:
            np.put(items, where, updated.reshape(len(where), -1).view(whole))
    parallel_for(0, len(at), max(1, GRAIN_SIZE // per_slice), run)
