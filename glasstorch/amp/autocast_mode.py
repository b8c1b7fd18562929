"""`torch.autocast`: a region where listed operators run in a lower precision dtype.

The class only saves, sets and restores the thread's autocast state; the casting is the
AutocastCPU dispatch key's (Note [Autocast as a dispatch key] in aten/autocast.py).
"""
from __future__ import annotations

import functools
import warnings

from ..aten.autocast import is_autocast_available
from ..c10 import dtype as dtypes
from . import state

__all__ = ["autocast_decorator", "autocast", "is_autocast_available", "custom_fwd",
           "custom_bwd"]

_CPU_DTYPES = (dtypes.bfloat16, dtypes.float16)


def autocast_decorator(autocast_instance, func):
    """`func` run inside `autocast_instance` at every call."""
    @functools.wraps(func)
    def decorate_autocast(*args, **kwargs):
        with autocast_instance:
            return func(*args, **kwargs)
    return decorate_autocast


class autocast:
    """A context manager (or decorator) running the operators autocast lists in a lower
    precision dtype: on the CPU, matrix products and convolutions in bfloat16 (or
    float16), losses and decompositions in float32.

    Args:
        device_type (str): the device type, ``'cpu'`` here (``'cuda'`` disables itself
            with a warning: this build has no CUDA).
        dtype (torch.dtype, optional): the lower precision dtype (the device's default,
            bfloat16 on the CPU, when None).
        enabled (bool): whether autocast is on inside the region.
        cache_enabled (bool, optional): whether weights are cast once per region.

    Example::

        >>> with torch.autocast('cpu', dtype=torch.bfloat16):
        ...     y = torch.mm(torch.ones(2, 3), torch.ones(3, 2))
        >>> y.dtype
        torch.bfloat16
    """

    def __init__(self, device_type: str, dtype=None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = state.get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(device_type):
            raise RuntimeError(f"User specified an unsupported autocast device_type "
                               f"'{device_type}'")
        self._cache_enabled = state.is_autocast_cache_enabled()
        if cache_enabled is not None:
            self._cache_enabled = cache_enabled
        self._enabled = enabled and self._supported()

    def _supported(self) -> bool:
        """Whether this device type and dtype can autocast here; warns when not."""
        if self.device == "cpu" and self.fast_dtype not in _CPU_DTYPES:
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                          "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                          "torch.float16 currently.", stacklevel=3)
            return False
        if self.device == "cuda":
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.",
                          stacklevel=3)
            return False
        return True

    def __enter__(self) -> "autocast":
        self.prev_cache_enabled = state.is_autocast_cache_enabled()
        self.prev = state.is_autocast_enabled(self.device)
        self.prev_fastdtype = state.get_autocast_dtype(self.device)
        state.set_autocast_enabled(self.device, self._enabled)
        state.set_autocast_dtype(self.device, self.fast_dtype)
        state.autocast_increment_nesting()
        state.set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, *exc) -> bool:
        if state.autocast_decrement_nesting() == 0:
            state.clear_autocast_cache()
        state.set_autocast_enabled(self.device, self.prev)
        state.set_autocast_dtype(self.device, self.prev_fastdtype)
        state.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        return autocast_decorator(self, func)


def _cast(value, device_type: str, dtype):
    """Floating point tensors of `device_type` inside `value` (nested containers too)
    cast to `dtype`."""
    from .._tensor import Tensor
    if isinstance(value, Tensor):
        eligible = value.is_floating_point() and value.device.type == device_type \
            and value.dtype is not dtypes.float64
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, dict):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, device_type, dtype) for v in value)
    return value


def custom_fwd(fwd=None, *, device_type: str, cast_inputs=None):
    """Decorate a custom Function's `forward` for autocast: with `cast_inputs`, it runs
    with autocast off and its floating point inputs cast to that dtype (when autocast is
    on); without, it runs under the autocast state of its caller, which `custom_bwd`
    gives back to `backward`.

    Args:
        device_type (str): the device type autocast is asked about.
        cast_inputs (torch.dtype, optional): the dtype to run `forward` in.
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = state.get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = state.is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = state.is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast(args, device_type, cast_inputs),
                           **_cast(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)
    return decorate_fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorate a custom Function's `backward` to run under the autocast state its
    `forward` (decorated by `custom_fwd`) ran under.

    Args:
        device_type (str): the device type autocast is asked about.
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast,
                      dtype=args[0]._dtype):
            return bwd(*args, **kwargs)
    return decorate_bwd
