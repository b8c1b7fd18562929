"""torch.nn.utils: helpers around a model's parameters and their gradients.

`clip_grad.py` holds gradient clipping (by total norm or by value) and the total norm
itself; `convert_parameters.py` flattens parameters into one vector and back. The rest
loads on first use, but for the older hook-based `weight_norm` and `spectral_norm`:
`parametrize` and `parametrizations` (tensors computed from other tensors: orthogonal,
weight and spectral norm), `prune`, `fusion` (batch norm folded into the layer before it),
`init` (`skip_init`), `memory_format`, `rnn` (packed sequences) and `stateless`
(`functional_call`).
"""
import importlib as _importlib

from .clip_grad import (  # noqa: F401
    clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
# bound now, as torch binds them: `weight_norm` and `spectral_norm` name both a submodule
# and its function, and importing the submodule later must not rebind the name
from .spectral_norm import remove_spectral_norm, spectral_norm  # noqa: F401
from .weight_norm import remove_weight_norm, weight_norm  # noqa: F401

_LAZY_SUBMODULES = frozenset({"parametrize", "parametrizations", "prune", "fusion", "init",
                              "memory_format", "rnn", "stateless"})
# names torch binds here -> the submodule defining them (loaded on first use)
_LAZY_NAMES = {
    "fuse_conv_bn_eval": "fusion", "fuse_conv_bn_weights": "fusion",
    "fuse_linear_bn_eval": "fusion", "fuse_linear_bn_weights": "fusion",
    "skip_init": "init",
    "convert_conv2d_weight_memory_format": "memory_format",
    "convert_conv3d_weight_memory_format": "memory_format",
}


def __getattr__(name: str):
    if name in _LAZY_NAMES:
        module = _importlib.import_module(f"{__name__}.{_LAZY_NAMES[name]}")
        value = getattr(module, name)
        globals()[name] = value
        return value
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES | set(_LAZY_NAMES))
