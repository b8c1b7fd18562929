"""`torch.get_device_module`: the module of a device type (`torch.cuda` for 'cuda')."""
from __future__ import annotations

import importlib

from ..c10.device import device as Device

_MODULES = ("cpu", "cuda", "mps", "xpu", "mtia")


def get_device_module(device=None):
    """The module of `device`'s type (`torch.cpu` when None, the accelerator being absent).

    Example::

        >>> torch.get_device_module('cuda').is_available()
        False
    """
    kind = "cpu" if device is None else Device(device).type
    if kind not in _MODULES:
        raise RuntimeError(f"Device '{kind}' does not have a corresponding module registered "
                           f"as 'torch.{kind}'.")
    return importlib.import_module(f"glasstorch.{kind}")
