"""Resampling and rearranging layers: Upsample (and its fixed-mode spellings),
PixelShuffle, PixelUnshuffle and ChannelShuffle. Each holds its settings and calls
its function."""
from __future__ import annotations

import glasstorch as torch

from .. import functional as F
from .module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle",
           "PixelUnshuffle", "ChannelShuffle"]


class Upsample(Module):
    """Resize the spatial dims of ``(N, C, *spatial)`` inputs (see `F.interpolate`).

    Args:
        size (int or tuple of ints, optional): the output's spatial sizes.
        scale_factor (float or tuple of floats, optional): multiplies the spatial sizes.
        mode (str): the interpolation mode. Default: ``'nearest'``.
        align_corners (bool, optional): for the interpolating modes.
        recompute_scale_factor (bool, optional): positions from the rounded sizes.

    Example::

        >>> nn.Upsample(scale_factor=2)(torch.tensor([[[1., 2.]]]))
        tensor([[[1., 1., 2., 2.]]])
    """

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode,
                             self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return f"{info}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """`Upsample` in nearest mode for 4-D inputs.

    Example::

        >>> nn.UpsamplingNearest2d(scale_factor=2)(torch.ones(1, 1, 1, 1)).shape
        torch.Size([1, 1, 2, 2])
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """`Upsample` in bilinear mode with ``align_corners=True`` for 4-D inputs.

    Example::

        >>> nn.UpsamplingBilinear2d(size=3)(torch.ones(1, 1, 2, 2)).shape
        torch.Size([1, 1, 3, 3])
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class PixelShuffle(Module):
    """``(*, C * r², H, W)`` to ``(*, C, H * r, W * r)`` (see `torch.pixel_shuffle`).

    Example::

        >>> nn.PixelShuffle(2)(torch.ones(1, 4, 1, 1)).shape
        torch.Size([1, 1, 2, 2])
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return torch.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """``(*, C, H * r, W * r)`` to ``(*, C * r², H, W)`` (see `torch.pixel_unshuffle`).

    Example::

        >>> nn.PixelUnshuffle(2)(torch.ones(1, 1, 2, 2)).shape
        torch.Size([1, 4, 1, 1])
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return torch.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    """Interleave `groups` groups of channels (see `torch.channel_shuffle`).

    Example::

        >>> nn.ChannelShuffle(2)(torch.arange(4.).view(1, 4, 1)).flatten()
        tensor([0., 2., 1., 3.])
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
