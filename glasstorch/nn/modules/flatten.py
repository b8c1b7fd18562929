"""Flatten and Unflatten: reshaping layers for `Sequential` models (a conv stack's
``(N, C, H, W)`` output into a linear layer's ``(N, C*H*W)`` input, and back)."""
from __future__ import annotations

from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Merge the dims from `start_dim` to `end_dim` into one (`torch.flatten`).

    Args:
        start_dim: the first dim to merge (default: 1, keeping the batch dim)
        end_dim: the last dim to merge (default: -1)

    Example::

        >>> nn.Flatten()(torch.randn(32, 1, 5, 5)).size()
        torch.Size([32, 25])
        >>> nn.Flatten(0, 2)(torch.randn(32, 1, 5, 5)).size()
        torch.Size([160, 5])
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim `dim` into the dims `unflattened_size` (`Tensor.unflatten`); one of them
    may be -1, inferred from the others.

    Args:
        dim: the dim to split
        unflattened_size: a tuple, list or `torch.Size` of ints whose product is that
            dim's size

    Example::

        >>> nn.Unflatten(1, (2, 5, 5))(torch.randn(2, 50)).size()
        torch.Size([2, 2, 5, 5])
    """

    def __init__(self, dim: int, unflattened_size) -> None:
        super().__init__()
        _require_tuple_of_ints(unflattened_size)
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


def _require_tuple_of_ints(sizes) -> None:
    """torch's TypeError for an `unflattened_size` that is not a sequence of ints."""
    if not isinstance(sizes, (tuple, list)):
        raise TypeError(f"unflattened_size must be a tuple of ints, but found type "
                        f"{type(sizes).__name__}")
    for position, size in enumerate(sizes):
        if not isinstance(size, int):
            raise TypeError(f"unflattened_size must be tuple of ints, but found element "
                            f"of type {type(size).__name__} at pos {position}")
