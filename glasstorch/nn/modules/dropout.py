"""Dropout layers: Dropout, Dropout1d/2d/3d (whole channels), AlphaDropout and
FeatureAlphaDropout (for SELU networks).

Each drops only in training mode (``module.train()``, the default) and passes its
input through unchanged in ``eval()``; the draws come from the default generator in
torch's order (`nn.functional`'s dropout functions), so a seeded model drops the same
units as under torch.
"""
from __future__ import annotations

from .. import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
           "FeatureAlphaDropout"]


class _DropoutNd(Module):
    """What every dropout layer holds: the probability `p` and the `inplace` switch."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """In training, zero each element with probability `p` and scale the others by
    ``1 / (1 - p)``; in evaluation, return the input.

    Args:
        p: the probability of an element being zeroed. Default: 0.5
        inplace: write the result into the input. Default: False

    Shape:
        - Input: :math:`(*)`, any shape.
        - Output: :math:`(*)`, the input's shape.

    Example::

        >>> torch.manual_seed(0)
        >>> nn.Dropout(p=0.5)(torch.ones(4))
        tensor([0., 0., 2., 0.])
    """

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zero whole channels (``input[n, c]``, a 1-D feature map) with probability `p` in
    training and scale the others by ``1 / (1 - p)``: neighbouring values within a
    channel are correlated, so dropping single elements would regularise little.

    Shape:
        - Input: :math:`(N, C, L)` or :math:`(C, L)`.
        - Output: the input's shape.
    """

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zero whole channels of :math:`(N, C, H, W)` (2-D feature maps) with probability
    `p` in training; scale the others. A 3-D input is taken as :math:`(N, C, L)` and
    dropped channel-wise with a warning (torch's historical behaviour).
    """

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zero whole channels of :math:`(N, C, D, H, W)` or :math:`(C, D, H, W)` (3-D feature
    maps) with probability `p` in training; scale the others."""

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout for self-normalizing (SELU) networks: dropped elements take SELU's
    negative saturation value and the result is scaled and shifted so that a standardized
    input keeps zero mean and unit variance. (`inplace` is stored but, as in torch, not
    used.)

    Example::

        >>> m = nn.AlphaDropout(p=0.2)
        >>> m(torch.randn(20, 16)).shape
        torch.Size([20, 16])
    """

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels (``input[n, c]``): see :class:`AlphaDropout`.

    Shape:
        - Input: :math:`(N, C, *)`.
        - Output: the input's shape.
    """

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)
