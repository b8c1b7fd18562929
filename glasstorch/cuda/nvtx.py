"""torch.cuda.nvtx: NVTX ranges for profilers; this build has no NVTX, each call refuses."""
from __future__ import annotations

import contextlib

__all__ = ["range_push", "range_pop", "range_start", "range_end", "mark", "range"]


def _no_nvtx(*args, **kwargs):
    raise RuntimeError("NVTX functions not installed. Are you sure you have a CUDA build?")


def range_push(msg: str):
    """Open a nested NVTX range named `msg`."""
    _no_nvtx()


def range_pop():
    """Close the innermost NVTX range."""
    _no_nvtx()


def range_start(msg: str) -> int:
    """Open an NVTX range that may end on another thread; returns its id."""
    _no_nvtx()


def range_end(range_id: int) -> None:
    """Close the NVTX range `range_start` opened."""
    _no_nvtx()


def mark(msg: str) -> None:
    """Mark an instant in the NVTX timeline."""
    _no_nvtx()


@contextlib.contextmanager
def range(msg: str, *args, **kwargs):
    """A context (or decorator) enclosed in an NVTX range."""
    range_push(msg.format(*args, **kwargs))
    try:
        yield
    finally:
        range_pop()
