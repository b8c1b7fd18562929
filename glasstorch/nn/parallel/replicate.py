"""torch.nn.parallel.replicate: copies of a module, one per GPU, sharing its graph.

The parameters and buffers of each copy are broadcast to its GPU, which needs GPUs:
a module holding tensors is refused as torch's CPU build refuses it. A module with
none (activations, containers of them) is replicated as torch replicates it.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Sequence, TypeVar

from ..modules.module import Module
from . import comm

T = TypeVar("T", bound=Module)


def _replica(module: Module) -> Module:
    """A shallow copy of `module` whose tables are its own (filled by `replicate`)."""
    replica = Module.__new__(type(module))
    replica.__dict__.update(module.__dict__, _parameters={}, _buffers=module._buffers.copy(),
                            _modules=module._modules.copy(), _is_replica=True,
                            _former_parameters=OrderedDict())
    return replica


def replicate(network: T, devices: Sequence, detach: bool = False) -> list:
    """One copy of `network` for each device of `devices`.

    Raises:
        ValueError: a device is the CPU.
        AssertionError: `network` holds parameters or buffers (they need GPUs to go to).
    """
    if not devices:
        return []
    for value in devices:
        comm.device_index(value, optional=True)
    buffers = list(network.buffers())
    # parameters (and, unless detached, buffers requiring grad) go through the autograd
    # broadcast, which refuses CPU tensors; the rest through the missing CUDA collective
    if not detach and (any(True for _ in network.parameters()) or
                       any(buffer.requires_grad for buffer in buffers)):
        raise AssertionError("Broadcast function not implemented for CPU tensors")
    if buffers or any(True for _ in network.parameters()):
        raise AttributeError("module 'torch._C' has no attribute '_broadcast_coalesced'")
    replicas = []
    for _ in devices:
        copies = {module: _replica(module) for module in network.modules()}
        for module, copy in copies.items():
            for name, child in module._modules.items():
                copy._modules[name] = None if child is None else copies[child]
        replicas.append(copies[network])
    return replicas
