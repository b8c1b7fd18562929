"""Views that cut a tensor into several: unbind, split, split_with_sizes.

Each returns a list of views of the input, narrow slices along one dimension; the
registry gives every piece the input's version counter and base (see view.py).
"""
from __future__ import annotations

from ...meta.shape import wrap_dim
from ...registry import view
from .view import size_at


def _pieces(self, dim: int, lengths) -> list:
    """Consecutive narrow views along `dim` with the given lengths, from index 0."""
    before, after = self._size[:dim], self._size[dim + 1:]
    step = self._stride[dim]
    pieces, start = [], 0
    for n in lengths:
        pieces.append((before + (n,) + after, self._stride, self._offset + start * step))
        start += n
    return pieces


def chunk_split_size(self, chunks: int, dim: int) -> int | None:
    """`chunk`'s checks, then the split size it cuts `dim` with; None for an empty dim,
    which still gives `chunks` empty pieces (split would give one)."""
    if not self._size:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    length = self._size[wrap_dim(dim, len(self._size))]
    split_size = (length + chunks - 1) // chunks
    return None if split_size == 0 and length == 0 else split_size


@view("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]",
      grad={"self": "stack(grads, dim)"}, cached=True)
def unbind(self, dim=0):
    """Every index along `dim` as a separate view, that dimension removed.

    Example::

        >>> [t.shape for t in torch.zeros(2, 3).unbind(1)]
        [torch.Size([2]), torch.Size([2]), torch.Size([2])]
    """
    d = wrap_dim(dim, len(self._size))
    count = size_at(self, d)
    size, stride = self._size[:d] + self._size[d + 1:], self._stride[:d] + self._stride[d + 1:]
    step = self._stride[d]
    return [(size, stride, self._offset + i * step) for i in range(count)]


@view("split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
      function=False, grad={"self": "cat(grads, dim)"}, cached=True)
def split(self, split_size, dim=0):
    """Views of `split_size` elements along `dim` each (the last may be shorter).

    Example::

        >>> [t.shape[0] for t in torch.zeros(5).split(2)]
        [2, 2, 1]
    """
    if not self._size:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if split_size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got "
                           f"split_size={split_size}")
    d = wrap_dim(dim, len(self._size))
    length = self._size[d]
    if split_size == 0 and length != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                           f"dimension size of {length}")
    # Always at least one piece, even when split_size exceeds the dim (torch keeps it).
    count = max(-(-length // split_size), 1) if split_size else 1
    lengths = [split_size] * (count - 1) + [length - split_size * (count - 1)]
    return _pieces(self, d, lengths)


@view("split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]",
      grad={"self": "cat(grads, dim)"}, cached=True)
def split_with_sizes(self, split_sizes, dim=0):
    """Views along `dim` with the given lengths, which must add up to the dim's size.

    Example::

        >>> [t.shape[0] for t in torch.zeros(5).split_with_sizes([1, 4])]
        [1, 4]
    """
    if not self._size:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, len(self._size))
    if any(n < 0 for n in split_sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative "
                           f"entries, but got split_sizes={list(split_sizes)}")
    if sum(split_sizes) != self._size[d]:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to "
                           f"{self._size[d]} (input tensor's size at dimension {dim}), but got "
                           f"split_sizes={list(split_sizes)}")
    return _pieces(self, d, split_sizes)
