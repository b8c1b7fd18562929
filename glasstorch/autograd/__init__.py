"""`torch.autograd`: reverse-mode automatic differentiation.

The parts, in the order a gradient meets them:

- `recording.py`: the Autograd dispatch key's kernels record a `Node` per operator call
  on tensors that require grad (its type made from the declaration's formulas by
  `formulas.py`; long formulas are helpers beside their operators), by the plans,
  edges and nodes of `recording_plan.py`;
- `graph.py`: nodes, edges, `AccumulateGrad` at the leaves, hooks;
- `saved.py`: what nodes keep for backward, checked against in-place changes;
- `engine.py`: runs the graph backwards;
- `grad_mode.py`: `no_grad` and friends, which exclude the Autograd key;
- `gradients.py`: `backward` and `grad`, the entry points.

This package sits under the Tensor face: it reaches operators through aten, and installs
itself there (`install` for each declaration, the Inference key's fallback). Only
`functional.py`, a tool written in the whole torch namespace, sits above the face.
"""
from __future__ import annotations

import importlib as _importlib

from ..aten import registry, torch_names as _torch_names
from ..aten.dispatcher import register_fallback
from ..aten.registry import DECLARATION_SINKS
from ..c10.dispatch_key import DispatchKey
from ..c10.tensor_impl import set_view_grad_fn
from . import anomaly_mode, forward_ad, graph  # noqa: F401
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: F401
from .gradients import backward, grad  # noqa: F401
from .inference_mode import inference_fallback
from .inference_mode import inference_mode, is_inference_mode_enabled  # noqa: F401
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
from .grad_mode import (enforce_grad_layout_policy, is_multithreading_enabled,  # noqa: F401
                        is_view_replay_enabled, set_multithreading_enabled)
from .recording import install
from .saved import SavedTensor, saved_tensors_hooks  # noqa: F401
from .views import note_views, view_grad_fn
# the module torch.autograd.variable holds Variable; the package's `variable` is the
# deprecated function (bound after the module, which importing binds under that name)
from .variable import Variable, variable  # noqa: F401,E402

__all__ = ["Variable", "Function", "backward", "grad_mode", "NestedIOFunction", "detect_anomaly",
           "enable_grad", "grad", "gradcheck", "gradgradcheck", "inference_mode", "no_grad",
           "set_detect_anomaly", "set_grad_enabled", "set_multithreading_enabled",
           "enforce_grad_layout_policy", "variable"]

set_view_grad_fn(view_grad_fn)
register_fallback(DispatchKey.Inference, inference_fallback)
registry.note_view_creation = note_views
# no operator is declared before autograd arrives (families load on first use); one that
# were would go without autograd's kernels, so that is refused here, at import
assert not registry.DECLARATIONS, "operators declared before autograd was installed"
DECLARATION_SINKS.append(install)

# Custom functions (`Function`, in function.py), `torch.autograd.functional` and the
# profiler come on first use: recording operators needs none of them, so `import
# glasstorch` does not compile them (and functional.py, written in the torch namespace,
# stays above it).
_LAZY_SUBMODULES = frozenset({"function", "functional", "profiler", "profiler_util",
                              "profiler_legacy"})
_LAZY_NAMES = {     # name -> the module of this package that defines it
    **dict.fromkeys(("Function", "FunctionCtx", "once_differentiable", "NestedIOFunction"),
                    "function"),
    **dict.fromkeys(("DeviceType", "ProfilerActivity", "ProfilerConfig", "ProfilerEvent",
                     "ProfilerState", "kineto_available"), "profiler"),
    **dict.fromkeys(("handle_torch_function", "has_torch_function", "is_tensor_like"),
                    "_torch_function"),
}


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    if name not in _LAZY_NAMES:
        raise _torch_names.missing_attribute(__name__, name)
    value = getattr(_importlib.import_module(f"{__name__}.{_LAZY_NAMES[name]}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES | set(_LAZY_NAMES))
