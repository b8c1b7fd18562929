"""torch.nn.parallel.parallel_apply: run module replicas on their devices in threads.

Each replica runs on a GPU stream; a build without accelerators checks the arguments
as torch does and then refuses, with torch's errors.
"""
from __future__ import annotations

from typing import Any, Sequence

from ...c10.device import device as _device
from ...c10.tensor_impl import TensorBase


def get_a_var(obj: Any) -> TensorBase | None:
    """The first tensor found in `obj` (a tensor, or lists, tuples and dicts of them)."""
    if isinstance(obj, TensorBase):
        return obj
    if isinstance(obj, (list, tuple)) or isinstance(obj, dict):
        for found in map(get_a_var, obj.items() if isinstance(obj, dict) else obj):
            if isinstance(found, TensorBase):
                return found
    return None


def _same_length(modules, others, name: str) -> None:
    if len(modules) != len(others):
        raise AssertionError(f"The number of modules {len(modules)} is not equal to the number "
                             f"of {name} {len(others)}")


def parallel_apply(modules: Sequence, inputs: Sequence, kwargs_tup: Sequence | None = None,
                   devices: Sequence | None = None) -> list:
    """Call ``modules[i](*inputs[i], **kwargs_tup[i])`` on ``devices[i]``, in parallel.

    Raises:
        AssertionError: the lists differ in length, or (no modules) there is no accelerator.
        ValueError: a device is not a CUDA device.
        RuntimeError: a module would need an accelerator this build lacks.
    """
    _same_length(modules, inputs, "inputs")
    if kwargs_tup is not None:
        _same_length(modules, kwargs_tup, "kwargs_tup")
    if devices is not None:
        _same_length(modules, devices, "devices")
    for value in devices if devices is not None else ():
        given = _device(value) if isinstance(value, str) else value
        if isinstance(given, _device) and given.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {given}")
    if modules:
        raise RuntimeError("Cannot access accelerator device when none is available.")
    raise AssertionError("No available accelerator found.")
