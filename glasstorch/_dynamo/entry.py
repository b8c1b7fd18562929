"""torch.compile: check the arguments as torch does, then wrap without compiling.

The checks come in torch's order (mode and options, the backend's name, `dynamic`, the
callable), so a program that torch refuses is refused here with the same message; what
torch accepts gets the objects of eval_frame.py (Note [Compiling runs eagerly]).
"""
from __future__ import annotations

from typing import Any, Callable

import glasstorch as torch
from . import backends
from .eval_frame import CompileSettings, OptimizedModule

_default_backend = "inductor"


def compile(model: Callable | None = None, *, fullgraph: bool = False,
            dynamic: bool | None = None, backend: str | Callable | None = None,
            mode: str | None = None, options: dict | None = None, name: str | None = None,
            disable: bool = False, recompile_limit: int | None = None,
            isolate_recompiles: bool = False, shapes_spec: Any = None) -> Callable:
    """Optimize a module or function for speed; here, return it wrapped to run eagerly.

    Called with a module, returns an `OptimizedModule` holding it as ``_orig_mod``;
    with a function, a function of the same name; with no model, a decorator. Every
    backend runs as torch's ``backend="eager"`` does: same results, same gradients.

    Args:
        model (Callable, optional): the module or function. Default: ``None`` (decorator).
        fullgraph (bool): ask for a single graph (accepted; nothing is traced).
        dynamic (bool, optional): dynamic-shape tracing: ``True``, ``False`` or ``None``.
        backend (str or Callable, optional): a name from ``torch._dynamo.list_backends()``
            or a callable. Default: ``"inductor"``.
        mode (str, optional): an inductor mode such as ``"reduce-overhead"``.
        options (dict, optional): inductor options; not together with `mode`.
        disable (bool): return `model` itself. Default: ``False``

    Returns:
        the wrapped callable, or a decorator when `model` is ``None``.

    Example::

        >>> model = torch.compile(torch.nn.Linear(2, 3))
        >>> list(model.state_dict())
        ['_orig_mod.weight', '_orig_mod.bias']
    """
    backend = _default_backend if backend is None else backend
    settings = dict(fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                    options=options, name=name, disable=disable,
                    recompile_limit=recompile_limit, isolate_recompiles=isolate_recompiles,
                    shapes_spec=shapes_spec)
    if model is None:
        def decorate(model: Callable) -> Callable:
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(model, **settings)
        return decorate
    _check(model, backend, mode, options, dynamic, disable)
    if disable:
        return model
    wrapper = CompileSettings(backend, mode, options, fullgraph, dynamic)
    if isinstance(model, torch.nn.Module):
        return OptimizedModule(model, wrapper)
    return wrapper(model)


def _check(model: Any, backend: Any, mode: Any, options: Any, dynamic: Any,
           disable: bool) -> None:
    """torch.compile's refusals, in the order torch meets them."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if backend == "inductor":
        backends.check_inductor(mode or "default", options)
    backends.check_backend(backend)
    if not disable and dynamic is not None and not isinstance(dynamic, bool):
        raise AssertionError(f"Expected enable to be a bool, got {type(dynamic)}")
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")


def get_default_backend() -> str:
    """The backend torch.compile uses when none is named."""
    return _default_backend


def set_default_backend(backend: str) -> None:
    """Name the backend torch.compile uses when none is named."""
    global _default_backend
    backends.check_backend(backend)
    _default_backend = backend
