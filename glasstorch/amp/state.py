"""The top-level autocast functions (`torch.is_autocast_enabled`, `torch.set_autocast_dtype`,
...): argument checks and deprecations over the state in aten/autocast.py.

The older per-device names (`torch.is_autocast_cpu_enabled`, `get_autocast_gpu_dtype`,
...) still work and warn, naming the device-type form that replaces them.
"""
from __future__ import annotations

import warnings

from ..aten import autocast as _state
from ..c10 import dtype as dtypes

__all__ = ["is_autocast_enabled", "set_autocast_enabled", "get_autocast_dtype",
           "set_autocast_dtype", "is_autocast_cache_enabled", "set_autocast_cache_enabled",
           "clear_autocast_cache", "autocast_increment_nesting", "autocast_decrement_nesting"]


def _check(function: str, name: str, position: int, value, kind: type, kind_name: str):
    if not isinstance(value, kind):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be "
                        f"{kind_name}, not {type(value).__name__}")


def is_autocast_enabled(device_type: str = "cuda") -> bool:
    """Whether autocast is on for `device_type` in this thread (CUDA when not given).

    Example::

        >>> with torch.autocast('cpu'):
        ...     torch.is_autocast_enabled('cpu')
        True
    """
    _check("is_autocast_enabled", "device_type", 1, device_type, str, "str")
    return _state.is_enabled(device_type)


def set_autocast_enabled(device_type, enabled=None) -> None:
    """Turn autocast on or off for `device_type` (``set_autocast_enabled(flag)``: CUDA)."""
    if enabled is None:
        device_type, enabled = "cuda", device_type
        _check("set_autocast_enabled", "enabled", 1, enabled, bool, "bool")
    else:
        _check("set_autocast_enabled", "device_type", 1, device_type, str, "str")
        _check("set_autocast_enabled", "enabled", 2, enabled, bool, "bool")
    _state.set_enabled(device_type, enabled)


def get_autocast_dtype(device_type: str):
    """The dtype autocast casts to on `device_type` (bfloat16 on the CPU by default)."""
    _check("get_autocast_dtype", "device_type", 1, device_type, str, "str")
    return _state.get_dtype(device_type)


def set_autocast_dtype(device_type: str, dtype) -> None:
    """Set the dtype autocast casts to on `device_type`."""
    _check("set_autocast_dtype", "device_type", 1, device_type, str, "str")
    _check("set_autocast_dtype", "dtype", 2, dtype, dtypes.dtype, "torch.dtype")
    _state.set_dtype(device_type, dtype)


def is_autocast_cache_enabled() -> bool:
    """Whether autocast keeps the casts of weights for the region's length."""
    return _state.state.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Turn autocast's weight cache on or off."""
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be a bool (got {type(enabled).__name__})")
    _state.state.cache_enabled = enabled


def clear_autocast_cache() -> None:
    """Forget the weights autocast cast (done on leaving the outermost region)."""
    _state.clear_cache()


def autocast_increment_nesting() -> int:
    """Count one more autocast region entered; returns the new depth."""
    return _state.increment_nesting()


def autocast_decrement_nesting() -> int:
    """Count one autocast region left; returns the new depth."""
    return _state.decrement_nesting()


def _deprecated(old: str, new: str, function):
    """An older per-device name: warns, then does what `new` does."""
    def call(*args):
        warnings.warn(f"torch.{old} is deprecated. Please use torch.{new} instead.",
                      DeprecationWarning, stacklevel=2)
        return function(*args)
    call.__name__ = call.__qualname__ = old.partition("(")[0]
    call.__doc__ = f"Deprecated: use ``torch.{new}``."
    return call


def _device_functions(device: str, short: str) -> dict:
    return {
        f"is_autocast_{short}_enabled": _deprecated(
            f"is_autocast_{short}_enabled()", f"is_autocast_enabled('{device}')",
            lambda: is_autocast_enabled(device)),
        f"set_autocast_{short}_enabled": _deprecated(
            f"set_autocast_{short}_enabled(enabled)",
            f"set_autocast_enabled('{device}', enabled)",
            lambda enabled: set_autocast_enabled(device, enabled)),
        f"get_autocast_{short}_dtype": _deprecated(
            f"get_autocast_{short}_dtype()", f"get_autocast_dtype('{device}')",
            lambda: get_autocast_dtype(device)),
        f"set_autocast_{short}_dtype": _deprecated(
            f"set_autocast_{short}_dtype(dtype)", f"set_autocast_dtype('{device}', dtype)",
            lambda dtype: set_autocast_dtype(device, dtype)),
    }


# torch.is_autocast_cpu_enabled, torch.get_autocast_gpu_dtype, ... (torch has no
# is/set_autocast_gpu_enabled: the device-less forms serve CUDA)
DEPRECATED = {name: function
              for device, short in (("cpu", "cpu"), ("cuda", "gpu"), ("ipu", "ipu"),
                                    ("xla", "xla"))
              for name, function in _device_functions(device, short).items()
              if not (short == "gpu" and "enabled" in name)}
globals().update(DEPRECATED)
