"""torch.cuda.memory, without CUDA: the counters read 0 and the allocator controls refuse.

torch reads its counters from the caching allocator's statistics, which are empty
before CUDA initialises (so always, here): `memory_stats()` is empty and every counter
0. What would talk to the allocator finds the compiled binding missing, or initialises
CUDA and refuses (`_unavailable.py`).
"""
from __future__ import annotations

import collections
import contextlib
import warnings

from ._unavailable import DummyBase, lazy_init, missing_binding

__all__ = ["caching_allocator_alloc", "caching_allocator_delete", "caching_allocator_disabled",
           "caching_allocator_enable", "get_per_process_memory_fraction",
           "set_per_process_memory_fraction", "empty_cache", "memory_stats",
           "memory_stats_as_nested_dict", "reset_accumulated_memory_stats",
           "reset_peak_memory_stats", "reset_max_memory_allocated", "reset_max_memory_cached",
           "host_memory_stats", "host_memory_stats_as_nested_dict",
           "reset_accumulated_host_memory_stats", "reset_peak_host_memory_stats",
           "memory_allocated", "max_memory_allocated", "memory_reserved",
           "max_memory_reserved", "memory_cached", "max_memory_cached", "memory_snapshot",
           "memory_summary", "list_gpu_processes", "mem_get_info", "get_allocator_backend",
           "CUDAPluggableAllocator", "change_current_allocator", "MemPool", "use_mem_pool"]


def memory_stats(device=None) -> dict:
    """The caching allocator's statistics: empty, as CUDA never initialised."""
    return collections.OrderedDict()


def memory_stats_as_nested_dict(device=None) -> dict:
    """`memory_stats` as torch keeps it, nested by category: empty."""
    return {}


def host_memory_stats() -> dict:
    """The pinned host allocator's statistics: empty."""
    return collections.OrderedDict()


def host_memory_stats_as_nested_dict() -> dict:
    """`host_memory_stats`, nested: empty."""
    return {}


def _counter(name: str, key: str, renamed_from: str | None = None):
    """A memory counter read from `memory_stats` (0 when absent, always here)."""
    def counter(device=None) -> int:
        if renamed_from is not None:
            warnings.warn(f"`torch.cuda.{name}` has been renamed to `torch.cuda.{renamed_from}`",
                          FutureWarning, stacklevel=2)
        return memory_stats(device).get(key, 0)
    counter.__name__ = counter.__qualname__ = name
    counter.__doc__ = f"The `{key}` counter of the CUDA caching allocator, in bytes (0 here)."
    return counter


memory_allocated = _counter("memory_allocated", "allocated_bytes.all.current")
max_memory_allocated = _counter("max_memory_allocated", "allocated_bytes.all.peak")
memory_reserved = _counter("memory_reserved", "reserved_bytes.all.current")
max_memory_reserved = _counter("max_memory_reserved", "reserved_bytes.all.peak")
memory_cached = _counter("memory_cached", "reserved_bytes.all.current", "memory_reserved")
max_memory_cached = _counter("max_memory_cached", "reserved_bytes.all.peak",
                             "max_memory_reserved")


def memory_summary(device=None, abbreviated: bool = False) -> str:
    """A printable table of `memory_stats`: torch's fails on the empty statistics."""
    raise KeyError("allocated_bytes.all.current")


def empty_cache() -> None:
    """Release the allocator's unused cached memory: nothing to release."""


def _binding_call(name: str, binding: str, doc: str, warning: str | None = None):
    """A function whose work is one compiled CUDA binding, missing here."""
    def call(*args, **kwargs):
        if warning is not None:
            warnings.warn(warning, FutureWarning, stacklevel=2)
        raise missing_binding(binding)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = doc
    return call


reset_peak_memory_stats = _binding_call(
    "reset_peak_memory_stats", "_cuda_resetPeakMemoryStats",
    "Reset the peak counters of the CUDA caching allocator.")
reset_accumulated_memory_stats = _binding_call(
    "reset_accumulated_memory_stats", "_cuda_resetAccumulatedMemoryStats",
    "Reset the accumulated counters of the CUDA caching allocator.")
reset_max_memory_allocated = _binding_call(
    "reset_max_memory_allocated", "_cuda_resetPeakMemoryStats",
    "Reset the peak of `memory_allocated` (all peaks, now).",
    "torch.cuda.reset_max_memory_allocated now calls torch.cuda.reset_peak_memory_stats, "
    "which resets /all/ peak memory stats.")
reset_max_memory_cached = _binding_call(
    "reset_max_memory_cached", "_cuda_resetPeakMemoryStats",
    "Reset the peak of `memory_reserved` (all peaks, now).",
    "torch.cuda.reset_max_memory_cached now calls torch.cuda.reset_peak_memory_stats, "
    "which resets /all/ peak memory stats.")
reset_peak_host_memory_stats = _binding_call(
    "reset_peak_host_memory_stats", "_cuda_resetPeakHostMemoryStats",
    "Reset the peak counters of the pinned host allocator.")
reset_accumulated_host_memory_stats = _binding_call(
    "reset_accumulated_host_memory_stats", "_cuda_resetAccumulatedHostMemoryStats",
    "Reset the accumulated counters of the pinned host allocator.")
memory_snapshot = _binding_call("memory_snapshot", "_cuda_memorySnapshot",
                                "The allocator's state: every segment and block.")
get_allocator_backend = _binding_call("get_allocator_backend", "_cuda_getAllocatorBackend",
                                      "The name of the CUDA allocator backend in use.")
caching_allocator_delete = _binding_call(
    "caching_allocator_delete", "_cuda_cudaCachingAllocator_raw_delete",
    "Free memory `caching_allocator_alloc` gave.")
change_current_allocator = _binding_call(
    "change_current_allocator", "_cuda_changeCurrentAllocator",
    "Make another allocator the CUDA allocator.")


def caching_allocator_alloc(size: int, device=None, stream=None) -> int:
    """Allocate `size` bytes from the CUDA caching allocator (AssertionError: no CUDA)."""
    lazy_init()


def get_per_process_memory_fraction(device=None) -> float:
    """The fraction of a device's memory this process may use (AssertionError: no CUDA)."""
    lazy_init()


def set_per_process_memory_fraction(fraction, device=None) -> None:
    """Limit this process to a fraction of a device's memory (AssertionError: no CUDA)."""
    lazy_init()


def mem_get_info(device=None) -> tuple:
    """The free and total memory of a device, in bytes (AssertionError: no CUDA)."""
    lazy_init()


def caching_allocator_enable(value: bool = True) -> None:
    """Turn the caching allocator on or off (it never starts here)."""


@contextlib.contextmanager
def caching_allocator_disabled():
    """A context with the caching allocator off (it asks the missing binding first)."""
    raise missing_binding("_cuda_cudaCachingAllocator_is_enabled")
    yield


def list_gpu_processes(device=None) -> str:
    """The processes running on a device, through NVML (not installed here)."""
    return "pynvml module not found, please install nvidia-ml-py"


class CUDAPluggableAllocator:
    """A CUDA allocator loaded from a shared library's alloc and free functions."""

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str) -> None:
        import ctypes
        ctypes.CDLL(path_to_so_file)
        raise missing_binding("_cuda_customAllocator")


class MemPool(DummyBase):
    """A pool of CUDA memory a block of code allocates from."""


@contextlib.contextmanager
def use_mem_pool(pool, device=None):
    """A context allocating from `pool` (AssertionError on entry: no CUDA)."""
    lazy_init()
    yield
