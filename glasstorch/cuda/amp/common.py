"""torch.cuda.amp.common: whether CUDA mixed precision can run at all."""
from __future__ import annotations

__all__ = ["amp_definitely_not_available"]


def amp_definitely_not_available() -> bool:
    """Whether CUDA autocast surely cannot run: True, without CUDA."""
    return True
