"""Basic indexing: ``x[1, 2:5, None, ...]`` lowered to select / slice / unsqueeze views.

Integers select (removing a dim), slices narrow, None inserts a size-1 dim, an
Ellipsis stands for the dims no other index names. Every step is a view operator,
so the result shares storage with the indexed tensor (``x[...]`` is a fresh view).

A Python bool (or a 0-dim bool / uint8 tensor) is a mask: True inserts a size-1
dim, False a size-0 one. torch routes masks through advanced indexing, so reading
gives a copy laid out as torch's index kernel lays it out (`_index_layout`); writing
goes through the same view. Indexing with tensors or lists (advanced indexing)
gathers data instead; it arrives with the indexing operators.
"""
from __future__ import annotations

import warnings

import numpy as np

from .aten.native.copy import copy_
from .aten.native.shape import movedim_int as movedim
from .aten.native.view import alias, legacy_type_name, select, slice_, unsqueeze
from .aten.meta.shape import dense_strides_in_order
from .aten.registry import empty_strided_on
from .c10 import dtype as dtypes
from .c10.dispatch_key import DispatchKey, local_keys
from .c10.tensor_impl import TensorBase

_slice_op = slice_.call
_select_op = select.call
_unsqueeze_op = unsqueeze.call
_MASK_DTYPES = (dtypes.bool, dtypes.uint8)


def getitem(self: TensorBase, index):
    """`self[index]` for basic indices (ints, slices, None, Ellipsis, bools)."""
    kind = type(index)
    if kind is int:
        return _select(self, 0, index, 0)
    if kind is slice:
        return _slice(self, 0, index)
    if isinstance(index, np.integer):
        return _select(self, 0, int(index), 0)
    if kind is not tuple:
        index = _as_tuple(index)
    result, mask_dim = _apply(self, index)
    return result if mask_dim is None else _masked_copy(result, mask_dim)


def setitem(self: TensorBase, index, value) -> None:
    """`self[index] = value`: copy (broadcasting) or fill into the elements `index` names."""
    if not isinstance(value, TensorBase) and not _is_number(value):
        raise TypeError(f"can't assign a {_type_name(value)} to a {legacy_type_name(self)}")
    if type(index) is int:
        target = _select(self, 0, index, 0)
    else:
        target, mask_dim = _apply(self, index if type(index) is tuple else _as_tuple(index))
        if mask_dim is not None and target._size[mask_dim] == 0:
            return          # a False mask selects nothing: torch writes (and bumps) nothing
    if not isinstance(value, TensorBase):
        target.fill_(value)
    elif value._size == target._size:
        target.copy_(value)
    elif value.dim() == 0 and value._device.type == "cpu":
        target.fill_(value)
    else:
        target.copy_(value.view(_drop_leading_ones(value._size)).expand(target._size))


def _apply(self: TensorBase, index: tuple) -> tuple:
    """Apply a tuple index as a chain of views: (view, the dim masks made, or None)."""
    ndim = self.dim()
    consumed = _count_consuming(index)
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result, dim, masks = self, 0, []
    for position, item in enumerate(index):
        if item is None:
            result = _unsqueeze_op(result, dim)
            dim += 1
        elif item is Ellipsis:      # as torch: each Ellipsis skips the unnamed dims
            dim += ndim - consumed
        elif type(item) is slice:
            result = _slice(result, dim, item)
            dim += 1
        elif _is_mask(item):
            result = _unsqueeze_op(result, dim)
            masks.append((dim, bool(item)))
            dim += 1
        elif _is_integer(item):
            result = _select(result, dim, int(item), position)
        else:
            _refuse(item)
    if masks:
        return _merge_masks(result, masks)
    if result is self:
        result = alias.call(self)
    return result, None


def _merge_masks(view: TensorBase, masks: list) -> tuple:
    """Masks are advanced indices: all of them together make one dim (size 1 if every
    mask is True, else 0), in place of the first when they are adjacent, else in front."""
    dims = [d for d, _ in masks]
    for d in reversed(dims[1:]):
        view = _select_op(view, d, 0)
    first = dims[0]
    if dims != list(range(first, first + len(dims))):
        view, first = movedim.call(view, first, 0), 0
    if not all(keep for _, keep in masks):
        view = _slice_op(view, first, 0, 0, 1)
    return view, first


def _masked_copy(view: TensorBase, mask_dim: int) -> TensorBase:
    device = view._device.type
    # torch's meta kernel gives an empty result contiguous strides, its CPU kernel not.
    layout = None if device == "meta" and 0 in view._size else _index_layout(view, mask_dim)
    result = empty_strided_on(view._size, layout, view._dtype, device)
    # Filling a fresh result is not a user-visible write: run copy_ below
    # ADInplaceOrView (torch's AutoDispatchBelowADInplaceOrView) so it stays at version 0.
    included, excluded = local_keys.included, local_keys.excluded
    local_keys.set(included, excluded | DispatchKey.ADInplaceOrView)
    try:
        return copy_.call(result, view, False)
    finally:
        local_keys.set(included, excluded)


def _index_layout(view: TensorBase, indexed: int) -> tuple:
    """The strides torch's index kernel gives its result (TensorIterator's rule).

    Dims are ordered innermost-first by insertion sort on the input's strides; a dim
    with stride 0 (broadcast, or the indexed dim) compares as "no opinion", which
    leaves it in its row-major slot while the others sort around it.
    """
    size, stride = view._size, view._stride

    def compare(a: int, b: int) -> int:
        if a == indexed or b == indexed or stride[a] == 0 or stride[b] == 0:
            return 0
        if stride[a] != stride[b]:
            return 1 if stride[a] > stride[b] else -1
        return 1 if size[a] > size[b] else 0

    return dense_strides_in_order(size, compare)


def _count_consuming(index: tuple) -> int:
    """How many of the tensor's dims an index names (None, ..., masks name none)."""
    count = 0
    for item in index:
        if item is None or item is Ellipsis or _is_mask(item):
            continue
        if isinstance(item, TensorBase) and item._dtype in _MASK_DTYPES:
            count += item.dim()         # a k-dim mask covers k dims
        else:
            count += 1
    return count


def _select(self: TensorBase, dim: int, index: int, position: int):
    size = self._size
    if not size and index == 0:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    length = size[dim] if size else 0
    if index < -length or index >= length:
        # torch names the index's position in the index tuple, not the tensor's dim.
        raise IndexError(f"index {index} is out of bounds for dimension {position} with size "
                         f"{length}")
    return _select_op(self, dim, index)


def _slice(self: TensorBase, dim: int, item: slice):
    start, stop, step = item.start, item.stop, item.step
    if type(start) is not int and start is not None:
        start = _as_int(start)
    if type(stop) is not int and stop is not None:
        stop = _as_int(stop)
    if step is None:
        step = 1
    elif type(step) is not int:
        step = _as_int(step)
    if step <= 0:
        raise ValueError("slice step cannot be zero" if step == 0 else
                         "step must be greater than zero")
    if not self._size:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    return _slice_op(self, dim, start, stop, step)


def _as_int(value) -> int:
    if isinstance(value, TensorBase):
        return value.__index__()
    if hasattr(value, "__index__"):
        return value.__index__()
    raise TypeError("slice indices must be integers or None or have an __index__ method")


def _is_integer(value) -> bool:
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return True
    return (isinstance(value, TensorBase) and value.dim() == 0 and
            not (value._dtype.is_floating_point or value._dtype.is_complex))


def _is_mask(item) -> bool:
    """A Python / NumPy bool, or a 0-dim bool or uint8 tensor (torch's byte masks)."""
    if isinstance(item, (bool, np.bool_)):
        return True
    return isinstance(item, TensorBase) and item.dim() == 0 and item._dtype in _MASK_DTYPES


def _as_tuple(index) -> tuple:
    """torch's rule (from NumPy) for a non-tuple index: a short sequence holding slices,
    None, Ellipsis, sequences or tensors is read as a tuple (deprecated); anything
    else is a single index."""
    if isinstance(index, (list, np.ndarray)) and len(index) < 32 and any(
            item is None or item is Ellipsis or isinstance(item, (slice, list, tuple, TensorBase))
            for item in index):
        warnings.warn("Using a non-tuple sequence for multidimensional indexing is deprecated "
                      "and will be changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. "
                      "In pytorch 2.9 this will be interpreted as tensor index, "
                      "x[torch.tensor(seq)], which will result either in an error or a "
                      "different result", UserWarning, stacklevel=3)
        return tuple(index)
    return (index,)


def _refuse(item) -> None:
    if isinstance(item, (TensorBase, list, tuple, np.ndarray)):
        if isinstance(item, TensorBase) and (item._dtype.is_floating_point or
                                             item._dtype.is_complex):
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        raise NotImplementedError("glasstorch: indexing with tensors or lists (advanced "
                                  "indexing) is not available yet")
    raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     "Variables are valid indices (got " + type(item).__name__ + ")")


def _is_number(value) -> bool:
    return isinstance(value, (int, float, complex, np.number, np.bool_))


def _type_name(value) -> str:
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


def _drop_leading_ones(size: tuple) -> tuple:
    """torch strips a value's leading size-1 dims before broadcasting it into `x[i] = v`."""
    start = 0
    while start < len(size) and size[start] == 1:
        start += 1
    return size[start:]
