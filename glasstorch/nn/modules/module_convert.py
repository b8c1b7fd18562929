"""Converting a Module's tensors: `_apply` (the one walk every conversion uses), `to`,
`to_empty` and the device moves (`cuda`, `xpu`, `ipu`, `mtia`). ``Module.to(*args, **kwargs)`` parses Tensor.to's
argument forms once (torch._C._nn._parse_to), then converts each tensor, changing the
dtype of floating point and complex tensors only.

The functions named like Module methods are installed on `Module` (module.py), which
imports this module (not the other way round); each returns its module, `self`.
"""
from __future__ import annotations

import warnings
from typing import Callable

from ...autograd.grad_mode import no_grad
from ...c10.tensor_impl import TensorBase


def _apply(self, fn: Callable, recurse: bool = True):
    """Replace every parameter's and buffer's data by ``fn(tensor)``; returns self.

    Parameters keep their identity (an optimizer holding them still sees them):
    their `.data` is swapped for the converted tensor, and so is their gradient's.
    Buffers are replaced by the converted tensor.
    """
    if recurse:
        for module in self.children():
            module._apply(fn)
    for param in self._parameters.values():
        if param is None:
            continue
        with no_grad():
            param.data = fn(param)
        grad = param.grad
        if grad is not None:
            with no_grad():
                grad.data = fn(grad)
    for name, buf in self._buffers.items():
        if buf is not None:
            self._buffers[name] = fn(buf)
    return self


def to(self, *args, **kwargs):
    """Move and/or cast parameters and buffers: ``to(device=None, dtype=None,
    non_blocking=False)``, ``to(dtype)``, ``to(tensor)`` or ``to(memory_format=...)``.
    Only floating point and complex tensors change dtype. Returns self.

    Example::

        >>> nn.Linear(2, 2).to(torch.float64).weight.dtype
        torch.float64
    """
    return self._apply(converter(args, kwargs))


def cuda(self, device=None):
    """Move parameters and buffers to a CUDA device: this build has none, so a module
    with tensors raises what `Tensor.cuda` raises (torch's CPU-only error)."""
    return self._apply(lambda t: t.cuda(device))


def xpu(self, device=None):
    """Move parameters and buffers to an XPU (none here: `Tensor.xpu`'s error)."""
    return self._apply(lambda t: t.xpu(device))


def ipu(self, device=None):
    """Move parameters and buffers to an IPU (none here: `Tensor.ipu`'s error)."""
    return self._apply(lambda t: t.ipu(device))


def mtia(self, device=None):
    """Move parameters and buffers to an MTIA device (none here: `Tensor.mtia`'s error)."""
    return self._apply(lambda t: t.mtia(device))


def to_empty(self, *, device, recurse: bool = True):
    """Replace parameters and buffers by uninitialised tensors on `device`."""
    from ... import empty_like
    return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)


def converter(args: tuple, kwargs: dict) -> Callable:
    """The per-tensor conversion of ``Module.to(*args, **kwargs)``."""
    device, dtype, non_blocking, memory_format = _parse_to(args, kwargs)
    if dtype is not None:
        if not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")
        if dtype.is_complex:
            warnings.warn(
                "Complex modules are a new feature under active development whose design may "
                "change, and some modules might not work as expected when using complex tensors "
                "as parameters or buffers. Please file an issue at https://github.com/pytorch/"
                "pytorch/issues/new?template=bug-report.yml if a complex module does not work as "
                "expected.", stacklevel=3)

    def convert(t: TensorBase) -> TensorBase:
        target = dtype if t.is_floating_point() or t.is_complex() else None
        if memory_format is not None and t.dim() in (4, 5):
            return t.to(device, target, non_blocking, memory_format=memory_format)
        return t.to(device, target, non_blocking)
    return convert


def _parse_to(args: tuple, kwargs: dict) -> tuple:
    """(device, dtype, non_blocking, memory_format) of Tensor.to's argument forms
    (torch._C._nn._parse_to); Module.to refuses the copy flag."""
    from ...aten.native.creation.conversion import parse_to
    from ...c10.device import device as as_device
    bound = parse_to(args, kwargs)
    if "copy" in bound:
        raise RuntimeError(".to() does not accept copy argument")
    device = bound.get("device")
    return (None if device is None else as_device(device), bound.get("dtype"),
            bound.get("non_blocking", False), bound.get("memory_format"))
