"""torch.backends.kleidiai: Arm's KleidiAI kernels, absent from an x86 build."""
from __future__ import annotations


def is_available() -> bool:
    """Whether KleidiAI is available: no."""
    return False
