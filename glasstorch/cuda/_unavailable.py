"""How a CPU-only torch refuses CUDA, in one place for the torch.cuda modules.

torch.cuda's functions fall into a few families in a build without CUDA: those that
initialise CUDA first raise `_lazy_init`'s AssertionError; those that read a compiled
binding find it missing (an AttributeError naming ``torch._C``); the classes bound to
CUDA objects are "dummy base classes" that refuse to be made; the NVML queries need a
package that is not there. Each family's words are here, once.
"""
from __future__ import annotations

from ..c10.device import NOT_COMPILED as _REFUSALS

NOT_COMPILED = _REFUSALS["cuda"][1]
NVML_MISSING = "nvidia-ml-py does not seem to be installed or it can't be imported."


def lazy_init() -> None:
    """Initialise CUDA: this build has none."""
    raise AssertionError(NOT_COMPILED)


def missing_binding(name: str) -> AttributeError:
    """The error of a compiled CUDA binding a CPU-only build lacks."""
    return AttributeError(f"module 'torch._C' has no attribute '{name}'")


def dummy_class(name: str) -> RuntimeError:
    """The error of making a CUDA object a CPU-only build has only a placeholder for."""
    return RuntimeError(f"Tried to instantiate dummy base class {name}")


def nvml_missing() -> ModuleNotFoundError:
    """The error of an NVML query without nvidia-ml-py (always, here)."""
    return ModuleNotFoundError(NVML_MISSING)


class DummyBase:
    """A class standing for a CUDA object this build cannot make (`CUDAGraph`, ...)."""

    def __init__(self, *args, **kwargs) -> None:
        raise dummy_class(type(self).__name__)
