"""torch.backends.mps: Apple's Metal backend, absent from this build."""
from __future__ import annotations

__all__ = ["get_core_count", "get_name", "is_built", "is_available", "is_macos13_or_newer",
           "is_macos_or_newer"]


def is_built() -> bool:
    """Whether torch was built with MPS: no."""
    return False


def is_available() -> bool:
    """Whether MPS can be used: no."""
    return False


def is_macos_or_newer(major: int, minor: int) -> bool:
    """Whether the OS is macOS `major.minor` or newer (needs the MPS backend)."""
    raise RuntimeError("Cannot execute isOnMacOSorNewer() without MPS backend.")


def is_macos13_or_newer(minor: int = 0) -> bool:
    """Whether the OS is macOS 13.`minor` or newer (needs the MPS backend)."""
    return is_macos_or_newer(13, minor)


def get_name() -> str:
    """The name of the Metal device (needs the MPS backend)."""
    raise AttributeError("module 'torch._C' has no attribute '_mps_get_name'")


def get_core_count() -> int:
    """The GPU core count of the Metal device (needs the MPS backend)."""
    raise AttributeError("module 'torch._C' has no attribute '_mps_get_core_count'")
