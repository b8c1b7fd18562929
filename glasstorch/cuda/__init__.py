"""torch.cuda, as torch's CPU-only build has it: no device, and its refusals.

A program written for a GPU asks ``torch.cuda.is_available()`` and takes the CPU path;
one that insists gets torch's errors: what would initialise CUDA raises
``AssertionError: Torch not compiled with CUDA enabled``, and the rest answer as torch's
CPU build answers (`device_count()` 0, memory counters 0, seeds accepted and kept for a
device that never comes). The families of refusals are in `_unavailable.py`; memory,
random, streams and graphs are submodules, as in torch.
"""
from __future__ import annotations

import importlib

from ..c10.errors import AcceleratorError, OutOfMemoryError  # noqa: F401
from . import graphs, memory, random, streams  # noqa: F401
from ._compute_capability import (DEVICE_REQUIREMENT, PYTORCH_RELEASES_CODE_CC,  # noqa: F401
                                  classproperty)
from ._legacy import LEGACY_CLASSES as _LEGACY_CLASSES
from ._unavailable import lazy_init as _lazy_init, missing_binding, nvml_missing
from .device_context import _device_index, device, device_of  # noqa: F401
from .graphs import (CUDAGraph, graph, graph_pool_handle,  # noqa: F401
                     is_current_stream_capturing, make_graphed_callables)
from .memory import *  # noqa: F401,F403  (torch.cuda re-exports torch.cuda.memory)
from .memory import __all__ as _memory_names
from .random import (get_rng_state, get_rng_state_all, initial_seed,  # noqa: F401
                     manual_seed, manual_seed_all, seed, seed_all, set_rng_state,
                     set_rng_state_all)
from .streams import Event, ExternalStream, Stream  # noqa: F401

globals().update(_LEGACY_CLASSES)
has_half = True
has_magma = False
default_generators: tuple = ()
# Submodules torch.cuda names, loaded on first use.
_LAZY_SUBMODULES = ("amp", "jiterator", "nccl", "nvtx", "profiler", "sparse", "tunable", "gds",
                    "green_contexts")


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "GreenContext":
        return importlib.import_module(f"{__name__}.green_contexts").GreenContext
    raise AttributeError(f"module 'glasstorch.cuda' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES) | {"GreenContext"})


class CudaError(RuntimeError):
    """An error code returned by the CUDA runtime (its text comes from the runtime)."""

    def __init__(self, code: int) -> None:
        raise AttributeError("'NoneType' object has no attribute 'cudaGetErrorString'")


class DeferredCudaCallError(Exception):
    """A call queued until CUDA initialises failed when it ran."""


class cudaStatus:
    """Return codes of the CUDA runtime that torch checks for."""

    SUCCESS: int = 0
    ERROR_NOT_READY: int = 34


def check_error(res: int) -> None:
    """Raise `CudaError` for a failing CUDA runtime code (the runtime is missing here)."""
    raise AttributeError("'NoneType' object has no attribute 'cudaError'")


def is_available() -> bool:
    """Whether CUDA can be used: never, in this CPU-only build.

    Example::

        >>> device = 'cuda' if torch.cuda.is_available() else 'cpu'
        >>> device
        'cpu'
    """
    return False


def device_count() -> int:
    """The number of CUDA devices: 0."""
    return 0


def is_initialized() -> bool:
    """Whether CUDA has been initialised: never, here."""
    return False


def init() -> None:
    """Initialise CUDA's state: this build has none (AssertionError)."""
    _lazy_init()


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Whether the current CUDA device supports bfloat16: there is none."""
    return False


def is_tf32_supported() -> bool:
    """Whether the current CUDA device supports TF32: there is none."""
    return False


def get_arch_list() -> list:
    """The CUDA architectures this build was compiled for: none."""
    return []


def get_gencode_flags() -> str:
    """The NVCC gencode flags this build was compiled with: none."""
    return ""


def current_device() -> int:
    """The index of the current CUDA device (AssertionError: there is none)."""
    _lazy_init()


def set_device(device) -> None:
    """Make `device` the current CUDA device; a negative index is a no-op, as in torch."""
    index = _device_index(device)
    if index >= 0:
        raise missing_binding("_cuda_setDevice")


def _needs_cuda(name: str, doc: str):
    """A torch.cuda query that initialises CUDA first (and so refuses here)."""
    def query(device=None):
        _lazy_init()
    query.__name__ = query.__qualname__ = name
    query.__doc__ = f"{doc} (AssertionError: this build has no CUDA)."
    return query


get_device_name = _needs_cuda("get_device_name", "The name of a CUDA device")
get_device_capability = _needs_cuda("get_device_capability",
                                    "The (major, minor) compute capability of a CUDA device")
get_device_properties = _needs_cuda("get_device_properties", "The properties of a CUDA device")
synchronize = _needs_cuda("synchronize", "Wait for all work on a CUDA device")
current_stream = _needs_cuda("current_stream", "The current stream of a CUDA device")
default_stream = _needs_cuda("default_stream", "The default stream of a CUDA device")


def can_device_access_peer(device, peer_device) -> bool:
    """Whether one CUDA device can read another's memory (AssertionError: no CUDA)."""
    _lazy_init()


def ipc_collect() -> None:
    """Free CUDA memory other processes released (AssertionError: no CUDA)."""
    _lazy_init()


def cudart():
    """The CUDA runtime module (AssertionError: no CUDA)."""
    _lazy_init()


def current_blas_handle():
    """The cuBLAS handle of the current stream (AssertionError: no CUDA)."""
    _lazy_init()


def current_solver_handle():
    """The cuSOLVER handle of the current stream (AssertionError: no CUDA)."""
    _lazy_init()


def get_sync_debug_mode() -> int:
    """The debug mode for synchronising CUDA calls (AssertionError: no CUDA)."""
    _lazy_init()


def set_sync_debug_mode(debug_mode) -> None:
    """Set the debug mode for synchronising CUDA calls (AssertionError: no CUDA)."""
    _lazy_init()


def get_stream_from_external(data_ptr: int, device=None):
    """A `Stream` over a stream made outside PyTorch (AssertionError: no CUDA)."""
    _lazy_init()


class StreamContext:
    """A context manager making `stream` the current one (None: nothing changes).

    In a build without CUDA every stream is the CPU's, so entering changes nothing.
    """

    def __init__(self, stream) -> None:
        self.stream = stream

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        return None


def stream(stream) -> StreamContext:
    """A `StreamContext` selecting `stream`."""
    return StreamContext(stream)


def set_stream(stream) -> None:
    """Make `stream` the current CUDA stream (None: nothing changes)."""
    if stream is not None:
        raise missing_binding("_cuda_setStream")


def _nvml_query(name: str, doc: str):
    def query(device=None) -> int:
        raise nvml_missing()
    query.__name__ = query.__qualname__ = name
    query.__doc__ = f"{doc}, read through NVML (needs nvidia-ml-py, absent here)."
    return query


clock_rate = _nvml_query("clock_rate", "The SM clock speed of a CUDA device in MHz")
device_memory_used = _nvml_query("device_memory_used", "The memory used on a CUDA device")
memory_usage = _nvml_query("memory_usage", "The percentage of time memory was read or written")
power_draw = _nvml_query("power_draw", "The power drawn by a CUDA device in mW")
temperature = _nvml_query("temperature", "The temperature of a CUDA device in degrees C")
utilization = _nvml_query("utilization", "The percentage of time a kernel was running")

__all__ = sorted(set(_memory_names) | {
    "BFloat16Storage", "BFloat16Tensor", "BoolStorage", "BoolTensor", "ByteStorage",
    "ByteTensor", "CUDAGraph", "CharStorage", "CharTensor", "ComplexDoubleStorage",
    "ComplexFloatStorage", "CudaError", "DeferredCudaCallError", "DoubleStorage",
    "DoubleTensor", "Event", "ExternalStream", "FloatStorage", "FloatTensor", "GreenContext",
    "HalfStorage", "HalfTensor", "IntStorage", "IntTensor", "LongStorage", "LongTensor",
    "ShortStorage", "ShortTensor", "Stream", "StreamContext", "amp", "can_device_access_peer",
    "check_error", "clock_rate", "cudaStatus", "cudart", "current_blas_handle",
    "current_device", "current_solver_handle", "current_stream", "default_generators",
    "default_stream", "device", "device_count", "device_memory_used", "device_of",
    "get_arch_list", "get_device_capability", "get_device_name", "get_device_properties",
    "get_gencode_flags", "get_rng_state", "get_rng_state_all", "get_stream_from_external",
    "get_sync_debug_mode", "graph", "graph_pool_handle", "graphs", "has_half", "has_magma",
    "init", "initial_seed", "ipc_collect", "is_available", "is_bf16_supported",
    "is_current_stream_capturing", "is_initialized", "is_tf32_supported", "jiterator",
    "make_graphed_callables", "manual_seed", "manual_seed_all", "memory", "memory_usage",
    "nccl", "nvtx", "power_draw", "profiler", "random", "seed", "seed_all", "set_device",
    "set_rng_state", "set_rng_state_all", "set_stream", "set_sync_debug_mode", "sparse",
    "stream", "streams", "synchronize", "temperature", "tunable", "utilization"})
