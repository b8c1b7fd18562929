"""torch.cuda.streams, without CUDA: the classes exist and refuse to be made."""
from __future__ import annotations

from ._unavailable import dummy_class
from .device_context import _device_index, _exchange_device


class Stream:
    """A CUDA stream: an ordered queue of work on a device (none here).

    Args:
        device (torch.device or int, optional): the stream's device.
        priority (int): the stream's priority (lower is more urgent).
    """

    def __init__(self, device=None, priority: int = 0, **kwargs) -> None:
        raise RuntimeError("torch.cuda.Stream requires CUDA support")


class ExternalStream(Stream):
    """A CUDA stream made outside PyTorch, wrapped by its pointer."""

    def __init__(self, stream_ptr: int, device=None, **kwargs) -> None:
        _exchange_device(_device_index(device, optional=True))


class Event:
    """A CUDA event: a marker in a stream to wait for or time (none here).

    Args:
        enable_timing (bool): whether the event measures time.
        blocking (bool): whether `synchronize` blocks.
        interprocess (bool): whether other processes may share it.
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False,
                 interprocess: bool = False, **kwargs) -> None:
        raise dummy_class("Event")
