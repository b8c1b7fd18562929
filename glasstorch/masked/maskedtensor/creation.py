"""The MaskedTensor factories, as torch.tensor and torch.as_tensor are for tensors."""
from __future__ import annotations

from .core import MaskedTensor

__all__ = ["as_masked_tensor", "masked_tensor"]


def masked_tensor(data, mask, requires_grad: bool = False) -> MaskedTensor:
    """A MaskedTensor over copies of `data` and `mask`: a leaf, as `torch.tensor` makes.

    Example::

        >>> torch.masked.masked_tensor(torch.tensor([1., 2.]), torch.tensor([True, False]))
        MaskedTensor(
          [  1.0000,       --]
        )
    """
    return MaskedTensor(data, mask, requires_grad)


def as_masked_tensor(data, mask) -> MaskedTensor:
    """A MaskedTensor over `data` and `mask` that keeps `data`'s autograd graph, as
    `torch.as_tensor` does: gradients reach `data` through it.

    Example::

        >>> x = torch.tensor([1., 2.], requires_grad=True)
        >>> torch.masked.as_masked_tensor(x, torch.tensor([True, False])).requires_grad
        True
    """
    return MaskedTensor._from_values(data, mask)
