"""What torch.compile returns: `OptimizedModule` for a module, a wrapper for a function.

# Note [Compiling runs eagerly]
#
# torch.compile traces Python bytecode into graphs and hands them to a backend; with
# backend="eager" the graphs run op by op, exactly as the uncompiled program. glasstorch
# has no tracer: it keeps torch's entry points and their checks (the arguments are
# validated as torch validates them, in compile.py) and returns objects shaped as
# torch's (`_orig_mod`, `_torchdynamo_orig_callable`, state_dict keys prefixed
# "_orig_mod."), whose calls run the original callable directly. A program therefore
# behaves as under backend="eager": same results, same autograd graph, same hooks.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import glasstorch as torch


class CompileSettings:
    """The arguments a compiled callable was made with (torch's `get_compiler_config`)."""

    def __init__(self, backend: Any, mode: str | None, options: dict | None,
                 fullgraph: bool, dynamic: bool | None) -> None:
        self.backend, self.mode, self.options = backend, mode, options
        self.fullgraph, self.dynamic = fullgraph, dynamic

    def __call__(self, fn: Callable) -> Callable:
        """Wrap `fn` as torch's compiled functions are wrapped: same name, same call."""
        @functools.wraps(fn)
        def compiled(*args, **kwargs):
            return fn(*args, **kwargs)
        compiled._torchdynamo_orig_callable = fn
        compiled._torchdynamo_inline = fn
        compiled._is_torch_compile = True
        compiled.get_compiler_config = self.compiler_config
        return compiled

    def compiler_config(self) -> dict | None:
        return self.options


class OptimizedModule(torch.nn.Module):
    """A compiled module: holds the original as `_orig_mod` and forwards to it.

    Reading or setting an attribute reaches the original module (``compiled.weight`` is
    ``module.weight``); its parameters appear under ``_orig_mod.`` in `state_dict`, as
    in torch, so a checkpoint saved from a compiled model loads into a compiled one.
    Calling it runs the original module eagerly (Note [Compiling runs eagerly]).
    """

    # Names the wrapper keeps for itself; every other attribute lives on the original.
    _own_attributes = frozenset({
        "_orig_mod", "dynamo_ctx", "_torchdynamo_orig_callable", "get_compiler_config",
        "forward", "_forward", "__dict__", "_super_module_initialized"})

    def __init__(self, mod: torch.nn.Module, dynamo_ctx: CompileSettings) -> None:
        object.__setattr__(self, "_orig_mod", mod)    # attribute forwarding needs it first
        self._super_module_initialized = False
        super().__init__()
        self._super_module_initialized = True
        self._orig_mod = mod                          # now registered as the submodule
        self.dynamo_ctx = dynamo_ctx
        self.forward = dynamo_ctx(mod.__call__)
        self._torchdynamo_orig_callable = mod.__call__
        self.get_compiler_config = dynamo_ctx.compiler_config

    @property
    def training(self) -> bool:
        return self._orig_mod.training

    @training.setter
    def training(self, value: bool) -> None:
        if self._super_module_initialized:
            self._orig_mod.training = value

    def __getattr__(self, name: str) -> Any:
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        return getattr(self._orig_mod, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(type(self), name) or name in self._own_attributes:
            super().__setattr__(name, value)
        else:
            setattr(self._orig_mod, name, value)

    def __delattr__(self, name: str) -> None:
        if hasattr(type(self), name) or name in self._own_attributes:
            super().__delattr__(name)
        else:
            delattr(self._orig_mod, name)

    def __len__(self) -> int:
        if hasattr(self._orig_mod, "__len__"):
            return len(self._orig_mod)
        raise TypeError(f"{type(self._orig_mod).__name__} does not support len()")

    def __reduce__(self):
        return (type(self), (self._orig_mod, self.dynamo_ctx))

    def __dir__(self) -> list:
        own = self._orig_mod.__dir__()
        return own + [name for name in super().__dir__() if name not in own]
