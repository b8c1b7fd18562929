"""torch.compiler: the public face of the compiler (torch.compile's entry points).

All of it runs eagerly here (Note [Compiling runs eagerly] in _dynamo/eval_frame.py):
the names exist, take torch's arguments, and answer as an eager run of torch answers.
"""
from __future__ import annotations

from typing import Any, Callable

from .._dynamo import config  # noqa: F401
from .._dynamo import reset  # noqa: F401
from .._dynamo.backends import list_backends  # noqa: F401
from .._dynamo.decorators import (  # noqa: F401
    allow_in_graph, assume_constant_result, disable, is_compiling, set_stance,
    substitute_in_graph)
from .._dynamo.entry import compile, get_default_backend, set_default_backend  # noqa: F401


def is_dynamo_compiling() -> bool:
    """Whether the code is being traced by the compiler's front end: never, here."""
    return False


def is_exporting() -> bool:
    """Whether the code is being traced by torch.export: never, here."""
    return False


def cudagraph_mark_step_begin() -> None:
    """Mark the start of an iteration for CUDA graphs (none exist on a CPU build)."""


def wrap_numpy(fn: Callable) -> Callable:
    """Let `fn` take and return tensors where it takes and returns NumPy arrays."""
    import numpy
    import glasstorch as torch

    def to_array(value):
        return value.numpy() if isinstance(value, torch.Tensor) else value

    def to_tensor(value):
        return torch.from_numpy(value) if isinstance(value, numpy.ndarray) else value

    def wrapped(*args, **kwargs):
        result = fn(*map(to_array, args), **{k: to_array(v) for k, v in kwargs.items()})
        if isinstance(result, (tuple, list)):
            return type(result)(map(to_tensor, result))
        return to_tensor(result)
    return wrapped


def nested_compile_region(fn: Callable | None = None, options: Any = None) -> Any:
    """Mark a region compiled once and reused (a no-op: nothing is compiled)."""
    return fn if fn is not None else (lambda fn: fn)


def set_enable_guard_collectives(enabled: bool) -> bool:
    """Toggle collective guard evaluation; returns the previous setting (always off)."""
    return False


def _guard_filter(guard_entries: list) -> list:
    """torch's guard filters answer per guard; no guard is ever built here."""
    return [False] * len(guard_entries)


keep_portable_guards_unsafe = keep_tensor_guards_unsafe = _guard_filter
skip_guard_on_inbuilt_nn_modules_unsafe = skip_guard_on_all_nn_modules_unsafe = _guard_filter
skip_guard_on_globals_unsafe = skip_all_guards_unsafe = _guard_filter


def save_cache_artifacts() -> None:
    """The compiler's cache as bytes: nothing is compiled, so there is nothing to save."""
    return None


def load_cache_artifacts(serialized_artifacts: bytes) -> None:
    """Load a compiler cache: nothing is compiled here, so it is not needed."""
    return None


def load_compiled_function(file: Any, *, f_globals: Any = None, external_data: Any = None) -> Any:
    """Load an ahead-of-time compiled function: not possible without a compiler."""
    raise RuntimeError("glasstorch does not implement torch.compiler.load_compiled_function: "
                       "it compiles nothing ahead of time")

