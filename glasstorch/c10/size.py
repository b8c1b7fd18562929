"""`torch.Size`: the tuple of a tensor's sizes."""
from __future__ import annotations

import operator


class Size(tuple):
    """A tuple of non-negative ints describing a shape, printed ``torch.Size([2, 3])``.

    Example::

        >>> torch.Size([2, 3]).numel()
        6
    """

    __slots__ = ()

    def __new__(cls, sizes=()):
        items = []
        for i, s in enumerate(sizes):
            try:
                items.append(operator.index(s))
            except TypeError:
                raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is "
                                f"'{type(s).__name__}')") from None
        return tuple.__new__(cls, items)

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    def numel(self) -> int:
        """The number of elements a tensor of this shape holds."""
        count = 1
        for s in self:
            count *= s
        return count

    def __getitem__(self, index):
        item = tuple.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        if isinstance(other, tuple):
            return Size(tuple.__add__(self, other))
        return _reflected(self, other, "__radd__", f"can only concatenate tuple (not "
                          f"{type(other).__name__}) to torch.Size")

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, times):
        if not hasattr(type(times), "__index__"):
            return _reflected(self, times, "__rmul__", _NOT_TIMES.format(type(times).__name__))
        return Size(tuple.__mul__(self, times))

    def __rmul__(self, times):
        if not hasattr(type(times), "__index__"):
            raise TypeError(_NOT_TIMES.format(type(times).__name__))
        return Size(tuple.__mul__(self, times))

    def __reduce__(self):
        return (Size, (tuple(self),))


_NOT_TIMES = "can't multiply sequence by non-int of type '{}'"


def _reflected(size: Size, other, method: str, message: str):
    """``other.<method>(size)`` (a NumPy array adds itself to a Size, as with torch's), or
    the TypeError torch's Size raises when `other` cannot.

    torch's Size is a C tuple whose concatenation and repetition slots raise these
    messages; a Python class defining `__add__` / `__mul__` loses tuple's fallback, so the
    reflected call Python would make is made here.
    """
    result = getattr(type(other), method, lambda *_: NotImplemented)(other, size)
    if result is NotImplemented:
        raise TypeError(message)
    return result
