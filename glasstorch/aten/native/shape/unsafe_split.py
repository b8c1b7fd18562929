"""`unsafe_split`, `unsafe_split_with_sizes`, `unsafe_chunk`: split's pieces, not views.

The pieces share the input's memory as split's do, but autograd does not track them
as views: no `_base`, a version counter of their own, and one `UnsafeSplitBackward0`
node for all of them. torch offers them for code that knows it will not write the
pieces in place (writing one then goes unnoticed by autograd, hence "unsafe").
"""
from __future__ import annotations

from ...registry import composite
from .split_views import chunk_split_size, split, split_with_sizes


def _unviewed(pieces: list) -> list:
    """Views made plain tensors: no base, each its own version counter."""
    for piece in pieces:
        piece._base = None
        piece._vc = None
    return pieces


@composite("unsafe_split.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]",
           method=True, grad={"self": "cat(grads, dim)"})
def unsafe_split(self, split_size, dim=0):
    """`torch.split` by size, the pieces not tracked as views of `self`.

    Example::

        >>> [t.tolist() for t in torch.unsafe_split(torch.arange(5), 2)]
        [[0, 1], [2, 3], [4]]
    """
    return _unviewed(split.call(self, split_size, dim))


@composite("unsafe_split_with_sizes(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]",
           method=True, grad={"self": "cat(grads, dim)"})
def unsafe_split_with_sizes(self, split_sizes, dim=0):
    """`torch.split_with_sizes`, the pieces not tracked as views of `self`.

    Example::

        >>> [t.tolist() for t in torch.unsafe_split_with_sizes(torch.arange(5), [1, 4])]
        [[0], [1, 2, 3, 4]]
    """
    return _unviewed(split_with_sizes.call(self, split_sizes, dim))


@composite("unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", method=True)
def unsafe_chunk(self, chunks, dim=0):
    """`torch.chunk`, the pieces not tracked as views of `self`.

    Example::

        >>> [t.tolist() for t in torch.unsafe_chunk(torch.arange(5), 2)]
        [[0, 1, 2], [3, 4]]
    """
    split_size = chunk_split_size(self, chunks, dim)
    if split_size is None:
        return unsafe_split_with_sizes.call(self, [0] * chunks, dim)
    return unsafe_split.call(self, split_size, dim)
