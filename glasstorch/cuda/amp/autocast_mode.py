"""torch.cuda.amp.autocast_mode: the deprecated CUDA spellings of torch.amp's autocast
and custom Function decorators (each warns; without CUDA, autocast disables itself)."""
from __future__ import annotations

import functools
import warnings

from ... import amp as _amp
from ...c10 import dtype as dtypes

__all__ = ["autocast", "custom_fwd", "custom_bwd"]


class autocast(_amp.autocast):
    """Deprecated: ``torch.amp.autocast('cuda', ...)``."""

    def __init__(self, enabled: bool = True, dtype=dtypes.float16,
                 cache_enabled: bool = True) -> None:
        warnings.warn("`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                      "`torch.amp.autocast('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Deprecated: ``torch.amp.custom_fwd(device_type='cuda', ...)``."""
    warnings.warn("`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
                  "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.",
                  FutureWarning, stacklevel=2)
    return functools.partial(_amp.custom_fwd, device_type="cuda")(fwd=fwd,
                                                                  cast_inputs=cast_inputs)


def custom_bwd(bwd):
    """Deprecated: ``torch.amp.custom_bwd(device_type='cuda')``."""
    warnings.warn("`torch.cuda.amp.custom_bwd(args...)` is deprecated. Please use "
                  "`torch.amp.custom_bwd(args..., device_type='cuda')` instead.",
                  FutureWarning, stacklevel=2)
    return functools.partial(_amp.custom_bwd, device_type="cuda")(bwd)
