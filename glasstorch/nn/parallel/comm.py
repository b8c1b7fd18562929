"""torch.nn.parallel.comm (also torch.cuda.comm): moving tensors between GPUs.

Each function sends tensors to, or collects them from, several CUDA devices. A
CPU-only build has none: the arguments are checked as torch checks them (with the
same errors), and what would reach the compiled CUDA collectives then fails as in
torch's CPU build, with the AttributeError of the missing binding.
"""
from __future__ import annotations

import warnings

from ...c10.device import device as _device

__all__ = ["broadcast", "broadcast_coalesced", "reduce_add", "reduce_add_coalesced", "scatter",
           "gather"]


def _missing(binding: str) -> AttributeError:
    return AttributeError(f"module 'torch._C' has no attribute '{binding}'")


def device_index(value, optional: bool = False, allow_cpu: bool = False):
    """The GPU ordinal a device argument (device, string or int) names; checked as
    torch checks it."""
    given = _device(value) if isinstance(value, str) else value
    if isinstance(given, _device):
        if given.type == "cpu" and not allow_cpu:
            raise ValueError(f"Expected a non cpu device, but got: {given}")
        index = -1 if given.type == "cpu" else given.index
    else:
        index = given
    if index is None and not optional:
        raise ValueError("Expected a torch.device with a specified index or an integer, but "
                         f"got:{given}")
    return -1 if index is None else index


def _check_devices(devices) -> None:
    for value in devices:
        device_index(value)


def broadcast(tensor, devices=None, *, out=None):
    """Copy `tensor` to each of `devices` (or into each tensor of `out`): needs GPUs."""
    if (devices is None) == (out is None):
        raise RuntimeError("Exactly one of 'devices' and 'out' must be specified, but got "
                           f"devices={devices} and out={out}")
    if devices is not None:
        _check_devices(devices)
        raise _missing("_broadcast")
    raise _missing("_broadcast_out")


def broadcast_coalesced(tensors, devices, buffer_size: int = 10485760):
    """Copy `tensors` to each of `devices` in few large transfers: needs GPUs."""
    _check_devices(devices)
    raise _missing("_broadcast_coalesced")


def reduce_add(inputs, destination=None):
    """The sum of `inputs`, one on each GPU, placed on `destination`: needs GPUs."""
    device_index(destination, optional=True)
    inputs[0].size()
    for i, tensor in enumerate(inputs):
        if tensor.device.type == "cpu":
            raise AssertionError(f"reduce_add expects all inputs to be on GPUs, but input {i} "
                                 "is on CPU")
    raise RuntimeError("reduce_add expects destination to be on the same GPU with one of the "
                       "tensors")


def reduce_add_coalesced(inputs, destination=None, buffer_size: int = 10485760):
    """`reduce_add` of each tensor position of `inputs` (lists, one per GPU): needs GPUs."""
    for tensors in zip(*inputs, strict=True):
        reduce_add(tensors, destination)
    return ()


def scatter(tensor, devices=None, chunk_sizes=None, dim: int = 0, streams=None, *, out=None):
    """Split `tensor` along `dim` over `devices` (or into `out`): needs GPUs."""
    if out is None:
        _check_devices(devices)
        raise _missing("_scatter")
    if devices is not None:
        raise RuntimeError("'devices' must not be specified when 'out' is specified, but got "
                           f"devices={devices}")
    if chunk_sizes is not None:
        raise RuntimeError("'chunk_sizes' must not be specified when 'out' is specified, but "
                           f"got chunk_sizes={chunk_sizes}")
    raise _missing("_scatter_out")


def gather(tensors, dim: int = 0, destination=None, *, out=None):
    """Concatenate `tensors` from several GPUs along `dim` on `destination`: needs GPUs."""
    if out is not None:
        if destination is not None:
            raise RuntimeError("'destination' must not be specified when 'out' is specified, "
                               f"but got destination={destination}")
        raise _missing("_gather_out")
    if destination == -1:
        warnings.warn('Using -1 to represent CPU tensor is deprecated. Please use a device '
                      'object or string instead, e.g., "cpu".', FutureWarning, stacklevel=2)
    device_index(destination, optional=True, allow_cpu=True)
    raise _missing("_gather")
