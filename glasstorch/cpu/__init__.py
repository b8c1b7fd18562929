"""torch.cpu: the CPU as a device module, with the same questions torch.cuda answers."""
from __future__ import annotations

import contextlib
import importlib

from ..c10.stream import Event as _Event, Stream as _BaseStream

__all__ = ["is_available", "is_initialized", "synchronize", "current_device", "current_stream",
           "stream", "set_device", "device_count", "Stream", "StreamContext", "Event"]


def __getattr__(name: str):
    if name == "amp":
        return importlib.import_module(f"{__name__}.amp")
    raise AttributeError(f"module 'glasstorch.cpu' has no attribute '{name}'")


class Stream(_BaseStream):
    """The CPU's stream: work runs in program order, so it is always done."""

    def __init__(self, priority: int = -1) -> None:
        super().__init__()


Event = _Event


def is_available() -> bool:
    """Whether the CPU is available: always."""
    return True


def is_initialized() -> bool:
    """Whether the CPU device is initialised: always."""
    return True


def synchronize(device=None) -> None:
    """Wait for the CPU's work: it is done when the call returns."""


def current_device() -> str:
    """The current CPU device: ``'cpu'``."""
    return "cpu"


_current = Stream()


def current_stream(device=None) -> Stream:
    """The CPU's stream."""
    return _current


class StreamContext(contextlib.AbstractContextManager):
    """A context selecting a CPU stream (there is one: nothing changes)."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def __exit__(self, *exc) -> None:
        return None


def stream(stream) -> StreamContext:
    """A `StreamContext` for `stream`."""
    return StreamContext(stream)


def set_device(device) -> None:
    """Select a CPU device: there is one, so nothing changes."""


def device_count() -> int:
    """The number of CPU devices: 1."""
    return 1
