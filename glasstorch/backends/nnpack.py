"""torch.backends.nnpack: NNPACK's switch (torch's CPU wheel has NNPACK), read and set
only through `set_flags` and `flags`, as torch keeps it."""
from __future__ import annotations

import contextlib

__all__ = ["is_available", "flags", "set_flags"]

_ENABLED = [True]


def is_available() -> bool:
    """Whether NNPACK is available (torch's CPU wheel: yes)."""
    return True


def set_flags(_enabled) -> tuple:
    """Turn NNPACK on or off; returns the previous setting."""
    previous = (_ENABLED[0],)
    _ENABLED[0] = _enabled
    return previous


@contextlib.contextmanager
def flags(enabled=False):
    """A context with NNPACK turned on or off (off by default)."""
    previous = set_flags(enabled)
    try:
        yield
    finally:
        set_flags(*previous)
