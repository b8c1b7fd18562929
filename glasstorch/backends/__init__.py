"""torch.backends: the switches of the libraries torch builds on, as a CPU-only torch has them.

Each submodule holds its library's flags (``torch.backends.cudnn.benchmark = True``) and
answers whether the library is there. glasstorch computes with NumPy, so the flags
are kept and read back as torch keeps them, and change no result here.
"""
from __future__ import annotations

import contextlib
import importlib
import sys
import types

_SUBMODULES = ("cpu", "cuda", "cudnn", "cusparselt", "kleidiai", "mha", "miopen", "mkl", "mkldnn",
               "mps", "nnpack", "openmp", "opt_einsum", "quantized", "xnnpack")


def __getattr__(name: str):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'glasstorch.backends' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES))


class FlagModule(types.ModuleType):
    """A backend module whose flags are attributes checked on assignment.

    `_FLAGS` maps each flag to the setter name torch's messages use; a bool flag refuses
    anything else (``set_enabled_cudnn expects a bool, but got int``).
    """

    _FLAGS: dict = {}
    _BOOL_FLAGS: frozenset = frozenset()

    def __setattr__(self, name: str, value) -> None:
        if name in self._BOOL_FLAGS and not isinstance(value, bool):
            raise RuntimeError(f"{self._FLAGS[name]} expects a bool, but got "
                               f"{type(value).__name__}")
        super().__setattr__(name, value)


def install_flags(module_name: str, flags: dict, bool_flags: dict) -> None:
    """Make module `module_name` a `FlagModule` with `flags` (name -> initial value) and
    the bool flags' setter names."""
    module = sys.modules[module_name]
    module.__class__ = type("FlagModule", (FlagModule,), {
        "_FLAGS": bool_flags, "_BOOL_FLAGS": frozenset(bool_flags)})
    for name, value in flags.items():
        setattr(module, name, value)


def flags_context(module_name: str, names: tuple):
    """A `flags(...)` context manager for a module: sets the named flags inside, and
    restores them after."""
    @contextlib.contextmanager
    def flags(**values):
        module = sys.modules[module_name]
        saved = {name: getattr(module, name) for name in values}
        for name, value in values.items():
            setattr(module, name, value)
        try:
            yield
        finally:
            for name, value in saved.items():
                setattr(module, name, value)
    return flags
