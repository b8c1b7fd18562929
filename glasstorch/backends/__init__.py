"""torch.backends: the switches of the libraries torch builds on, as a CPU-only torch has them.

Each submodule holds its library's flags (``torch.backends.cudnn.benchmark = True``) and
answers whether the library is there. glasstorch computes with NumPy, so the flags
are kept and read back as torch keeps them, and change no result here.
"""
from __future__ import annotations

import importlib
import sys
import types

_SUBMODULES = ("cpu", "cuda", "cudnn", "cusparselt", "kleidiai", "mha", "miopen", "mkl", "mkldnn",
               "mps", "nnpack", "openmp", "opt_einsum", "python_native", "quantized", "xnnpack")


def __getattr__(name: str):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'glasstorch.backends' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES))


_GLOBAL_FLAGS = {"mutable": True}


def disable_global_flags() -> None:
    """Forbid setting cuDNN's and oneDNN's flags by assignment from now on: only their
    `flags()` contexts (and `set_flags`) may change them."""
    _GLOBAL_FLAGS["mutable"] = False


def flags_frozen() -> bool:
    """Whether `disable_global_flags` was called."""
    return not _GLOBAL_FLAGS["mutable"]


class FlagModule(types.ModuleType):
    """A backend module whose flags are attributes checked on assignment.

    `_FLAGS` maps each checked flag to the setter name torch's messages use: it must be
    a bool (``set_enabled_cudnn expects a bool, but got int``), and once
    `disable_global_flags` is called it may change only through `set_flags`/`flags()`.
    """

    _FLAGS: dict = {}

    def __setattr__(self, name: str, value) -> None:
        if name in self._FLAGS and flags_frozen():
            raise RuntimeError(f"not allowed to set {self.__name__.replace('glasstorch', 'torch')} "
                               f"flags after disable_global_flags; please use flags() context "
                               f"manager instead")
        self.set_flag(name, value)

    def set_flag(self, name: str, value) -> None:
        """Set a flag, checking its type but not the freeze (what `set_flags` uses)."""
        if name in self._FLAGS and not isinstance(value, bool):
            raise RuntimeError(f"{self._FLAGS[name]} expects a bool, but got "
                               f"{type(value).__name__}")
        super().__setattr__(name, value)


def install_flags(module_name: str, flags: dict, bool_flags: dict) -> None:
    """Make module `module_name` a `FlagModule` with `flags` (name -> initial value) and
    the bool flags' setter names."""
    module = sys.modules[module_name]
    module.__class__ = type("FlagModule", (FlagModule,), {"_FLAGS": bool_flags})
    for name, value in flags.items():
        module.set_flag(name, value)
