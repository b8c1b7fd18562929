"""torch.signal: signal processing; `torch.signal.windows` holds its window functions."""
from . import windows

__all__ = ["windows"]
