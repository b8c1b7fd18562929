"""torch.mtia, as torch's CPU-only build has it: no MTIA device, and torch's refusals.

What initialises MTIA raises its AssertionError (with the hint about the library to
import); what asks the device through the accelerator hooks finds no MTIA backend. The
streams and events are torch's device-neutral ones (`torch.Stream`, `torch.Event`).
"""
from __future__ import annotations

from ..c10.device import NOT_COMPILED
from ..c10.stream import Event, Stream

__all__ = ["init", "is_available", "is_initialized", "synchronize", "device_count",
           "current_device", "current_stream", "default_stream", "memory_stats",
           "max_memory_allocated", "memory_allocated", "reset_peak_memory_stats",
           "get_device_capability", "get_device_properties", "record_memory_history",
           "snapshot", "attach_out_of_memory_observer", "empty_cache", "set_device",
           "set_stream", "stream", "device", "set_rng_state", "get_rng_state",
           "set_rng_state_all", "get_rng_state_all", "manual_seed", "manual_seed_all", "seed",
           "seed_all", "initial_seed", "is_bf16_supported", "MTIAGraph", "graph",
           "graph_pool_handle"]

default_generators: tuple = ()


class DeferredMtiaCallError(Exception):
    """A call queued until MTIA initialises failed when it ran."""


def _lazy_init() -> None:
    error, message = NOT_COMPILED["mtia"]
    raise error(message)


def _no_backend(function: str) -> RuntimeError:
    return RuntimeError(f"Cannot execute {function}() without MTIA backend.")


def _make(name: str, doc: str, body):
    def function(*args, **kwargs):
        return body()
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


def _refuse_backend(function: str):
    def refuse():
        raise _no_backend(function)
    return refuse


_REFUSALS = {
    "init": _lazy_init, "get_rng_state": _lazy_init, "initial_seed": _lazy_init,
    "synchronize": _refuse_backend("getCurrentDevice"),
    "current_device": _refuse_backend("getCurrentDevice"),
    "current_stream": _refuse_backend("getCurrentDevice"),
    "default_stream": _refuse_backend("getCurrentDevice"),
    "get_device_capability": _refuse_backend("getCurrentDevice"),
    "get_device_properties": _refuse_backend("getCurrentDevice"),
    "set_rng_state": _refuse_backend("getCurrentDevice"),
    "empty_cache": _refuse_backend("emptyCache"), "snapshot": _refuse_backend("memorySnapshot"),
    "graph_pool_handle": _refuse_backend("graphPoolHandle"),
}
_ANSWERS = {"is_available": False, "is_initialized": False, "device_count": 0,
            "memory_allocated": 0, "max_memory_allocated": 0, "reset_peak_memory_stats": None,
            "record_memory_history": None, "manual_seed": None, "manual_seed_all": None,
            "seed": None, "seed_all": None, "is_bf16_supported": True}
for _name, _body in _REFUSALS.items():
    globals()[_name] = _make(_name, f"torch.mtia.{_name} (needs an MTIA device).", _body)
for _name, _value in _ANSWERS.items():
    globals()[_name] = _make(_name, f"Answers {_value!r}: this build has no MTIA device.",
                             lambda value=_value: value)


def memory_stats(device=None) -> dict:
    """The MTIA allocator's statistics: empty."""
    return {}


def get_rng_state_all() -> list:
    """Every MTIA generator's state: none."""
    return []


def set_rng_state_all(new_states) -> None:
    """Set each MTIA generator's state."""
    for state in new_states:
        set_rng_state(state)


def set_device(device) -> None:
    """Make an MTIA device current (a negative index: nothing)."""
    if not (isinstance(device, int) and device < 0):
        raise _no_backend("setCurrentDevice")


def set_stream(stream) -> None:
    """Make `stream` the current MTIA stream (None: nothing changes)."""
    if stream is not None:
        _lazy_init()


def attach_out_of_memory_observer(observer) -> None:
    """Call `observer` when an MTIA allocation fails."""
    if not callable(observer):
        raise TypeError("_mtia_attachOutOfMemoryObserver(): incompatible function arguments.")


class StreamContext:
    """A context making `stream` the current MTIA stream."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def __enter__(self) -> None:
        raise _no_backend("getCurrentDevice")

    def __exit__(self, *exc) -> None:
        return None


def stream(stream) -> StreamContext:
    """A `StreamContext` for `stream`."""
    return StreamContext(stream)


class device:
    """A context making an MTIA device current (a negative index: nothing)."""

    def __init__(self, device) -> None:
        self.idx = device

    def __enter__(self) -> None:
        if not (isinstance(self.idx, int) and self.idx < 0):
            raise _no_backend("getCurrentDevice" if self.idx is None else "maybeExchangeDevice")

    def __exit__(self, *exc) -> bool:
        return False


class MTIAGraph:
    """A captured MTIA graph."""

    def __init__(self, *args, **kwargs) -> None:
        raise _no_backend("mtiagraphCreate")


class graph:
    """A context capturing the MTIA work inside it."""

    def __init__(self, mtia_graph, pool=None, stream=None) -> None:
        raise _no_backend("getCurrentDevice")
