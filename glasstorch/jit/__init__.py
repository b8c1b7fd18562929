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
    Attribute, CompilationUnit, Error, Final, Future, RecursiveScriptModule, ScriptFunction,
    ScriptModule, annotate, export, fork, ignore, interface, is_scripting, is_tracing,
    deprecated, isinstance, script, script_if_tracing, script_method, trace, trace_module, unused, wait)
from ._serialization import (  # noqa: F401
    export_opnames, freeze, load, optimize_for_inference, save)

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


def last_executed_optimized_graph() -> None:
    """The graph TorchScript last optimized: none, as nothing is scripted."""
    return None
