"""torch.accelerator: the current accelerator, device-neutral; this build has none, so
every call that needs one refuses with torch's words."""
from __future__ import annotations

import warnings

__all__ = ["Graph", "current_accelerator", "current_device_idx", "current_device_index",
           "get_device_capability", "current_stream", "device_count", "device_index",
           "empty_cache", "empty_host_cache", "get_memory_info", "is_available",
           "max_memory_allocated", "max_memory_reserved", "memory_allocated",
           "memory_reserved", "memory_stats", "reset_accumulated_memory_stats",
           "reset_peak_memory_stats", "set_device_idx", "set_device_index", "set_stream",
           "synchronize"]

_NONE = "Cannot access accelerator device when none is available."


def _refuse(*args, **kwargs):
    raise RuntimeError(_NONE)


def is_available() -> bool:
    """Whether an accelerator is available: no."""
    return False


def device_count() -> int:
    """The number of accelerator devices: 0."""
    return 0


def current_accelerator(check_available: bool = False):
    """The accelerator's device type, or None (none here).

    Example::

        >>> torch.accelerator.current_accelerator() is None
        True
    """
    return None


def set_device_index(device, /) -> None:
    """Make `device` the current accelerator device (a negative index: nothing)."""
    if not (isinstance(device, int) and device < 0):
        _refuse()


def set_device_idx(device, /) -> None:
    """Deprecated: `set_device_index`."""
    warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    set_device_index(device)


def _needs_accelerator(name: str, doc: str):
    def call(*args, **kwargs):
        _refuse()
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{doc} (no accelerator here: RuntimeError)."
    return call


current_device_index = _needs_accelerator("current_device_index",
                                          "The index of the current accelerator device")
current_device_idx = _needs_accelerator("current_device_idx", "Deprecated: current_device_index")
current_stream = _needs_accelerator("current_stream", "The current accelerator stream")
set_stream = _needs_accelerator("set_stream", "Make a stream the current one")
synchronize = _needs_accelerator("synchronize", "Wait for an accelerator's work")
get_device_capability = _needs_accelerator("get_device_capability",
                                           "An accelerator device's capabilities")
empty_cache = _needs_accelerator("empty_cache", "Release the allocator's cache")
empty_host_cache = _needs_accelerator("empty_host_cache", "Release the pinned host cache")
get_memory_info = _needs_accelerator("get_memory_info", "The free and total device memory")
memory_stats = _needs_accelerator("memory_stats", "The device allocator's statistics")
memory_allocated = _needs_accelerator("memory_allocated", "Memory held by tensors")
max_memory_allocated = _needs_accelerator("max_memory_allocated", "Peak memory held by tensors")
memory_reserved = _needs_accelerator("memory_reserved", "Memory the allocator holds")
max_memory_reserved = _needs_accelerator("max_memory_reserved", "Peak memory the allocator held")
reset_accumulated_memory_stats = _needs_accelerator("reset_accumulated_memory_stats",
                                                    "Reset the accumulated counters")
reset_peak_memory_stats = _needs_accelerator("reset_peak_memory_stats",
                                             "Reset the peak counters")


class device_index:
    """A context making accelerator device `device` current (None: nothing changes)."""

    def __init__(self, device, /) -> None:
        self.idx = device

    def __enter__(self) -> None:
        if self.idx is not None:
            _refuse()

    def __exit__(self, *exc) -> None:
        return None


class Graph:
    """A captured accelerator graph (needs an accelerator)."""

    def __init__(self, *args, **kwargs) -> None:
        _refuse()
