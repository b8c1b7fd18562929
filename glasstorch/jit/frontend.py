"""torch.jit.frontend: TorchScript's front end, which turns a function's Python source
into TorchScript's syntax tree for the compiler.

glasstorch runs every program eagerly (as torch under ``PYTORCH_JIT=0``) and has no
TorchScript compiler to feed: the tree builders raise NotImplementedError saying so.
What needs no compiler is here: the front end's error classes and `get_default_args`.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, NoReturn

__all__ = ["FrontendError", "NotSupportedError", "UnsupportedNodeError", "FrontendTypeError",
           "get_default_args", "get_jit_def", "get_jit_class_def", "build_def",
           "build_class_def"]


class FrontendError(Exception):
    """A function's source that TorchScript's front end cannot compile.

    Args:
        source_range: where in the source the problem is.
        msg (str): what the problem is.
    """

    def __init__(self, source_range, msg: str) -> None:
        self.source_range, self.msg = source_range, msg

    def __str__(self) -> str:
        return self.msg


class NotSupportedError(FrontendError):
    """Python that TorchScript does not support."""


class UnsupportedNodeError(NotSupportedError):
    """A Python syntax node that TorchScript does not support."""


class FrontendTypeError(FrontendError):
    """A type annotation TorchScript cannot read."""


def get_default_args(fn: Callable | None) -> dict:
    """The default of each parameter of `fn` that has one (``{}`` for None).

    Example::

        >>> get_default_args(lambda a, b=2, *, c=3: None)
        {'b': 2, 'c': 3}
    """
    if fn is None:
        return {}
    return {name: parameter.default
            for name, parameter in inspect.signature(fn).parameters.items()
            if parameter.default is not inspect.Parameter.empty}


def _builder(name: str) -> Callable:
    def build(*args: Any, **kwargs: Any) -> NoReturn:
        raise NotImplementedError(
            f"glasstorch does not implement torch.jit.frontend.{name}: it builds TorchScript's "
            "syntax tree, and glasstorch runs programs eagerly, without a TorchScript compiler")
    build.__name__ = build.__qualname__ = name
    build.__doc__ = f"torch.jit.frontend.{name}: refused (no TorchScript compiler here)."
    return build


get_jit_def = _builder("get_jit_def")
get_jit_class_def = _builder("get_jit_class_def")
build_def = _builder("build_def")
build_class_def = _builder("build_class_def")
