"""nn.CTCLoss: the connectionist temporal classification loss as a module."""
from __future__ import annotations

import glasstorch as torch

from .. import functional as F
from .loss import _Loss

__all__ = ["CTCLoss"]

Tensor = torch.Tensor


class CTCLoss(_Loss):
    """The connectionist temporal classification loss: the negative log probability of a
    target label sequence summed over every alignment of it to the input steps (labels
    repeated, blanks in between), for sequence models whose inputs and targets are not
    aligned (speech, handwriting).

    Args:
        blank (int): the blank label (default 0).
        reduction (str): 'none' | 'mean' (each loss divided by its target length, then
            averaged over the batch) | 'sum'. Default: 'mean'.
        zero_infinity (bool): infinite losses and their gradients become 0 (default
            False).

    Shape:
        - log_probs: ``(T, N, C)`` or ``(T, C)``, log probabilities.
        - targets: ``(N, S)`` or the 1-D concatenation of the targets.
        - input_lengths, target_lengths: ``(N)`` (or ``()`` unbatched), tensors or
          tuples of ints.

    Example::

        >>> ctc = nn.CTCLoss()
        >>> lp = torch.randn(50, 16, 20).log_softmax(2).detach().requires_grad_()
        >>> targets = torch.randint(1, 20, (16, 30), dtype=torch.long)
        >>> loss = ctc(lp, targets, torch.full((16,), 50), torch.randint(10, 30, (16,)))
        >>> loss.backward()
    """

    __constants__ = ["blank", "reduction"]
    blank: int

    def __init__(self, blank: int = 0, reduction: str = "mean",
                 zero_infinity: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs: Tensor, targets: Tensor, input_lengths: Tensor,
                target_lengths: Tensor) -> Tensor:
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                          self.reduction, self.zero_infinity)
