"""What needs a compiled TorchScript program: saving and loading archives, freezing.

glasstorch never compiles (Note [TorchScript runs eagerly]), so these refuse: with
torch's type and message where torch, under PYTORCH_JIT=0, refuses the same call, and
with a sentence naming the eager alternative where torch would read an archive.
"""
from __future__ import annotations

import os
from typing import Any

from ._script import ScriptModule, deprecated

_TO_EXPORT = "Please switch to `torch.export`."
_TO_COMPILE = "Please use `torch.compile` instead."

_NO_ARCHIVES = ("glasstorch runs TorchScript eagerly (as PYTORCH_JIT=0) and has no "
                "TorchScript archives: save the state_dict with torch.save and load it "
                "into the module")


def save(m: Any, f: Any, _extra_files: Any = None) -> None:
    """Save a scripted module's archive: refused, as a module here is never scripted.

    Raises:
        AttributeError: as torch under PYTORCH_JIT=0, whose modules have no ``save``.
    """
    deprecated("save", _TO_EXPORT)
    raise AttributeError(f"'{type(m).__name__}' object has no attribute 'save' ({_NO_ARCHIVES})")


def load(f: Any, map_location: Any = None, _extra_files: Any = None,
         _restore_shapes: bool = False) -> Any:
    """Load a TorchScript archive: refused (a missing file is reported first, as torch does).

    Raises:
        ValueError: `f` names no file.
        RuntimeError: otherwise; glasstorch cannot run a TorchScript program.
    """
    deprecated("load", _TO_EXPORT)
    if isinstance(f, (str, os.PathLike)) and not os.path.exists(f):
        raise ValueError(f"The provided filename {f} does not exist")
    if isinstance(f, (str, os.PathLike)) and os.path.isdir(f):
        raise ValueError(f"The provided filename {f} is a directory")
    raise RuntimeError(f"torch.jit.load: {_NO_ARCHIVES}")


def _needs_script_module(what: str, mod: Any) -> None:
    if not isinstance(mod, ScriptModule):
        raise RuntimeError(f"{what} expects a ScriptModule as input. Please use "
                           "torch.jit.script or torch.jit.trace to script your 'nn.Module'.")


def freeze(mod: Any, preserved_attrs: list | None = None, optimize_numerics: bool = True) -> Any:
    """Inline a scripted module's parameters as constants: refused for eager modules."""
    deprecated("freeze", _TO_COMPILE)
    _needs_script_module("Freezing", mod)
    return mod


def optimize_for_inference(mod: Any, other_methods: list | None = None) -> Any:
    """Freeze and optimize a scripted module: refused for eager modules."""
    deprecated("optimize_for_inference", _TO_COMPILE)
    _needs_script_module("optimize_for_inference", mod)
    return mod


def export_opnames(m: Any) -> list:
    """The operator names a scripted module uses: refused, as torch refuses eager modules."""
    raise AttributeError(f"'{type(m).__name__}' object has no attribute '_c'")


def save_jit_module_to_flatbuffer(m: Any, f: Any, _extra_files: Any = None) -> None:
    """Save a scripted module as a flatbuffer: refused, as `save` is."""
    raise AttributeError(f"'{type(m).__name__}' object has no attribute '_c' ({_NO_ARCHIVES})")


def jit_module_from_flatbuffer(f: Any) -> Any:
    """Load a flatbuffer TorchScript module: refused, as `load` is."""
    raise RuntimeError(f"torch.jit.jit_module_from_flatbuffer: {_NO_ARCHIVES}")
