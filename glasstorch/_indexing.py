"""Basic indexing: ``x[1, 2:5, None, ...]`` lowered to select / slice / unsqueeze views.

Integers select (removing a dim), slices narrow, None and True insert a size-1 dim,
an Ellipsis stands for the dims no other index names. Every step is a view operator,
so the result shares storage with the indexed tensor. Indexing with tensors or lists
(advanced indexing) gathers data instead; it arrives with the indexing operators.
"""
from __future__ import annotations

import numpy as np

from .aten.native.view import alias, select, slice_, unsqueeze
from .c10 import dtype as dtypes
from .c10.tensor_impl import TensorBase


def getitem(self: TensorBase, index):
    """`self[index]` for basic indices (ints, slices, None, Ellipsis, bools)."""
    kind = type(index)
    if kind is int:
        return _select(self, 0, index)
    if kind is slice:
        return _slice(self, 0, index)
    if kind is not tuple:
        index = (index,)
    return _apply(self, index)


def setitem(self: TensorBase, index, value) -> None:
    """`self[index] = value`: copy (or fill) into the view the index selects."""
    target = getitem(self, index)
    if isinstance(value, TensorBase):
        target.copy_(value)
    else:
        target.fill_(value)


def _apply(self: TensorBase, index: tuple):
    consuming = 0
    ellipses = 0
    for item in index:
        if item is Ellipsis:
            ellipses += 1
        elif item is not None and not isinstance(item, (bool, np.bool_)):
            consuming += 1
    if ellipses > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consuming > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    result = self
    dim = 0
    for item in index:
        if item is None:
            result = unsqueeze(result, dim)
            dim += 1
        elif item is Ellipsis:
            dim += self.dim() - consuming
        elif isinstance(item, (bool, np.bool_)):
            result = unsqueeze(result, dim)
            if not item:
                result = slice_(result, dim, 0, 0, 1)
            dim += 1
        elif isinstance(item, slice):
            result = _slice(result, dim, item)
            dim += 1
        elif _is_integer(item):
            result = _select(result, dim, int(item))
        else:
            _refuse(item)
    if result is self:
        result = alias(self)
    return result


_slice_op = slice_.call
_select_op = select.call


def _select(self: TensorBase, dim: int, index: int):
    size = self._size
    if not size:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    length = size[dim]
    if index < -length or index >= length:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {length}")
    return _select_op(self, dim, index)


def _slice(self: TensorBase, dim: int, item: slice):
    if not self._size:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    start, stop, step = item.start, item.stop, item.step
    if type(start) is not int and start is not None:
        start = _as_int(start)
    if type(stop) is not int and stop is not None:
        stop = _as_int(stop)
    step = 1 if step is None else _as_int(step)
    return _slice_op(self, dim, start, stop, step)


def _as_int(value):
    if value is None or type(value) is int:
        return value
    if _is_integer(value):
        return int(value)
    raise TypeError("slice indices must be integers or None or have an __index__ method")


def _is_integer(value) -> bool:
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return True
    return (isinstance(value, TensorBase) and value.dim() == 0 and
            not (value.is_floating_point() or value.is_complex()) and
            value.dtype is not dtypes.bool)


def _refuse(item) -> None:
    if isinstance(item, (TensorBase, list, np.ndarray)):
        raise NotImplementedError("glasstorch: indexing with tensors or lists (advanced "
                                  "indexing) is not available yet")
    raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     "Variables are valid indices (got " + type(item).__name__ + ")")
