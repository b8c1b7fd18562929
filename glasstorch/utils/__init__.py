"""torch.utils: helpers around the core (dispatch modes, hooks, checkpointing, ...)."""
import importlib as _importlib

# torch.utils.<name> found on first use (torch binds these at `import torch`)
_LAZY_SUBMODULES = frozenset({"checkpoint", "hooks"})


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
