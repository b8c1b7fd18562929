"""What ``Module.to(*args, **kwargs)`` does to each tensor: the argument forms of
Tensor.to parsed once (torch._C._nn._parse_to), then one conversion per tensor in
which only floating point and complex tensors change dtype.
"""
from __future__ import annotations

import warnings
from typing import Callable

from ...c10.tensor_impl import TensorBase


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
    from ...aten.native.conversion import _TO_SIGNATURES, _bind_to, tensor_to
    from ...c10.device import device as as_device
    for names in _TO_SIGNATURES:
        bound = _bind_to(names, args, kwargs)
        if bound is not None:
            break
    else:
        from ... import empty
        tensor_to(empty(0), *args, **kwargs)       # raises Tensor.to's own TypeError
    if "copy" in bound:
        raise RuntimeError(".to() does not accept copy argument")
    other = bound.get("tensor")
    device = other.device if other is not None else bound.get("device")
    dtype = other.dtype if other is not None else bound.get("dtype")
    return (None if device is None else as_device(device), dtype,
            bound.get("non_blocking", False), bound.get("memory_format"))
