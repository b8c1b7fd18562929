"""torch.cpu: the CPU as a device module, with the same questions torch.cuda answers."""
from __future__ import annotations

import contextlib
import importlib
import types

import numpy as np


__all__ = ["is_available", "is_initialized", "synchronize", "current_device", "current_stream",
           "stream", "set_device", "device_count", "Stream", "StreamContext", "Event",
           "get_capabilities"]


def __getattr__(name: str):
    if name == "amp":
        return importlib.import_module(f"{__name__}.amp")
    raise AttributeError(f"module 'glasstorch.cpu' has no attribute '{name}'")


class Stream:
    """The CPU's stream, for device-agnostic code: work runs in program order, so there is
    nothing to wait for."""

    def __init__(self, priority: int = -1) -> None:
        pass

    def wait_stream(self, stream) -> None:
        """Wait for `stream`'s work: already done."""

    def record_event(self) -> None:
        """Record an event: nothing to mark."""

    def wait_event(self, event) -> None:
        """Wait for `event`: already reached."""


class Event:
    """A CPU event, for device-agnostic code: always reached."""

    def query(self) -> bool:
        """Whether the work before the event is done: always."""
        return True

    def record(self, stream=None) -> None:
        """Record the event: nothing to mark."""

    def synchronize(self) -> None:
        """Wait for the event: nothing to wait for."""

    def wait(self, stream=None) -> None:
        """Make `stream` wait for the event: nothing to wait for."""


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


class _CurrentStream:
    """The CPU stream `current_stream` answers (one per program, as in torch)."""

    default = stream = Stream()


def current_stream(device=None) -> Stream:
    """The current CPU stream."""
    return _CurrentStream.stream


class StreamContext(contextlib.AbstractContextManager):
    """A context making `stream` the current CPU stream (None: nothing changes)."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.prev_stream = _CurrentStream.default

    def __enter__(self) -> None:
        if self.stream is not None:
            self.prev_stream = _CurrentStream.stream
            _CurrentStream.stream = self.stream

    def __exit__(self, *exc) -> None:
        if self.stream is not None:
            _CurrentStream.stream = self.prev_stream


def stream(stream) -> StreamContext:
    """A `StreamContext` for `stream`."""
    return StreamContext(stream)


def set_device(device) -> None:
    """Select a CPU device: there is one, so nothing changes."""


def device_count() -> int:
    """The number of CPU devices: 1."""
    return 1


def get_capabilities() -> types.MappingProxyType:
    """The instruction set extensions of this CPU (``{'avx2': True, ...}``), as NumPy
    detected them at start-up."""
    features = np._core._multiarray_umath.__cpu_features__
    return types.MappingProxyType({name.lower(): bool(on) for name, on in features.items()})
