"""torch.xpu.streams: XPU streams and events, which this build can only refuse to make."""
from __future__ import annotations


class DummyBase:
    """A class standing for an XPU object this build cannot make."""

    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError(f"Tried to instantiate dummy base class {type(self).__name__}")


class Stream(DummyBase):
    """An XPU stream."""


class Event(DummyBase):
    """An XPU event."""
