"""torch.backends.cusparselt: NVIDIA's structured sparsity library, absent here."""
from __future__ import annotations

__all__ = ["version", "is_available", "get_max_alg_id"]


def is_available() -> bool:
    """Whether cuSPARSELt is available: no."""
    return False


def version():
    """cuSPARSELt's version (None: not available)."""
    return None


def get_max_alg_id():
    """The largest cuSPARSELt algorithm id (None: not available)."""
    return None
