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
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, times):
        return Size(tuple.__mul__(self, times))

    __rmul__ = __mul__

    def __reduce__(self):
        return (Size, (tuple(self),))
