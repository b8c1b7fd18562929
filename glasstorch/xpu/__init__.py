"""torch.xpu, as torch's CPU-only build has it: no Intel GPU, and torch's refusals.

Like torch.cuda (see its docstring): queries answer "none" (`device_count()` 0, memory
counters 0, seeds accepted for later), and what needs the device initialises it and
raises ``AssertionError: Torch not compiled with XPU enabled``; the device-telemetry
queries need the `pyzes` package, absent here.
"""
from __future__ import annotations

import collections
import contextlib

from ..c10.device import NOT_COMPILED
from . import streams
from .streams import DummyBase as _Dummy, Event, Stream

__all__ = ["Event", "Stream", "StreamContext", "XPUPluggableAllocator", "XPUGraph",
           "can_device_access_peer", "change_current_allocator", "clock_rate",
           "current_device", "current_stream", "default_generators", "device", "device_of",
           "device_count", "device_memory_used", "empty_cache", "get_arch_list",
           "get_device_capability", "get_device_name", "get_device_properties",
           "get_gencode_flags", "get_per_process_memory_fraction", "get_rng_state",
           "get_rng_state_all", "get_stream_from_external", "graph", "graph_pool_handle",
           "init", "initial_seed", "is_available", "is_bf16_supported",
           "is_current_stream_capturing", "is_initialized", "is_tf32_supported",
           "make_graphed_callables", "manual_seed", "manual_seed_all", "max_memory_allocated",
           "max_memory_reserved", "mem_get_info", "memory_allocated", "memory_reserved",
           "memory_snapshot", "memory_stats", "memory_stats_as_nested_dict", "memory_usage",
           "MemPool", "power_draw", "use_mem_pool", "reset_accumulated_memory_stats",
           "reset_peak_memory_stats", "seed", "seed_all", "set_device",
           "set_per_process_memory_fraction", "set_rng_state", "set_rng_state_all",
           "set_stream", "stream", "streams", "synchronize", "temperature", "utilization"]

default_generators: tuple = ()


def _lazy_init() -> None:
    error, message = NOT_COMPILED["xpu"]
    raise error(message)


def _function(name: str, doc: str, body):
    def function(*args, **kwargs):
        return body(*args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


def _needs_xpu(name: str, doc: str):
    """A query that initialises the XPU first (AssertionError here)."""
    return _function(name, f"{doc} (AssertionError: this build has no XPU).",
                     lambda *args, **kwargs: _lazy_init())


def _needs_pyzes(name: str, doc: str):
    def refuse(*args, **kwargs):
        raise ImportError("pyzes is required; install it with 'pip install pyzes'.")
    return _function(name, f"{doc}, read through Level Zero (needs pyzes).", refuse)


def _missing_binding(name: str, doc: str, binding: str):
    def refuse(*args, **kwargs):
        raise AttributeError(f"module 'torch._C' has no attribute '{binding}'")
    return _function(name, doc, refuse)


def _constant(name: str, doc: str, make):
    return _function(name, doc, lambda *args, **kwargs: make())


current_device = _needs_xpu("current_device", "The index of the current XPU")
current_stream = _needs_xpu("current_stream", "The current stream of an XPU")
get_device_capability = _needs_xpu("get_device_capability", "The capabilities of an XPU")
get_device_name = _needs_xpu("get_device_name", "The name of an XPU")
get_device_properties = _needs_xpu("get_device_properties", "The properties of an XPU")
get_per_process_memory_fraction = _needs_xpu(
    "get_per_process_memory_fraction", "This process's share of an XPU's memory")
get_rng_state = _needs_xpu("get_rng_state", "An XPU generator's state")
init = _needs_xpu("init", "Initialise the XPU state")
initial_seed = _needs_xpu("initial_seed", "The XPU generator's initial seed")
mem_get_info = _needs_xpu("mem_get_info", "The free and total memory of an XPU")
synchronize = _needs_xpu("synchronize", "Wait for an XPU's work")
set_device = _needs_xpu("set_device", "Make an XPU current")
set_per_process_memory_fraction = _needs_xpu(
    "set_per_process_memory_fraction", "Limit this process's share of XPU memory")
can_device_access_peer = _needs_xpu(
    "can_device_access_peer", "Whether one XPU can read another's memory")
get_stream_from_external = _needs_xpu(
    "get_stream_from_external", "A Stream over a stream made outside PyTorch")
clock_rate = _needs_pyzes("clock_rate", "An XPU's clock speed")
device_memory_used = _needs_pyzes("device_memory_used", "The memory used on an XPU")
memory_usage = _needs_pyzes("memory_usage", "An XPU's memory activity")
power_draw = _needs_pyzes("power_draw", "An XPU's power draw")
temperature = _needs_pyzes("temperature", "An XPU's temperature")
utilization = _needs_pyzes("utilization", "An XPU's utilisation")
device_count = _constant("device_count", "Answers 0: this build has no XPU.", lambda: 0)
is_available = _constant("is_available", "Answers False: this build has no XPU.", lambda: False)
is_initialized = _constant("is_initialized", "Answers False: this build has no XPU.", lambda: False)
is_bf16_supported = _constant(
    "is_bf16_supported", "Answers False: this build has no XPU.", lambda: False)
is_tf32_supported = _constant(
    "is_tf32_supported", "Answers False: this build has no XPU.", lambda: False)
get_gencode_flags = _constant("get_gencode_flags", "Answers '': this build has no XPU.", lambda: "")
empty_cache = _constant("empty_cache", "Answers None: this build has no XPU.", lambda: None)
seed = _constant("seed", "Answers None: this build has no XPU.", lambda: None)
seed_all = _constant("seed_all", "Answers None: this build has no XPU.", lambda: None)
max_memory_allocated = _constant(
    "max_memory_allocated", "Answers 0: this build has no XPU.", lambda: 0)
max_memory_reserved = _constant(
    "max_memory_reserved", "Answers 0: this build has no XPU.", lambda: 0)
memory_allocated = _constant("memory_allocated", "Answers 0: this build has no XPU.", lambda: 0)
memory_reserved = _constant("memory_reserved", "Answers 0: this build has no XPU.", lambda: 0)
manual_seed = _constant("manual_seed", "Answers None: this build has no XPU.", lambda: None)
manual_seed_all = _constant("manual_seed_all", "Answers None: this build has no XPU.", lambda: None)
set_rng_state = _constant("set_rng_state", "Answers None: this build has no XPU.", lambda: None)
get_arch_list = _constant("get_arch_list", "The XPU architectures built for: none.", list)
get_rng_state_all = _constant("get_rng_state_all", "Every XPU generator's state: none.", list)
memory_snapshot = _constant("memory_snapshot", "The XPU allocator's state: empty.", list)
memory_stats = _constant("memory_stats", "The XPU allocator's statistics: empty.",
                         collections.OrderedDict)
memory_stats_as_nested_dict = _constant("memory_stats_as_nested_dict",
                                        "The XPU allocator's statistics, nested: empty.", dict)
reset_accumulated_memory_stats = _missing_binding(
    "reset_accumulated_memory_stats", "Reset the accumulated XPU memory counters.",
    "_xpu_resetAccumulatedMemoryStats")
reset_peak_memory_stats = _missing_binding("reset_peak_memory_stats",
                                           "Reset the peak XPU memory counters.",
                                           "_xpu_resetPeakMemoryStats")
change_current_allocator = _missing_binding("change_current_allocator",
                                            "Make another allocator the XPU allocator.",
                                            "_xpu_changeCurrentAllocator")


def set_rng_state_all(new_states) -> None:
    """Set each XPU generator's state (kept for devices that never come)."""
    for state in new_states:
        set_rng_state(state)


def set_stream(stream) -> None:
    """Make `stream` the current XPU stream (None: nothing changes)."""
    if stream is not None:
        _lazy_init()


class XPUGraph(_Dummy):
    """A captured XPU graph."""


class MemPool(_Dummy):
    """A pool of XPU memory."""


def is_current_stream_capturing() -> bool:
    """Whether the current XPU stream captures a graph (a placeholder binding)."""
    raise RuntimeError("Tried to instantiate dummy base class _xpu_isCurrentStreamCapturing")


def graph_pool_handle():
    """A memory pool handle graphs may share (a placeholder binding)."""
    raise RuntimeError("Tried to instantiate dummy base class _xpu_graph_pool_handle")


class graph:
    """A context capturing the XPU work inside it."""

    def __init__(self, xpu_graph, pool=None, stream=None, capture_error_mode: str = "global"):
        Stream()


def make_graphed_callables(callables, sample_args, num_warmup_iters: int = 3,
                           allow_unused_input: bool = False, pool=None):
    """Graphed versions of callables, captured with `graph`."""
    XPUGraph()


class XPUPluggableAllocator:
    """An XPU allocator loaded from a shared library."""

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str) -> None:
        import ctypes
        ctypes.CDLL(path_to_so_file)
        raise AttributeError("module 'torch._C' has no attribute '_xpu_customAllocator'")


@contextlib.contextmanager
def use_mem_pool(pool, device=None):
    """A context allocating from `pool` (AssertionError on entry: no XPU)."""
    _lazy_init()
    yield


class device:
    """A context making an XPU current (this build was compiled without XPU support)."""

    def __init__(self, device) -> None:
        self.idx = device

    def __enter__(self) -> None:
        raise NotImplementedError("PyTorch was compiled without XPU support")

    def __exit__(self, *exc) -> bool:
        return False


class device_of(device):
    """The `device` context of a tensor's device."""

    def __init__(self, obj) -> None:
        super().__init__(-1)


class StreamContext:
    """A context making `stream` the current XPU stream (None: nothing changes)."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def __enter__(self) -> None:
        if self.stream is not None:
            _lazy_init()

    def __exit__(self, *exc) -> None:
        return None


def stream(stream) -> StreamContext:
    """A `StreamContext` for `stream`."""
    return StreamContext(stream)
