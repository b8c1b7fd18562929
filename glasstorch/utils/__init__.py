"""torch.utils: helpers around the core (dispatch modes for now)."""
import importlib as _importlib

# Names of torch's not written yet say so (Note [Names glasstorch does not implement yet]).
from ..aten import torch_names as _torch_names

# Submodules loaded on first use (``torch.utils.data``): `import glasstorch` need not
# pay for them, and ``torch.utils.data.DataLoader`` still works after ``import torch``.
_LAZY_SUBMODULES = frozenset({"data"})


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise _torch_names.missing_attribute(__name__, name)


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES)
