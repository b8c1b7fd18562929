"""`torch.Stream` and `torch.Event`: a device's queue of work, and a marker in it.

On the CPU, work runs in program order, so there is one stream per device and nothing to
wait for: a stream is always done (`query()` is True) and a CPU event cannot be
recorded, as in torch, whose CPU backend has no events. Accelerator streams
(`torch.cuda.Stream`) are the device modules' own classes.
"""
from __future__ import annotations

from .device import device as Device, not_linked

_NO_ACCELERATOR = "Cannot access accelerator device when none is available."
_NO_EVENTS = "cpu backend doesn't support events."
# torch's c10::DeviceType numbers, which `Stream.device_type` answers
DEVICE_TYPE_NUMBERS = {"cpu": 0, "cuda": 1, "mkldnn": 2, "opengl": 3, "opencl": 4, "ideep": 5,
                       "hip": 6, "fpga": 7, "maia": 8, "xla": 9, "vulkan": 10, "mps": 11,
                       "meta": 12, "hpu": 13, "ve": 14, "lazy": 15, "ipu": 16, "mtia": 17,
                       "privateuseone": 20, "xpu": 21}


def _stream_device(device) -> Device:
    if device is None:
        return Device("cpu")
    if isinstance(device, int) and not isinstance(device, bool):
        raise RuntimeError(_NO_ACCELERATOR)
    device = Device(device)
    if device.type != "cpu":
        raise not_linked(device)
    return device


class Stream:
    """An ordered queue of work on a device (the CPU's: work already done).

    Args:
        device (torch.device, optional): the stream's device (the CPU).
        priority (int): the stream's priority (ignored on the CPU).

    Example::

        >>> s = torch.Stream()
        >>> s.query()
        True
    """

    def __init__(self, device=None, *, priority: int = 0) -> None:
        self.device = _stream_device(device)
        self.stream_id = 0

    device_index = property(lambda self: -1 if self.device.index is None else self.device.index)
    device_type = property(lambda self: DEVICE_TYPE_NUMBERS[self.device.type])
    native_handle = property(lambda self: 0)

    def query(self) -> bool:
        """Whether all work queued on the stream is done: always, on the CPU."""
        return True

    def synchronize(self) -> None:
        """Wait for the stream's work: there is none left on the CPU."""

    def is_capturing(self) -> bool:
        """Whether a graph is being captured on the stream: never on the CPU."""
        return False

    def record_event(self, event=None):
        """Record an event on the stream: the CPU backend has no events."""
        raise RuntimeError(_NO_EVENTS)

    def wait_event(self, event) -> None:
        """Make the stream wait for `event`: the CPU backend has no events."""
        raise RuntimeError(_NO_EVENTS)

    def wait_stream(self, stream) -> None:
        """Make the stream wait for the work of `stream` (through an event)."""
        raise RuntimeError(_NO_EVENTS)

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and (self.device, self.stream_id) == (
            other.device, other.stream_id)

    def __hash__(self) -> int:
        return hash((self.device, self.stream_id))

    def __repr__(self) -> str:
        return (f"torch.Stream device_type={self.device.type}, device_index={self.device_index}, "
                f"stream_id={self.stream_id}")


class Event:
    """A marker in a stream, to wait for or time (the CPU has none to record).

    Args:
        device (torch.device, optional): the event's device (the CPU).
        enable_timing (bool): whether `elapsed_time` may measure from this event.
        blocking (bool): whether `synchronize` blocks the CPU.
        interprocess (bool): whether the event may be shared between processes.
    """

    def __init__(self, device=None, *, enable_timing: bool = False, blocking: bool = False,
                 interprocess: bool = False) -> None:
        self.device = _stream_device(device)
        self.event_id = 0
        self._flag = int(enable_timing)

    def record(self, stream=None) -> None:
        """Record the event in `stream`: the CPU backend has no events."""
        raise RuntimeError(_NO_EVENTS)

    def query(self) -> bool:
        """Whether the work before the event is done: always, on the CPU."""
        return True

    def synchronize(self) -> None:
        """Wait for the event: nothing to wait for on the CPU."""

    def wait(self, stream=None) -> None:
        """Make `stream` wait for the event: nothing to wait for on the CPU."""

    def elapsed_time(self, end_event: "Event") -> float:
        """Milliseconds between this event and `end_event` (both timed and recorded)."""
        if not (self._flag and end_event._flag):
            raise ValueError("Both events must be created with argument 'enable_timing=True'.")
        raise RuntimeError(_NO_EVENTS)

    def ipc_handle(self):
        """A handle sharing the event with another process: CPU events cannot be shared."""
        raise RuntimeError(_NO_EVENTS)

    @classmethod
    def from_ipc_handle(cls, device, ipc_handle):
        """The event shared by another process's `ipc_handle`."""
        raise RuntimeError(_NO_EVENTS)

    def __repr__(self) -> str:
        index = -1 if self.device.index is None else self.device.index
        return (f"torch.Event device_type={self.device.type}, device_index={index}, "
                f"event_flag={self._flag}, event_id={self.event_id}")
