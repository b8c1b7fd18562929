"""torch.nn.functional: neural-network operations as functions.

Its functions are the bindings of the operators declared with ``python_module="nn"``
(``linear``; see Note [Namespace modules] in `aten/binding.py`) that torch's module
offers as they are (`_NN_FUNCTIONS`: the others, ``nll_loss_nd`` or ``gelu_``, stay in
torch._C._nn), the Python functions of `_functional/` (one file per topic, imported
below), and the torch functions torch also offers under this name (`_TORCH_FUNCTIONS`).
"""
import sys as _sys

from ..aten import binding as _binding
from ..aten import torch_names as _torch_names
from ._functional.activation import *  # noqa: F401,F403
from ._functional.normalization import *  # noqa: F401,F403
from ._functional.sparse import *  # noqa: F401,F403
from ._functional.dropout import *  # noqa: F401,F403
from ._functional.loss import *  # noqa: F401,F403
from ._functional.loss_margin import *  # noqa: F401,F403
from ._functional.loss_linear import *  # noqa: F401,F403
from ._functional.pooling import *  # noqa: F401,F403
from ._functional.resample import *  # noqa: F401,F403
from ._functional.fold import *  # noqa: F401,F403
from ._functional.grid import *  # noqa: F401,F403
from ._functional.embedding_bag import *  # noqa: F401,F403
# multi-head attention, and the mask helpers torch's transformer layers call through F
from ._functional.attention import *  # noqa: F401,F403
from ._functional.attention import (_canonical_mask, _in_projection,  # noqa: F401
                                    _in_projection_packed, _mha_shape_check, _none_or_dtype)

# torch.nn.functional.bilinear is torch.bilinear, and so on
_TORCH_FUNCTIONS = frozenset({"bilinear", "hardshrink", "prelu", "relu_", "selu_", "celu_",
                              "threshold_", "rrelu_",
                              # convolution
                              "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                              "conv_transpose2d", "conv_transpose3d", "conv_tbc",
                              # pooling
                              "avg_pool1d", "adaptive_avg_pool1d",
                              # resampling and rearranging
                              "pixel_shuffle", "pixel_unshuffle", "channel_shuffle",
                              "native_channel_shuffle",
                              # distances
                              "cosine_similarity", "pairwise_distance", "pdist"})
# torch.nn.functional.gelu is torch._C._nn.gelu, and so on: torch's module re-exports
# these few by hand; the rest of torch._C._nn is reached through Python functions
_NN_FUNCTIONS = frozenset({"avg_pool2d", "avg_pool3d", "elu_", "gelu", "hardtanh_",
                           "leaky_relu_", "linear", "one_hot", "pad",
                           "scaled_dot_product_attention", "softplus", "softshrink"})

_bound = _binding.namespace_getattr(__name__, "nn")


def __getattr__(name: str):
    if name in _TORCH_FUNCTIONS:
        return getattr(_sys.modules["glasstorch"], name)
    if name in _NN_FUNCTIONS:
        return _bound(name)
    raise _torch_names.missing_attribute(__name__, name)


def __dir__():
    built = _NN_FUNCTIONS.intersection(_binding.namespace_names("nn"))
    return sorted(set(globals()) | _TORCH_FUNCTIONS | built)
