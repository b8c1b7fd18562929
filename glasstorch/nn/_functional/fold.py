"""torch.nn.functional.unfold and fold: sliding blocks out of an image and back, the
operators `im2col` and `col2im` (Note [Sliding blocks as one index]) with every
size argument given as an int or a pair."""
from __future__ import annotations

import glasstorch as torch

from ...aten.binding import get_binding

__all__ = ["unfold", "fold"]


def _pair(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value, value]


def unfold(input: torch.Tensor, kernel_size, dilation=1, padding=0, stride=1) -> torch.Tensor:
    """Extract sliding blocks: ``(N, C, H, W)`` to ``(N, C * kh * kw, L)``, one column
    per block (L blocks); ``(C, H, W)`` inputs give ``(C * kh * kw, L)``.

    Args:
        input (Tensor): the image, batched or not.
        kernel_size (int or tuple): the block's size.
        dilation (int or tuple): the spacing of a block's elements. Default: 1.
        padding (int or tuple): zeros added on both sides. Default: 0.
        stride (int or tuple): the step between blocks. Default: 1.

    Returns:
        Tensor: the blocks' values, channel by channel, each in row-major order.

    Example::

        >>> F.unfold(torch.arange(4.).view(1, 1, 2, 2), (1, 2))
        tensor([[[0., 2.],
                 [1., 3.]]])
    """
    return get_binding("nn", "im2col")(input, _pair(kernel_size), _pair(dilation),
                                       _pair(padding), _pair(stride))


def fold(input: torch.Tensor, output_size, kernel_size, dilation=1, padding=0,
         stride=1) -> torch.Tensor:
    """Sum sliding blocks into an image, the adjoint of `unfold`: ``(N, C * kh * kw, L)``
    to ``(N, C, *output_size)`` (overlapping blocks add up).

    Args:
        input (Tensor): the columns, batched or not.
        output_size (int or tuple): the image's spatial size.
        kernel_size (int or tuple): the block's size.
        dilation (int or tuple): the spacing of a block's elements. Default: 1.
        padding (int or tuple): the border dropped from each side. Default: 0.
        stride (int or tuple): the step between blocks. Default: 1.

    Returns:
        Tensor: the image.

    Example::

        >>> F.fold(torch.ones(1, 2, 2), (1, 3), (1, 2))
        tensor([[[[1., 2., 1.]]]])
    """
    return get_binding("nn", "col2im")(input, _pair(output_size), _pair(kernel_size),
                                       _pair(dilation), _pair(padding), _pair(stride))
