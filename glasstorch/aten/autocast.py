"""Autocast: the AutocastCPU dispatch key and the state behind `torch.autocast`.

Note [Autocast as a dispatch key]
Inside ``torch.autocast('cpu')`` the operators torch's CPU autocast lists run in another
dtype (`autocast_policy.py`). As in torch, this is one dispatch key, `AutocastCPU`,
above `Autograd`: its kernel casts the arguments and hands the call on, so autograd
records the casts (`_to_copy`) and the operator on the cast tensors, and backward
flows back through the casts to the float32 weights. The key is thread-local: it is
included while CPU autocast is enabled and never otherwise, so an ordinary call does
not see it at all (`local_keys.plain` stays True). Operators the table does not name
fall through the key; listed ones get `autocast_kernel(policy)`, installed for every
declaration as it is made. While the kernel hands on, the key is excluded, so the
operators a listed composite is written in (`linear` calls `addmm`) are not cast a
second time, as in torch.

The weight cache: a float32 leaf that requires grad (a parameter) cast to the autocast
dtype is cast once per outermost autocast region, and the cast reused while the region
lasts; leaving the outermost region (the nesting count back at 0) empties it.
"""
from __future__ import annotations

import threading

from ..c10 import dtype as dtypes
from ..c10.device import device as Device
from ..c10.dispatch_key import AUTOCAST_CPU, DispatchKey, local_keys
from ..c10.tensor_impl import TensorBase
from .autocast_policy import CPU_POLICY, FP32, LOWER
from .dispatcher import operator_entry
from .registry import DECLARATION_SINKS, DECLARATIONS

# The device types autocast serves, with their default dtypes (hip has a dtype only).
DEFAULT_DTYPES = {"cpu": dtypes.bfloat16, "cuda": dtypes.float16, "ipu": dtypes.float16,
                  "xpu": dtypes.float16, "maia": dtypes.bfloat16, "xla": dtypes.bfloat16,
                  "mps": dtypes.float16, "hpu": dtypes.bfloat16, "mtia": dtypes.float16,
                  "privateuseone": dtypes.float16}
_DTYPE_ONLY = {"hip": dtypes.float16}


class AutocastState(threading.local):
    """Autocast's thread-local state: enabled flags and dtypes by device type, the cache
    switch, the nesting count and the weight cache (id -> (tensor, its cast))."""

    def __init__(self) -> None:
        self.enabled: dict = {}
        self.dtypes = {**DEFAULT_DTYPES, **_DTYPE_ONLY}
        self.cache_enabled = True
        self.nesting = 0
        self.cache: dict = {}


state = AutocastState()


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast serves `device_type` (torch.amp.is_autocast_available)."""
    return Device(device_type).type in DEFAULT_DTYPES


def _served(device_type: str) -> str:
    kind = Device(device_type).type
    if kind not in DEFAULT_DTYPES:
        raise RuntimeError("unknown device type for autocast in "
                           "get_autocast_dispatch_key_from_device_type")
    return kind


def is_enabled(device_type: str) -> bool:
    """Whether autocast is on for `device_type` in this thread."""
    return state.enabled.get(_served(device_type), False)


def set_enabled(device_type: str, enabled: bool) -> None:
    """Turn autocast on or off for `device_type`; for the CPU, include or drop the key."""
    kind = _served(device_type)
    state.enabled[kind] = enabled
    if kind == "cpu":
        _install_kernels()
        included = local_keys.included
        local_keys.set(included | AUTOCAST_CPU if enabled else included & ~AUTOCAST_CPU,
                       local_keys.excluded)


def get_dtype(device_type: str):
    """The lower precision dtype of `device_type` (torch refuses a type with none)."""
    kind = Device(device_type).type
    if kind not in state.dtypes:
        raise RuntimeError("unsupported scalarType")
    return state.dtypes[kind]


def set_dtype(device_type: str, dtype) -> None:
    """Set the lower precision dtype of `device_type` (ignored for a type with none)."""
    kind = Device(device_type).type
    if kind in state.dtypes:
        state.dtypes[kind] = dtype


def increment_nesting() -> int:
    """Count an autocast region entered; returns the depth."""
    state.nesting += 1
    return state.nesting


def decrement_nesting() -> int:
    """Count an autocast region left; returns the depth."""
    state.nesting -= 1
    return state.nesting


def clear_cache() -> None:
    """Forget the weights cast in this thread's autocast regions."""
    state.cache.clear()


# ----------------------------------------------------------------------------------
# The kernel
# ----------------------------------------------------------------------------------
def _eligible(value) -> bool:
    """A tensor autocast may cast: a floating point CPU tensor, float64 excepted."""
    return (isinstance(value, TensorBase) and value._dtype.is_floating_point
            and value._dtype is not dtypes.float64 and value._device.type == "cpu")


def _cast(value, dtype):
    """`value` in `dtype` when autocast may cast it (a list: each tensor); the weight
    cache serves float32 parameters cast to the autocast dtype."""
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, dtype) for v in value)
    if not _eligible(value) or value._dtype is dtype:
        return value
    cacheable = (state.cache_enabled and dtype is state.dtypes["cpu"]
                 and value._dtype is dtypes.float32 and value.requires_grad
                 and value.grad_fn is None and value._base is None)
    if cacheable:
        entry = state.cache.get(id(value))
        if entry is not None and entry[0] is value:
            return entry[1]
    cast = operator_entry("_to_copy", "default")(value, dtype, None, None, None, False, None)
    if cacheable:
        state.cache[id(value)] = (value, cast)
    return cast


def _widest(args: tuple):
    """The promote policy's dtype: the autocast dtype, float32 if any eligible tensor is
    float32; two different lower precision dtypes are refused, as torch refuses them."""
    widest = state.dtypes["cpu"]
    for value in args:
        for tensor in value if isinstance(value, (list, tuple)) else (value,):
            if _eligible(tensor) and tensor._dtype is not widest:
                if dtypes.float32 not in (widest, tensor._dtype):
                    raise RuntimeError("Unexpected floating ScalarType in "
                                       "at::autocast::prioritize")
                widest = dtypes.float32
    return widest


def autocast_kernel(policy: str):
    """The AutocastCPU kernel of the operators with cast `policy` (Note [Autocast as a
    dispatch key]): with the key excluded, cast the arguments and hand on."""
    def autocast(op, keys_below: int, args: tuple):
        local_keys.set(local_keys.included, local_keys.excluded | AUTOCAST_CPU)
        try:
            if policy == LOWER:
                dtype = state.dtypes["cpu"]
            elif policy == FP32:
                dtype = dtypes.float32
            else:
                dtype = _widest(args)
            cast_args = tuple(_cast(value, dtype) for value in args)
            return op.redispatch(keys_below, cast_args)
        finally:
            local_keys.set(local_keys.included, local_keys.excluded & ~AUTOCAST_CPU)
    autocast.__qualname__ = f"autocast_{policy}"
    return autocast


_KERNELS = {policy: autocast_kernel(policy) for policy in set(CPU_POLICY.values())}


def _install_kernels() -> None:
    """Install the AutocastCPU kernels, once: on the operators declared so far, and on
    each declared later (families load on first use)."""
    if install in DECLARATION_SINKS:
        return
    for declaration in list(DECLARATIONS.values()):
        install(declaration)
    DECLARATION_SINKS.append(install)


def install(declaration) -> None:
    """Give the overloads of `declaration` that CPU autocast lists their kernel."""
    for overload in declaration.overloads.values():
        policy = CPU_POLICY.get(overload.name)
        if policy is not None:
            overload.register(DispatchKey.AutocastCPU, _KERNELS[policy])
