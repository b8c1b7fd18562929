"""The compiler's decorators and markers: accepted, and without effect on an eager run.

Each one tells torch's tracer how to treat a function or a tensor's dimension; with no
tracer (Note [Compiling runs eagerly]) the function runs as written and the tensor is
left as it is, which is what torch's eager execution of the same program does.
"""
from __future__ import annotations

import contextlib
from typing import Any, Callable

from . import backends
from .entry import compile


def _identity_decorator(fn: Callable | None = None, **ignored: Any) -> Any:
    """Return `fn` unchanged, or a decorator that does (when called with options only)."""
    if fn is None:
        return lambda fn: fn
    return fn


def disable(fn: Callable | None = None, recursive: bool = True, *, reason: str | None = None,
            wrapping: bool = True) -> Any:
    """Keep `fn` out of compilation: it runs eagerly, as everything does here."""
    return _identity_decorator(fn)


allow_in_graph = disallow_in_graph = forbid_in_graph = assume_constant_result = disable
nonstrict_trace = dont_skip_tracing = disable


def substitute_in_graph(original_fn: Callable, *, can_constant_fold_through: bool = False,
                        skip_signature_check: bool = False) -> Callable:
    """Register a traceable stand-in for `original_fn`; the stand-in is returned as is."""
    return lambda fn: fn


def mark_dynamic(t: Any, index: Any, *, min: int | None = None, max: int | None = None,
                 specialize_on: Any = None) -> None:
    """Mark a dimension of `t` as dynamic for the tracer (nothing to do eagerly)."""


def maybe_mark_dynamic(t: Any, index: Any) -> None:
    """Hint that a dimension of `t` may be dynamic (nothing to do eagerly)."""


def mark_static(t: Any, index: Any = None) -> None:
    """Mark a dimension of `t` as static for the tracer (nothing to do eagerly)."""


def mark_static_address(t: Any, guard: bool = False) -> None:
    """Mark `t`'s storage address as fixed for the tracer (nothing to do eagerly)."""


def graph_break(msg: str = "") -> None:
    """End the traced graph here (there is none: a no-op)."""


def is_compiling() -> bool:
    """Whether the code runs under the compiler's tracer: never, here."""
    return False


def set_stance(stance: str = "default", *, skip_guard_eval_unsafe: bool = False,
               force_backend: Any = None) -> contextlib.AbstractContextManager:
    """Set how compiled functions behave ("default", "force_eager", ...): all run eagerly.

    Usable as a call, a context manager or a decorator, as torch's is.
    """
    return contextlib.nullcontext()


def optimize(backend: Any = "inductor", *, nopython: bool = False, dynamic: Any = None,
             disable: bool = False, **ignored: Any) -> Callable:
    """The older spelling of torch.compile's decorator form."""
    return compile(backend=backend, fullgraph=nopython, dynamic=dynamic, disable=disable)


def lookup_backend(compiler_fn: Any) -> Any:
    """The backend named `compiler_fn` (a callable is its own backend)."""
    backends.check_backend(compiler_fn)
    return compiler_fn


def register_backend(compiler_fn: Callable | None = None, name: str | None = None,
                     tags: tuple = ()) -> Any:
    """Register a callable backend under `name` (its own name by default)."""
    if compiler_fn is None:
        return lambda fn: register_backend(fn, name, tags)
    backends.REGISTERED[name or compiler_fn.__name__] = tuple(tags)
    return compiler_fn
