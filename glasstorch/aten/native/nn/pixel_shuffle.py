"""Rearranging channels: pixel_shuffle and pixel_unshuffle (channels to and from
spatial blocks), channel_shuffle and native_channel_shuffle (interleaving groups).

Each is a reshape, a permutation and a reshape (a contiguous copy, as torch's results
are), so gradients and meta shapes are those of the views they compose.
"""
from __future__ import annotations

import numpy as np

from ...registry import TensorMeta, composite, op


def fresh(result):
    """The result in memory of its own, as torch's kernels return: reshapes leave a
    view (of the input for a trivial rearrangement, a factor or group count of 1, or
    of an intermediate), which is copied then."""
    return result.clone() if result._is_view() else result


def _check_rank(name: str, self) -> None:
    if self.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {self.dim()} dimension(s)")


@composite("pixel_shuffle(Tensor self, int upscale_factor) -> Tensor")
def pixel_shuffle(self, upscale_factor):
    """Move blocks of ``r * r`` channels into ``r x r`` spatial blocks:
    ``(*, C * r², H, W)`` becomes ``(*, C, H * r, W * r)``.

    Example::

        >>> torch.pixel_shuffle(torch.arange(4.).view(1, 4, 1, 1), 2)
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """
    _check_rank("pixel_shuffle", self)
    r = upscale_factor
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    *batch, c, h, w = self.shape
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)={c} "
                           f"is not divisible by {r * r}")
    n = len(batch)
    blocks = self.reshape(*batch, c // (r * r), r, r, h, w)
    order = list(range(n)) + [n, n + 3, n + 1, n + 4, n + 2]
    return fresh(blocks.permute(order).contiguous().reshape(*batch, c // (r * r), h * r, w * r))


@composite("pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor")
def pixel_unshuffle(self, downscale_factor):
    """The inverse of `pixel_shuffle`: ``(*, C, H * r, W * r)`` becomes
    ``(*, C * r², H, W)``.

    Example::

        >>> torch.pixel_unshuffle(torch.arange(4.).view(1, 1, 2, 2), 2).flatten()
        tensor([0., 1., 2., 3.])
    """
    _check_rank("pixel_unshuffle", self)
    r = downscale_factor
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    *batch, c, h, w = self.shape
    for axis, size, dim in (("height", h, -2), ("width", w, -1)):
        if size % r:
            raise RuntimeError(f"pixel_unshuffle expects {axis} to be divisible by "
                               f"downscale_factor, but input.size({dim})={size} is not "
                               f"divisible by {r}")
    n = len(batch)
    blocks = self.reshape(*batch, c, h // r, r, w // r, r)
    order = list(range(n)) + [n, n + 2, n + 4, n + 1, n + 3]
    return fresh(blocks.permute(order).contiguous().reshape(*batch, c * r * r, h // r, w // r))


def _check_groups(self, groups) -> None:
    if self.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(self.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value "
                           f"of groups:{groups}")
    if self.shape[1] % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got "
                           f"{self.shape[1]} channels and {groups} groups.")


@composite("channel_shuffle(Tensor self, SymInt groups) -> Tensor")
def channel_shuffle(self, groups):
    """Interleave `groups` groups of channels: channel ``g * k + i`` moves to
    ``i * groups + g`` (``(N, g * k, *)`` read as ``(N, g, k, *)``, written as
    ``(N, k, g, *)``).

    Example::

        >>> torch.channel_shuffle(torch.arange(4.).view(1, 4, 1), 2).flatten()
        tensor([0., 2., 1., 3.])
    """
    _check_groups(self, groups)
    n, c, *spatial = self.shape
    grouped = self.reshape(n, groups, c // groups, *spatial).transpose(1, 2)
    return fresh(grouped.contiguous().reshape(self.shape))


def _native_channel_shuffle_meta(self, groups):
    _check_groups(self, groups)
    return TensorMeta(self._size, self._dtype)


@op("native_channel_shuffle(Tensor self, SymInt groups) -> Tensor",
    meta=_native_channel_shuffle_meta)
def native_channel_shuffle(self, groups, *, out):
    """`channel_shuffle`'s kernel; torch gives it no derivative, so neither does this."""
    n, c, *spatial = self.shape
    grouped = self.reshape(n, groups, c // groups, *spatial)
    np.copyto(out, np.swapaxes(grouped, 1, 2).reshape(self.shape))
