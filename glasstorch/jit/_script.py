"""Scripting and tracing as torch does them under PYTORCH_JIT=0: the eager callable back.

# Note [TorchScript runs eagerly]
#
# torch's environment variable PYTORCH_JIT=0 turns TorchScript off: `script` and `trace`
# return what they were given, the decorators (`ignore`, `unused`, `export`,
# `script_method`) return the function, `annotate` returns the value, and `fork` runs
# its function at once. glasstorch has no TorchScript compiler, so it is always in that
# mode; programs written for scripting run, as eager Python, unchanged. What needs a
# compiled program (saving an archive, freezing) is refused with a clear error.
"""
from __future__ import annotations

import builtins
import inspect
import typing
import warnings
from typing import Any, Callable

import glasstorch as torch
from ..futures import Future

Final = typing.Final

_TO_COMPILE_OR_EXPORT = "Please switch to `torch.compile` or `torch.export`."
_TO_COMPILE = "Please use `torch.compile` instead."


def deprecated(name: str, alternative: str) -> None:
    """Warn as torch 2.13 does on each use of a TorchScript entry point."""
    warnings.warn(f"`torch.jit.{name}` is deprecated. {alternative}", DeprecationWarning,
                  stacklevel=3)


def script(obj: Any, optimize: None = None, _frames_up: int = 0, _rcb: Callable | None = None,
           example_inputs: Any = None) -> Any:
    """Compile `obj` to TorchScript; here (as under PYTORCH_JIT=0) return it unchanged.

    Args:
        obj (Callable or nn.Module): the function, class or module to script.

    Returns:
        `obj` itself: it runs as Python (Note [TorchScript runs eagerly]).

    Example::

        >>> model = torch.nn.Linear(2, 2)
        >>> torch.jit.script(model) is model
        True
    """
    deprecated("script", _TO_COMPILE_OR_EXPORT)
    return obj


def trace(func: Any, example_inputs: Any = None, optimize: None = None, check_trace: bool = True,
          check_inputs: Any = None, check_tolerance: float = 1e-05, strict: bool = True,
          _force_outplace: bool = False, _module_class: Any = None, _compilation_unit: Any = None,
          example_kwarg_inputs: Any = None, _store_inputs: bool = True) -> Any:
    """Record `func` on example inputs; here (as under PYTORCH_JIT=0) return it unchanged."""
    deprecated("trace", _TO_COMPILE_OR_EXPORT)
    return func


def trace_module(mod: Any, inputs: Any, optimize: None = None, check_trace: bool = True,
                 check_inputs: Any = None, check_tolerance: float = 1e-05, strict: bool = True,
                 _force_outplace: bool = False, _module_class: Any = None,
                 _compilation_unit: Any = None, example_inputs_is_kwarg: bool = False,
                 _store_inputs: bool = True) -> Any:
    """Trace methods of `mod`; here (as under PYTORCH_JIT=0) return it unchanged."""
    deprecated("trace_method", _TO_COMPILE_OR_EXPORT)
    return mod


def ignore(drop: Any = False, **kwargs: Any) -> Any:
    """Leave a function to Python when scripting: usable as ``@ignore`` or ``@ignore(drop=...)``."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn: Callable) -> Callable:
    """Mark a method the scripted program never calls; it stays a Python method."""
    return fn


def export(fn: Callable) -> Callable:
    """Mark a method to compile beside forward; it stays a Python method."""
    return fn


script_if_tracing = export


def script_method(fn: Callable) -> Callable:
    """Mark a ScriptModule method to compile; it stays a Python method."""
    deprecated("script_method", _TO_COMPILE_OR_EXPORT)
    return fn


def interface(obj: Any) -> Any:
    """Declare a TorchScript interface type; the class itself serves in Python."""
    deprecated("interface", _TO_COMPILE)
    if not inspect.isclass(obj):
        raise RuntimeError("interface must be applied to a class")
    return obj


def is_scripting() -> bool:
    """Whether the code runs as TorchScript: never, here."""
    return False


def is_tracing() -> bool:
    """Whether the code runs under the tracer: never, here."""
    return False


def annotate(the_type: Any, the_value: Any) -> Any:
    """Give TorchScript the type of `the_value`; in Python, `the_value` itself."""
    return the_value


def Attribute(value: Any, type: Any) -> Any:  # noqa: N802 (torch's name)
    """Declare a ScriptModule attribute's type; in Python, `value` itself."""
    return value


def isinstance(obj: Any, target_type: Any) -> bool:  # noqa: A001 (torch's name)
    """Whether `obj` is of `target_type`, containers checked element by element.

    Example::

        >>> torch.jit.isinstance([1, 2], list[int])
        True
    """
    if target_type in (list, dict, tuple):
        raise RuntimeError(f"Attempted to use {target_type.__name__} without a contained "
                           f"type. Please add a contained type, e.g. {target_type.__name__}[int]")
    return _matches(obj, target_type)


def _matches(obj: Any, target_type: Any) -> bool:
    origin, args = typing.get_origin(target_type), typing.get_args(target_type)
    if origin is None:
        return builtins.isinstance(obj, target_type)
    if origin is typing.Union:
        return any(_matches(obj, arg) for arg in args)
    if not builtins.isinstance(obj, origin):
        return False
    if origin is list:
        return all(_matches(item, args[0]) for item in obj)
    if origin is dict:
        return all(_matches(k, args[0]) and _matches(v, args[1]) for k, v in obj.items())
    if origin is tuple:
        return len(obj) == len(args) and all(map(_matches, obj, args))
    return True


def fork_now(func: Callable, *args: Any, **kwargs: Any) -> Future:
    """`torch.fork`: run `func(*args, **kwargs)`; here at once, its result in a Future."""
    future = Future()
    future.set_result(func(*args, **kwargs))
    return future


def wait_now(future: Future) -> Any:
    """`torch.wait`: the value of a Future from `fork`."""
    return future.wait()


def fork(func: Callable, *args: Any, **kwargs: Any) -> Future:
    """Run `func(*args, **kwargs)` asynchronously; here at once, its result in a Future."""
    deprecated("fork", _TO_COMPILE)
    return fork_now(func, *args, **kwargs)


def wait(future: Future) -> Any:
    """The value of a Future from `fork`."""
    deprecated("wait", _TO_COMPILE)
    return wait_now(future)


class ScriptModule(torch.nn.Module):
    """The type of scripted modules; subclasses run as ordinary modules here."""


class RecursiveScriptModule(ScriptModule):
    """The type of modules `script` compiles recursively (never made here)."""


class TracedModule(ScriptModule):
    """The type of modules `trace` records (never made here: `trace` returns the module)."""


class TopLevelTracedModule(TracedModule):
    """The type of a traced top-level module."""


class ONNXTracedModule(torch.nn.Module):
    """The module wrapper ONNX export traces through (never made here)."""


class RecursiveScriptClass:
    """The type of scripted classes (never made here)."""


class TracerWarning(Warning):
    """Warned when tracing meets Python the tracer cannot record."""


class ScriptWarning(Warning):
    """Warned by TorchScript compilation."""


class TracingCheckError(Exception):
    """Raised when a traced graph disagrees with the Python run it recorded."""


def set_module(obj: Any, mod: str) -> None:
    """Set `obj.__module__` to `mod` (how torch names its public classes)."""
    if not builtins.isinstance(mod, str):
        raise TypeError("The mod argument should be a string")
    obj.__module__ = mod


class ScriptFunction:
    """The type of scripted functions (never made here: `script` returns the function)."""


class CompilationUnit:
    """A namespace of TorchScript functions (empty: nothing is compiled)."""

    def __init__(self, lang: str | None = None, _frames_up: int = 0) -> None:
        self.lang = lang


class Error(Exception):
    """TorchScript's runtime error type."""
