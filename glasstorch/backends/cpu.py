"""torch.backends.cpu: what the CPU offers."""
from __future__ import annotations

__all__ = ["get_cpu_capability"]


def get_cpu_capability() -> str:
    """The widest vector instruction set torch's kernels would use here; glasstorch's
    NumPy picks its own, so this answers torch's CPU wheel's baseline."""
    return "DEFAULT"
