"""torch.backends.mkl: whether torch's CPU wheel has it (yes)."""
from __future__ import annotations


def is_available() -> bool:
    """Whether mkl is available: torch's CPU wheel has it."""
    return True
