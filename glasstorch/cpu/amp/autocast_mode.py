"""torch.cpu.amp.autocast_mode: the deprecated CPU spelling of torch.amp.autocast."""
from __future__ import annotations

import warnings

from ... import amp as _amp
from ...c10 import dtype as dtypes

__all__ = ["autocast"]


class autocast(_amp.autocast):
    """Deprecated: ``torch.amp.autocast('cpu', ...)``."""

    def __init__(self, enabled: bool = True, dtype=dtypes.bfloat16,
                 cache_enabled: bool = True) -> None:
        warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
                      "`torch.amp.autocast('cpu', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
