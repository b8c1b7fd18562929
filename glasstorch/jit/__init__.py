"""torch.jit, as torch behaves with PYTORCH_JIT=0: every program runs as eager Python.

`script`/`trace` return their argument, the decorators the function, `fork` runs at
once (Note [TorchScript runs eagerly] in _script.py); `save`/`load`/`freeze` refuse
(_serialization.py). The fusion switches below are settings with nothing to fuse.
"""
from __future__ import annotations

import contextlib
import warnings
from typing import Any, Iterator

from ._script import (  # noqa: F401
    Attribute, CompilationUnit, Error, Final, Future, ONNXTracedModule, RecursiveScriptClass,
    RecursiveScriptModule, ScriptFunction, ScriptModule, ScriptWarning, TopLevelTracedModule,
    TracedModule, TracerWarning, TracingCheckError, annotate, deprecated, export, fork, ignore,
    interface, is_scripting, is_tracing, isinstance, script, script_if_tracing, script_method,
    set_module, trace, trace_module, unused, wait)
from . import _serialization, frontend  # noqa: F401  (torch.jit binds its front end)
from ._serialization import (  # noqa: F401
    export_opnames, freeze, jit_module_from_flatbuffer, load, optimize_for_inference, save,
    save_jit_module_to_flatbuffer)

_onednn_fusion = False
_fusion_strategy = [("STATIC", 2), ("DYNAMIC", 10)]


def enable_onednn_fusion(enabled: bool) -> None:
    """Turn oneDNN graph fusion on or off (a setting only: nothing is fused)."""
    global _onednn_fusion
    _onednn_fusion = bool(enabled)


def onednn_fusion_enabled() -> bool:
    """Whether oneDNN graph fusion is on."""
    return _onednn_fusion


def set_fusion_strategy(strategy: list) -> list:
    """Set the fuser's specialisation strategy; returns the previous one."""
    global _fusion_strategy
    deprecated("set_fusion_strategy", "Please use `torch.compile` instead.")
    previous, _fusion_strategy = _fusion_strategy, list(strategy)
    return previous


@contextlib.contextmanager
def optimized_execution(should_optimize: bool) -> Iterator[None]:
    """Run the block with TorchScript's graph optimisations on or off (none here)."""
    yield


@contextlib.contextmanager
def fuser(name: str) -> Iterator[None]:
    """Run the block with the named TorchScript fuser (none fuses here)."""
    yield


class strict_fusion:  # noqa: N801 (torch's name)
    """Assert that a scripted block fuses completely: only meaningful in script mode."""

    def __init__(self) -> None:
        warnings.warn("Only works in script mode", stacklevel=2)

    def __enter__(self) -> "strict_fusion":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        return None


def run_frozen_optimizations(mod: Any, optimize_numerics: bool = True,
                             preserved_methods: list | None = None) -> None:
    """Optimize a frozen scripted module: refused for eager modules, as `freeze` is."""
    _serialization._needs_script_module("run_frozen_optimizations", mod)


def last_executed_optimized_graph() -> None:
    """The graph TorchScript last optimized: none, as nothing is scripted."""
    return None
