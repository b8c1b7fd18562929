"""torch.masked: reductions and normalizations that see only the elements a mask selects.

Each function takes a strided tensor and a boolean ``mask`` (broadcastable to it; None
selects everything) and computes as if the masked-out elements were absent: they are
replaced by the operation's identity (0 for sum, 1 for prod, -inf for amax and
logsumexp, ...) before torch's own operator runs (Note [Masked by identity] in
`masking.py`). The results are ordinary strided tensors, and gradients flow through the
operators they are computed with.

torch.masked.MaskedTensor (in `maskedtensor/`) is a tensor carrying its own mask, on
which the operators apply to the present elements.
"""
from ..aten.torch_names import missing_attribute, torch_names
from .normalizations import (cumprod, cumsum, log_softmax, logaddexp, normalize, softmax,
                             softmin)
from .reductions import (amax, amin, argmax, argmin, logsumexp, mean, median, norm, prod,
                         std, sum, var)
from .maskedtensor import MaskedTensor, as_masked_tensor, is_masked_tensor, masked_tensor

__all__ = ["MaskedTensor", "amax", "amin", "argmax", "argmin", "as_masked_tensor", "cumprod",
           "cumsum", "is_masked_tensor", "log_softmax", "logaddexp", "logsumexp",
           "masked_tensor", "mean", "median", "norm", "normalize", "prod", "softmax",
           "softmin", "std", "sum", "var"]


def __getattr__(name: str):
    raise missing_attribute(__name__, name)


def __dir__():
    return sorted(set(globals()) | torch_names("torch.masked"))
