"""torch.nn.parallel.scatter_gather: splitting inputs over GPUs and gathering outputs.

Containers are taken apart and rebuilt around their tensors; objects that are not
tensors are repeated for each device. Tensors themselves need GPUs: scattering one
ends in the missing CUDA binding and gathering CPU tensors is refused, as in torch's
CPU build.
"""
from __future__ import annotations

from typing import Any, Sequence

from ...c10.tensor_impl import TensorBase
from . import comm

__all__ = ["scatter", "scatter_kwargs", "gather"]


def _is_namedtuple(obj) -> bool:
    return isinstance(obj, tuple) and hasattr(obj, "_asdict") and hasattr(obj, "_fields")


def scatter(inputs: Any, target_gpus: Sequence, dim: int = 0) -> list:
    """One copy of `inputs` per device of `target_gpus`, with each tensor split along
    `dim` among them (tensors need GPUs).

    Example::

        >>> scatter((1, "a"), [0, 1])
        [(1, 'a'), (1, 'a')]
    """
    def scatter_map(obj):
        if isinstance(obj, TensorBase):
            devices = [comm.device_index(device, optional=True) for device in target_gpus]
            return comm.scatter(obj, devices, None, dim)
        if _is_namedtuple(obj):
            return [type(obj)(*parts) for parts in zip(*map(scatter_map, obj))]
        if isinstance(obj, tuple) and obj:
            return list(zip(*map(scatter_map, obj)))
        if isinstance(obj, list) and obj:
            return [list(parts) for parts in zip(*map(scatter_map, obj))]
        if isinstance(obj, dict) and obj:
            return [type(obj)(parts) for parts in zip(*map(scatter_map, obj.items()))]
        return [obj for _ in target_gpus]
    return scatter_map(inputs)


def scatter_kwargs(inputs: tuple, kwargs: dict | None, target_gpus: Sequence,
                   dim: int = 0) -> tuple:
    """`scatter` of the positional and the keyword arguments, padded to the same count
    with empty tuples and dicts."""
    scattered_inputs = scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = scatter(kwargs, target_gpus, dim) if kwargs else []
    scattered_inputs += [()] * (len(scattered_kwargs) - len(scattered_inputs))
    scattered_kwargs += [{}] * (len(scattered_inputs) - len(scattered_kwargs))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


def gather(outputs: Any, target_device, dim: int = 0) -> Any:
    """The outputs of each device merged into one: tensors concatenated along `dim` on
    `target_device` (tensors need GPUs), containers rebuilt around them."""
    def gather_map(outputs):
        out = outputs[0]
        if isinstance(out, TensorBase):
            if any(tensor.device.type == "cpu" for tensor in outputs):
                raise AssertionError("Gather function not implemented for CPU tensors")
            return comm.gather(outputs, dim, target_device)
        if out is None:
            return None
        if isinstance(out, dict):
            if any(len(out) != len(other) for other in outputs):
                raise ValueError("All dicts must have the same number of keys")
            return type(out)((key, gather_map([d[key] for d in outputs])) for key in out)
        if _is_namedtuple(out):
            return type(out)._make(map(gather_map, zip(*outputs)))
        return type(out)(map(gather_map, zip(*outputs)))
    return gather_map(outputs)
