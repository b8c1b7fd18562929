"""torch.utils: helpers around the core (dispatch modes for now)."""
import importlib as _importlib

# Submodules loaded on first use (``torch.utils.data``): `import glasstorch` need not
# pay for them, and ``torch.utils.data.DataLoader`` still works after ``import torch``.
_LAZY_SUBMODULES = frozenset({"data"})


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES)
