"""How torch refuses an MPS call without its MPS backend."""
from __future__ import annotations


def no_backend(function: str) -> RuntimeError:
    """The error of an MPS call without the MPS backend."""
    return RuntimeError(f"Cannot execute {function}() without MPS backend.")
