"""torch.mps: Apple's Metal device, absent from this build: each call that needs the
device refuses as torch does without its MPS backend."""
from __future__ import annotations

import importlib

from ._unavailable import no_backend

__all__ = ["compile_shader", "load_metallib", "device_count", "get_rng_state", "manual_seed",
           "seed", "set_rng_state", "synchronize", "empty_cache",
           "set_per_process_memory_fraction", "current_allocated_memory",
           "driver_allocated_memory", "Event", "profiler", "recommended_max_memory",
           "is_available"]


def __getattr__(name: str):
    if name == "profiler":
        return importlib.import_module(f"{__name__}.profiler")
    raise AttributeError(f"module 'glasstorch.mps' has no attribute '{name}'")


def is_available() -> bool:
    """Whether an MPS device can be used: no."""
    return False


def device_count() -> int:
    """The number of MPS devices: 0."""
    return 0


def manual_seed(seed: int) -> None:
    """Seed the MPS generator (there is none: nothing happens, as in torch)."""


def seed() -> None:
    """Seed the MPS generator from a random number (needs the backend)."""
    raise no_backend("getDefaultGenerator")


def get_rng_state(device="mps"):
    """The MPS generator's state (needs the backend)."""
    raise no_backend("getDefaultGenerator")


def set_rng_state(new_state, device="mps") -> None:
    """Set the MPS generator's state (needs the backend)."""
    raise no_backend("getDefaultGenerator")


def synchronize() -> None:
    """Wait for the MPS device's work (needs the backend)."""
    raise no_backend("deviceSynchronize")


def empty_cache() -> None:
    """Release the MPS allocator's cache (needs the backend)."""
    raise no_backend("emptyCache")


def set_per_process_memory_fraction(fraction) -> None:
    """Limit this process's share of the MPS memory (needs the backend)."""
    if not isinstance(fraction, float):
        raise TypeError("Invalid type for fraction argument, must be `float`")
    raise no_backend("setMemoryFraction")


def current_allocated_memory() -> int:
    """Memory the MPS allocator holds for tensors (needs the backend)."""
    raise no_backend("getCurrentAllocatedMemory")


def driver_allocated_memory() -> int:
    """Memory the Metal driver holds for this process (needs the backend)."""
    raise no_backend("getDriverAllocatedMemory")


def recommended_max_memory() -> int:
    """The Metal driver's recommended working set size (needs the backend)."""
    raise no_backend("getRecommendedMaxMemory")


def compile_shader(source: str):
    """Compile Metal shader source into callable kernels (needs MPS)."""
    raise RuntimeError("MPS is not available")


def load_metallib(source):
    """Load a compiled Metal library (needs MPS)."""
    raise RuntimeError("MPS is not available")


class Event:
    """An MPS event (needs the backend)."""

    def __init__(self, enable_timing: bool = False) -> None:
        raise no_backend("acquireEvent")
