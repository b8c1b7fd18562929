"""Fold and Unfold: sliding blocks into an image and out of it (see `F.fold`,
`F.unfold`)."""
from __future__ import annotations

import glasstorch as torch

from .. import functional as F
from .module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """Sum sliding blocks ``(N, C * kh * kw, L)`` into images ``(N, C, *output_size)``.

    Args:
        output_size (int or tuple): the image's spatial size.
        kernel_size (int or tuple): the block's size.
        dilation (int or tuple): the spacing of a block's elements. Default: 1.
        padding (int or tuple): the border dropped from each side. Default: 0.
        stride (int or tuple): the step between blocks. Default: 1.

    Example::

        >>> nn.Fold((1, 3), (1, 2))(torch.ones(1, 2, 2))
        tensor([[[[1., 2., 1.]]]])
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    """Extract sliding blocks: ``(N, C, H, W)`` to ``(N, C * kh * kw, L)``.

    Args:
        kernel_size (int or tuple): the block's size.
        dilation (int or tuple): the spacing of a block's elements. Default: 1.
        padding (int or tuple): zeros added on both sides. Default: 0.
        stride (int or tuple): the step between blocks. Default: 1.

    Example::

        >>> nn.Unfold((1, 2))(torch.arange(4.).view(1, 1, 2, 2))
        tensor([[[0., 2.],
                 [1., 3.]]])
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")
