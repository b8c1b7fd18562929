"""torch.utils: helpers around the core (dispatch modes, hooks, checkpointing, data, ...)."""
import importlib as _importlib

# Names of torch's not written yet say so (Note [Names glasstorch does not implement yet]).
from ..aten import torch_names as _torch_names

# Submodules loaded on first use (``torch.utils.data``, ``checkpoint``, ``hooks``):
# `import glasstorch` need not pay for them, and ``torch.utils.data.DataLoader`` still
# works after ``import torch`` (torch binds them at import).
_LAZY_SUBMODULES = frozenset({"data", "checkpoint", "hooks"})
# torch.utils' smaller modules
_LAZY_SUBMODULES |= {"flop_counter", "module_tracker", "weak", "model_zoo", "deterministic",
                     "collect_env", "file_baton", "backcompat", "cpp_extension",
                     # shells (Note [Shell modules] in glasstorch/_shells.py)
                     "hipify", "mobile_optimizer", "bundled_inputs", "model_dump", "viz", "jit",
                     "mkldnn", "cpp_backtrace", "debug_log", "backend_registration",
                     "show_pickle", "throughput_benchmark"}


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise _torch_names.missing_attribute(__name__, name)


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES)
