"""torch.overrides: the `__torch_function__` protocol's helpers and TorchFunctionMode.

glasstorch's own functions do not hand their calls to `__torch_function__` (see
glasstorch/autograd/_torch_function.py): the protocol works for Python functions written
against it (``if has_torch_function(args): return handle_torch_function(...)``), and a
TorchFunctionMode intercepts those. The function lists (`get_overridable_functions`,
`get_testing_overrides`) are built from glasstorch's bindings, so they hold what
glasstorch has of torch's, not torch's every entry.
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
from typing import Any, Callable, Optional

from .aten.torch_names import missing_attribute
from .autograd._torch_function import (handle_torch_function, has_torch_function,
                                       is_tensor_like, mode_stack)

__all__ = ["get_ignored_functions", "get_overridable_functions", "get_testing_overrides",
           "handle_torch_function", "has_torch_function", "resolve_name", "is_tensor_like",
           "is_tensor_method_or_property", "wrap_torch_function", "enable_reentrant_dispatch"]

# the namespaces torch's override lists cover, as glasstorch modules
_NAMESPACES = ("glasstorch", "glasstorch.nn.functional", "glasstorch.linalg",
               "glasstorch.special", "glasstorch.fft")


def _modules() -> list:
    """The modules of `_NAMESPACES` that glasstorch has (torch.fft is another issue's)."""
    found = []
    for name in _NAMESPACES:
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError:
            continue
    return found
# functions that take no tensor to dispatch on (factories, predicates, settings)
_IGNORED = ("tensor", "as_tensor", "asarray", "from_numpy", "is_tensor", "is_storage",
            "zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "eye",
            "rand", "randn", "randint", "randperm", "manual_seed", "seed", "initial_seed",
            "get_rng_state", "set_rng_state", "set_default_dtype", "get_default_dtype",
            "set_grad_enabled", "is_grad_enabled", "no_grad", "enable_grad",
            "set_printoptions", "get_num_threads", "set_num_threads", "result_type",
            "promote_types", "can_cast", "save", "load")


def has_torch_function_unary(arg) -> bool:
    """`has_torch_function` of one argument."""
    return has_torch_function((arg,))


def has_torch_function_variadic(*args) -> bool:
    """`has_torch_function` of the arguments given."""
    return has_torch_function(args)


class TorchFunctionMode:
    """A context manager whose ``__torch_function__(func, types, args, kwargs)`` sees
    every call handed to `handle_torch_function` while it is active (innermost first;
    calling `func` inside it goes on to the next)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        mode_stack.modes.append(self)
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        mode_stack.modes.remove(self)


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode that calls each function as it is."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


@functools.lru_cache(None)
def get_ignored_functions() -> set:
    """The functions of torch's namespaces that take no tensor to override on."""
    import glasstorch
    return {getattr(glasstorch, name) for name in _IGNORED if hasattr(glasstorch, name)}


@functools.lru_cache(None)
def get_overridable_functions() -> dict:
    """Namespace -> the functions of it a `__torch_function__` override may receive."""
    import glasstorch
    ignored = get_ignored_functions()
    table = {}
    for module in _modules():
        names = dir(module)
        table[module] = [getattr(module, n) for n in names if not n.startswith("_")
                         and callable(getattr(module, n, None))
                         and not isinstance(getattr(module, n), type)
                         and getattr(module, n) not in ignored]
    table[glasstorch.Tensor] = [value for name, value in vars(glasstorch.Tensor).items()
                                if callable(value) and not name.startswith("_")]
    return table


def get_default_nowrap_functions() -> set:
    """The Tensor attribute getters whose results a subclass's `__torch_function__` returns
    unwrapped: those of ``_base``, ``grad`` and ``_grad``."""
    import glasstorch
    getters = (inspect.getattr_static(glasstorch.Tensor, name, None)
               for name in ("_base", "grad", "_grad"))
    return {getter.__get__ for getter in getters if hasattr(getter, "__get__")}


def get_testing_overrides() -> dict:
    """Overridable function -> a dummy taking any arguments and returning -1 (torch's
    dummies keep each signature; these accept any)."""
    return {function: (lambda *args, **kwargs: -1)
            for functions in get_overridable_functions().values() for function in functions}


def resolve_name(f: Callable) -> Optional[str]:
    """torch's name of `f` (``"torch.add"``, ``"torch.Tensor.add"``), None if it has none."""
    import glasstorch
    name = getattr(f, "__name__", None)
    if name is None:
        return None
    if vars(glasstorch.Tensor).get(name) is f:
        return f"torch.Tensor.{name}"
    for module in _modules():
        if getattr(module, name, None) is f:
            return "torch" + module.__name__[len("glasstorch"):] + f".{name}"
    return None


def is_tensor_method_or_property(func: Callable) -> bool:
    """Whether `func` is a method or property getter of Tensor."""
    import glasstorch
    return func in get_overridable_functions()[glasstorch.Tensor] or \
        getattr(func, "__name__", None) == "__get__"


def wrap_torch_function(dispatcher: Callable) -> Callable:
    """A decorator making a Python function honour `__torch_function__`: `dispatcher`
    takes the function's arguments and returns those to look for overrides in."""
    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant = dispatcher(*args, **kwargs)
            if has_torch_function(relevant):
                return handle_torch_function(wrapped, relevant, *args, **kwargs)
            return func(*args, **kwargs)
        return wrapped
    return decorator


@contextlib.contextmanager
def enable_reentrant_dispatch():
    """A no-op here: glasstorch's dispatch modes are always reentrant."""
    yield


def __getattr__(name: str) -> Any:
    raise missing_attribute(__name__, name)
