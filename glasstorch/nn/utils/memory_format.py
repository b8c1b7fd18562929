"""torch.nn.utils.memory_format: convolution weights converted to a memory format
(channels last), through every submodule."""
from __future__ import annotations

from typing import TypeVar

from ..modules.conv import Conv2d, Conv3d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]

_M = TypeVar("_M", bound=Module)


def _convert(module: _M, kinds: tuple, memory_format) -> _M:
    if isinstance(module, kinds):
        data = module.weight.detach().clone(memory_format=memory_format)
        module.weight.data = data.resize_(data.size(), memory_format=memory_format)
    for child in module.children():
        _convert(child, kinds, memory_format)
    return module


def convert_conv2d_weight_memory_format(module: _M, memory_format) -> _M:
    """Lay out the weight of every `Conv2d` / `ConvTranspose2d` in `module` (itself
    included) in `memory_format`; the values are unchanged.

    Args:
        module (Module): the model.
        memory_format (torch.memory_format): e.g. ``torch.channels_last``.

    Returns:
        Module: `module`.

    Example::

        >>> model = convert_conv2d_weight_memory_format(model, torch.channels_last)
    """
    return _convert(module, (Conv2d, ConvTranspose2d), memory_format)


def convert_conv3d_weight_memory_format(module: _M, memory_format) -> _M:
    """Lay out the weight of every `Conv3d` / `ConvTranspose3d` in `module` (itself
    included) in `memory_format` (``torch.channels_last_3d``); the values are unchanged.

    Args:
        module (Module): the model.
        memory_format (torch.memory_format): e.g. ``torch.channels_last_3d``.

    Returns:
        Module: `module`.

    Example::

        >>> model = convert_conv3d_weight_memory_format(model, torch.channels_last_3d)
    """
    return _convert(module, (Conv3d, ConvTranspose3d), memory_format)
