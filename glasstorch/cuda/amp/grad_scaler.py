"""torch.cuda.amp.grad_scaler: the deprecated CUDA spelling of torch.amp.GradScaler
(it warns; without CUDA, it disables itself)."""
from __future__ import annotations

import warnings

from ... import amp as _amp

__all__ = ["GradScaler"]


class GradScaler(_amp.GradScaler):
    """Deprecated: ``torch.amp.GradScaler('cuda', ...)``."""

    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000,
                 enabled: bool = True) -> None:
        warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                      "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cuda", init_scale=init_scale, growth_factor=growth_factor,
                         backoff_factor=backoff_factor, growth_interval=growth_interval,
                         enabled=enabled)
