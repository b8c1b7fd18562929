"""Python indexing: ``x[1, 2:5, None, ..., idx]`` and ``x[...] = value``, as torch does it.

Basic indices are views: integers select (removing a dim), slices narrow, None inserts
a size-1 dim, an Ellipsis stands for the dims no other index names. So ``x[1, ::2]``
shares storage with `x` (``x[...]`` is a fresh view).

Advanced indices (tensors, lists, NumPy arrays, and bools) are recorded at the dim
they address in the view built so far, and the view is then gathered by the `index`
operator (a copy, see Note [Where the advanced dimensions land] in
aten/native/indexing/advanced.py) or written by `index_put_`. As in torch (not NumPy), an
integer next to advanced indices is still a select: ``x[0, :, [1, 2]]`` has shape
``(x.shape[1], 2)``. A Python bool (or 0-dim bool / uint8 tensor) inserts a size-1
dim and indexes it with ``[0]`` (True) or ``[]`` (False).
"""
from __future__ import annotations

import warnings

import numpy as np

from .aten import native
from .aten.dispatcher import ops
from .c10 import dtype as dtypes
from .c10.tensor_impl import TensorBase, wrap_array

_MASK_DTYPES = (dtypes.bool, dtypes.uint8)

# The operators and helpers are looked up on first use, which loads their families
# (Note [Families load on first use]); each then puts itself in its stand-in's place.
_slice_op = native.first_use(globals(), "_slice_op", lambda: ops.aten.slice.Tensor.call)
_select_op = native.first_use(globals(), "_select_op", lambda: ops.aten.select.int.call)
_unsqueeze_op = native.first_use(globals(), "_unsqueeze_op",
                                 lambda: ops.aten.unsqueeze.default.call)
_alias_op = native.first_use(globals(), "_alias_op", lambda: ops.aten.alias.default.call)
_index_op = native.first_use(globals(), "_index_op", lambda: ops.aten.index.Tensor.call)
_index_put_ = native.first_use(globals(), "_index_put_",
                               lambda: ops.aten.index_put_.default.call)
_checked_scalar = native.first_use(globals(), "_checked_scalar",
                                   lambda: native.member("creation.copy", "checked_scalar"))
_legacy_type_name = native.first_use(
    globals(), "_legacy_type_name", lambda: native.member("shape.view", "legacy_type_name"))


def getitem(self: TensorBase, index):
    """`self[index]`: a view for basic indices, a gathered copy with advanced ones."""
    kind = type(index)
    if kind is int:
        return _select(self, 0, index, 0)
    if kind is slice:
        return _slice(self, 0, index)
    if kind is not tuple:
        if isinstance(index, np.integer):
            return _select(self, 0, int(index), 0)
        if isinstance(index, TensorBase) and index._size and self._size:
            return _index_op(self, [index])          # x[tensor]: straight to the operator
        index = _as_tuple(index)
    view, advanced = _apply(self, index)
    if not advanced:
        return _alias_op(self) if view is self else view
    return _index_op(view, [_bool_index(t) if type(t) is bool else t for t in advanced])


def setitem(self: TensorBase, index, value) -> None:
    """`self[index] = value`: copy (broadcasting) or fill into the elements `index` names."""
    if not isinstance(value, TensorBase) and not _is_number(value):
        raise TypeError(f"can't assign a {_type_name(value)} to a {_legacy_type_name(self)}")
    if index is False:
        return          # torch's shortcut: x[False] = v writes (and bumps) nothing
    if type(index) is int:
        target, advanced = _select(self, 0, index, 0), None
    else:
        target, advanced = _apply(self, index if type(index) is tuple else _as_tuple(index))
    if advanced:
        _index_put(target, advanced, value)
    elif not isinstance(value, TensorBase):
        target.fill_(value)
    elif value._size == target._size:
        target.copy_(value)
    elif value.dim() == 0 and value._device.type == "cpu":
        target.fill_(value)
    else:
        target.copy_(value.view(_drop_leading_ones(value._size)).expand(target._size))


def _index_put(target: TensorBase, advanced: list, value) -> None:
    """Write through advanced indices with `index_put_` (value's leading 1s dropped)."""
    if isinstance(value, TensorBase):
        while value.dim() and value._size[0] == 1:
            value = _select_op(value, 0, 0)
    else:
        value = wrap_array(_checked_scalar(value, target._dtype), target._dtype)
    _index_put_(target, [_bool_index(t) if type(t) is bool else t for t in advanced], value,
                False)


def _apply(self: TensorBase, index: tuple) -> tuple:
    """Apply a tuple index: (the view of its basic parts, the advanced indices recorded
    per dim of that view, or None)."""
    ndim = len(self._size)
    consumed = _count_consuming(index)
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result, dim, advanced, extra = self, 0, {}, 0
    for position, item in enumerate(index):
        kind = type(item)                       # the common kinds first, by type alone
        if kind is int:
            result = _select(result, dim, item, position)
        elif kind is slice:
            if not _whole(item, result, dim):     # `:` keeps the geometry: no view needed
                result = _slice(result, dim, item)
            dim += 1
        elif item is None:
            result = _unsqueeze_op(result, dim)
            dim += 1
        elif item is Ellipsis:      # as torch: each Ellipsis skips the unnamed dims
            dim += ndim - consumed
        elif _is_mask(item):
            result = _unsqueeze_op(result, dim)
            advanced[dim - extra] = bool(item)      # made an index tensor by _bool_index
            dim += 1
        elif _is_integer(item):
            result = _select(result, dim, int(item), position)
        else:
            tensor = _as_index_tensor(item)
            # the list `index` takes counts a k-dim mask once (it expands it itself)
            advanced[dim - extra] = tensor
            covered = tensor.dim() if tensor._dtype in _MASK_DTYPES else 1
            dim += covered
            extra += covered - 1
    if not advanced:
        return result, None
    return result, [advanced.get(d) for d in range(max(advanced) + 1)]


def _whole(item: slice, view: TensorBase, dim: int) -> bool:
    """A bare ``:`` on a dim `view` has."""
    return item.start is None and item.stop is None and item.step is None and \
        dim < len(view._size)


def _bool_index(keep: bool) -> TensorBase:
    """The index a bool stands for on its inserted size-1 dim: ``[0]`` or ``[]``."""
    return wrap_array(np.zeros(1 if keep else 0, np.int64), dtypes.int64)


def _as_index_tensor(item) -> TensorBase:
    """An advanced index as a tensor: tensors as they are; sequences as torch reads
    them (bools stay a mask, anything else becomes int64)."""
    if isinstance(item, TensorBase):
        return item
    if not isinstance(item, (list, tuple, np.ndarray)):
        _refuse(item)
    if type(item) is list and item and all(type(i) is int for i in item) and \
            -2 ** 63 <= min(item) and max(item) < 2 ** 63:
        return wrap_array(np.array(item, np.int64), dtypes.int64)   # Python ints: int64
    from ._tensor_new import tensor
    converted = tensor(item)
    if converted._dtype in _MASK_DTYPES:
        return converted
    return converted.to(dtypes.int64)


def _count_consuming(index: tuple) -> int:
    """How many of the tensor's dims an index names (None, ..., masks name none)."""
    count = 0
    for item in index:
        kind = type(item)
        if kind is int or kind is slice:
            count += 1
        elif item is None or item is Ellipsis or _is_mask(item):
            continue
        elif isinstance(item, TensorBase) and item._dtype in _MASK_DTYPES:
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
