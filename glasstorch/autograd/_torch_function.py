"""The `__torch_function__` helpers torch.autograd re-exports from torch.overrides.

glasstorch's own functions do not hand calls to `__torch_function__` (Python
functions written against the protocol call these helpers themselves): a class that
defines the method is a tensor-like override, and `handle_torch_function` asks each
such argument's class, in order, until one answers. Inside `DisableTorchFunction`
(or `DisableTorchFunctionSubclass`, the same here: glasstorch has no torch-function
modes for it to leave on) no argument counts as overriding.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Iterable

from ..c10.tensor_impl import tensor_class


# this thread's state: "enabled", "subclass disabled" or "all disabled"
_state = threading.local()


def _torch_function_state() -> str:
    return getattr(_state, "value", "enabled")


class _Disabling:
    """Sets this thread's torch-function state for the `with` block."""

    _STATE = ""

    def __enter__(self) -> None:
        self._previous = _torch_function_state()
        if self._previous != "all disabled":
            _state.value = self._STATE

    def __exit__(self, *exc_info) -> None:
        _state.value = self._previous


class DisableTorchFunction(_Disabling):
    """Context manager: inside it no argument's `__torch_function__` is consulted.

    Example::

        >>> with torch.DisableTorchFunction():
        ...     torch.overrides.has_torch_function((my_tensor_like,))
        False
    """

    __module__ = "torch._C"
    _STATE = "all disabled"


class DisableTorchFunctionSubclass(_Disabling):
    """Context manager: inside it tensor subclasses' `__torch_function__` is not consulted."""

    __module__ = "torch._C"
    _STATE = "subclass disabled"


def _overrides(value) -> bool:
    kind = type(value)
    return _torch_function_state() == "enabled" and kind is not tensor_class() and \
        getattr(kind, "__torch_function__", None) is not None


def is_tensor_like(inp) -> bool:
    """Whether `inp` is a tensor or defines `__torch_function__`."""
    return type(inp) is tensor_class() or hasattr(type(inp), "__torch_function__")


class _ModeStack(threading.local):
    def __init__(self) -> None:
        self.modes: list = []


# the active TorchFunctionModes (torch.overrides), innermost last: `handle_torch_function`
# asks the innermost first, with it popped while it answers
mode_stack = _ModeStack()


def has_torch_function(relevant_args: Iterable) -> bool:
    """Whether a TorchFunctionMode is active or any of `relevant_args` overrides
    `__torch_function__`."""
    return bool(mode_stack.modes) or any(_overrides(value) for value in relevant_args)


def handle_torch_function(public_api: Callable, relevant_args: Iterable, *args,
                          **kwargs) -> Any:
    """Call `public_api` through the `__torch_function__` of the overriding arguments.

    Args:
        public_api: the function being called.
        relevant_args: the arguments to look for overrides in.
        args, kwargs: the call's arguments.

    Returns:
        The first answer that is not ``NotImplemented``: the innermost active
        TorchFunctionMode's, then each overriding argument's.

    Raises:
        TypeError: when every override answers ``NotImplemented``.
    """
    overloaded, seen = [], set()
    for value in relevant_args:
        if _overrides(value) and type(value) not in seen:
            seen.add(type(value))
            overloaded.append(value)
    types = tuple(type(value) for value in overloaded)
    if mode_stack.modes:
        mode = mode_stack.modes.pop()
        try:
            result = mode.__torch_function__(public_api, types, args, kwargs)
        finally:
            mode_stack.modes.append(mode)
        if result is not NotImplemented:
            return result
    for value in overloaded:
        result = type(value).__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    name = f"{public_api.__module__}.{public_api.__name__}"
    raise TypeError(f"no implementation found for '{name}' on types that implement "
                    f"__torch_function__: {list(types)}")
