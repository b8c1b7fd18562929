"""torch.nn.functional: neural-network operations as functions.

Its functions are the bindings of the operators declared with ``python_module="nn"``
(``linear``; see Note [Namespace modules] in `aten/binding.py`), the Python functions of
`_functional/` (one file per topic, imported below), and the torch functions torch also
offers under this name (`TORCH_FUNCTIONS`).
"""
import sys

from ..aten import binding as _binding
from ._functional.activation import *  # noqa: F401,F403
from ._functional.normalization import *  # noqa: F401,F403
from ._functional.sparse import *  # noqa: F401,F403
from ._functional.dropout import *  # noqa: F401,F403
from ._functional.loss import *  # noqa: F401,F403

# torch.nn.functional.bilinear is torch.bilinear, and so on
TORCH_FUNCTIONS = frozenset({"bilinear", "hardshrink", "prelu", "relu_", "selu_", "celu_",
                             "threshold_"})

_bound = _binding.namespace_getattr(__name__, "nn")


def __getattr__(name: str):
    if name in TORCH_FUNCTIONS:
        return getattr(sys.modules["glasstorch"], name)
    return _bound(name)


def __dir__():
    return sorted(set(globals()) | TORCH_FUNCTIONS | set(_binding.namespace_names("nn")))
