"""torch.cuda.profiler: start and stop the CUDA profiler (AssertionError: no CUDA)."""
from __future__ import annotations

import contextlib

from ._unavailable import lazy_init

__all__ = ["start", "stop", "profile"]


def start() -> None:
    """Start the CUDA profiler's collection."""
    lazy_init()


def stop() -> None:
    """Stop the CUDA profiler's collection."""
    lazy_init()


@contextlib.contextmanager
def profile():
    """A context collected by the CUDA profiler."""
    start()
    try:
        yield
    finally:
        stop()
