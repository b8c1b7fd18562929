"""torch.mtia, as torch's CPU-only build has it: no MTIA device, and torch's refusals.

What initialises MTIA raises its AssertionError (with the hint about the library to
import); what asks the device through the accelerator hooks finds no MTIA backend. The
streams and events are torch's device-neutral ones (`torch.Stream`, `torch.Event`).
"""
from __future__ import annotations

from ..c10.device import NOT_COMPILED
from ..c10.stream import Event, Stream  # noqa: F401  (torch.mtia's are torch's)

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


def _needs_mtia(name: str, doc: str):
    """A call that initialises MTIA first (AssertionError here)."""
    return _make(name, f"{doc} (AssertionError: this build has no MTIA).", _lazy_init)


def _needs_backend(name: str, doc: str, function: str = "getCurrentDevice"):
    """A call that asks the MTIA backend's hooks, missing here (RuntimeError)."""
    def refuse():
        raise _no_backend(function)
    return _make(name, f"{doc} (RuntimeError: no MTIA backend here).", refuse)


def _answer(name: str, doc: str, value):
    return _make(name, f"{doc}: {value!r}, without an MTIA device.", lambda: value)


init = _needs_mtia("init", "Initialise MTIA's state")
get_rng_state = _needs_mtia("get_rng_state", "An MTIA generator's state")
initial_seed = _needs_mtia("initial_seed", "The MTIA generator's initial seed")
synchronize = _needs_backend("synchronize", "Wait for an MTIA device's work")
current_device = _needs_backend("current_device", "The index of the current MTIA device")
current_stream = _needs_backend("current_stream", "The current MTIA stream")
default_stream = _needs_backend("default_stream", "The default MTIA stream")
get_device_capability = _needs_backend("get_device_capability", "An MTIA device's capability")
get_device_properties = _needs_backend("get_device_properties", "An MTIA device's properties")
set_rng_state = _needs_backend("set_rng_state", "Set an MTIA generator's state")
empty_cache = _needs_backend("empty_cache", "Release the MTIA allocator's cache", "emptyCache")
snapshot = _needs_backend("snapshot", "The MTIA allocator's state", "memorySnapshot")
graph_pool_handle = _needs_backend("graph_pool_handle", "A memory pool handle graphs share",
                                   "graphPoolHandle")
is_available = _answer("is_available", "Whether an MTIA device can be used", False)
is_initialized = _answer("is_initialized", "Whether MTIA is initialised", False)
device_count = _answer("device_count", "The number of MTIA devices", 0)
memory_allocated = _answer("memory_allocated", "Memory held by tensors", 0)
max_memory_allocated = _answer("max_memory_allocated", "Peak memory held by tensors", 0)
reset_peak_memory_stats = _answer("reset_peak_memory_stats", "Reset the peak counters", None)
record_memory_history = _answer("record_memory_history", "Record allocations", None)
manual_seed = _answer("manual_seed", "Seed the MTIA generator (kept for later)", None)
manual_seed_all = _answer("manual_seed_all", "Seed every MTIA generator", None)
seed = _answer("seed", "Seed the MTIA generator from a random number", None)
seed_all = _answer("seed_all", "Seed every MTIA generator from a random number", None)
is_bf16_supported = _answer("is_bf16_supported", "Whether MTIA supports bfloat16", True)


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
