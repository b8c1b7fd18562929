"""torch.backends.openmp: whether torch's CPU wheel has it (yes)."""
from __future__ import annotations


def is_available() -> bool:
    """Whether openmp is available: torch's CPU wheel has it."""
    return True
