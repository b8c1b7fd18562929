"""torch.cpu.amp: the deprecated CPU spellings of torch.amp (each warns, then works)."""
from .autocast_mode import autocast
from .grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler"]
