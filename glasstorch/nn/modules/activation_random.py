"""The activation that draws random numbers: RReLU (its own file, as activation.py is
full)."""
from __future__ import annotations

import glasstorch as torch

from .. import functional as F
from .activation import _inplace_text
from .module import Module

__all__ = ["RReLU"]


class RReLU(Module):
    """The randomized leaky ReLU: ``x`` above 0, ``a * x`` below. In training each
    element's slope `a` is drawn uniformly from ``[lower, upper)`` (from torch's random
    stream); in eval mode it is ``(lower + upper) / 2``.

    Args:
        lower: the smallest slope (default 1/8).
        upper: the largest slope (default 1/3).
        inplace: write the result into the input.

    Example::

        >>> m = nn.RReLU().eval()
        >>> m(torch.tensor([-3.0, 2.0]))
        tensor([-0.6875,  2.0000])
    """

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
                 inplace: bool = False) -> None:
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"lower={self.lower}, upper={self.upper}{_inplace_text(self.inplace)}"
