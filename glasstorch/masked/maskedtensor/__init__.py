"""torch.masked.maskedtensor: the MaskedTensor class and its factories."""
from .core import MaskedTensor, is_masked_tensor
from .creation import as_masked_tensor, masked_tensor
from . import ops  # noqa: F401  (its operator rules join core.RULES)

__all__ = ["MaskedTensor", "as_masked_tensor", "is_masked_tensor", "masked_tensor"]
