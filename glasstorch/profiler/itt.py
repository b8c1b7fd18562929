"""`torch.profiler.itt`: Intel ITT annotations. Nothing here listens for them, so each
call does nothing, as it would with VTune not attached."""
from __future__ import annotations

import contextlib
from typing import Iterator

__all__ = ["is_available", "range_push", "range_pop", "mark", "range"]


def is_available() -> bool:
    """Whether ITT calls are accepted (they are, and go nowhere)."""
    return True


def range_push(msg: str) -> None:
    """Open a range named `msg`."""


def range_pop() -> None:
    """Close the innermost open range."""


def mark(msg: str) -> None:
    """Mark an instant named `msg`."""


@contextlib.contextmanager
def range(msg: str, *args, **kwargs) -> Iterator[None]:
    """A range named `msg` (formatted with `args`, `kwargs`) around a block."""
    range_push(msg.format(*args, **kwargs))
    try:
        yield
    finally:
        range_pop()
