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
        try:
            items = tuple(operator.index(s) for s in sizes)
        except TypeError:
            bad = next(s for s in sizes if not hasattr(s, "__index__"))
            raise TypeError(f"torch.Size() takes an iterable of 'int' (item 0 is "
                            f"'{type(bad).__name__}')") from None
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
