"""torch.mps.profiler: Metal's signposts and captures (needs the MPS backend)."""
from __future__ import annotations

import contextlib

from ._unavailable import no_backend

__all__ = ["start", "stop", "profile", "metal_capture", "is_metal_capture_enabled",
           "is_capturing_metal"]


def start(mode: str = "interval", wait_until_completed: bool = False) -> None:
    """Start the MPS profiler's trace."""
    raise no_backend("profilerStartTrace")


def stop() -> None:
    """Stop the MPS profiler's trace."""
    raise no_backend("profilerStopTrace")


@contextlib.contextmanager
def profile(mode: str = "interval", wait_until_completed: bool = False):
    """A context traced by the MPS profiler."""
    start(mode, wait_until_completed)
    try:
        yield
    finally:
        stop()


def is_metal_capture_enabled() -> bool:
    """Whether Metal captures may be taken."""
    raise no_backend("isCaptureEnabled")


def is_capturing_metal() -> bool:
    """Whether a Metal capture is running."""
    raise no_backend("isCapturing")


@contextlib.contextmanager
def metal_capture(fname: str):
    """A context recorded into a Metal capture file."""
    raise no_backend("isCaptureEnabled")
    yield
