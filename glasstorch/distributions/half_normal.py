"""The half-normal distribution: |X| for a centred normal X."""
from __future__ import annotations

import math

from . import constraints
from .folded import FoldedAtZero
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = ["HalfNormal"]


class HalfNormal(FoldedAtZero, TransformedDistribution):
    """The distribution of |X| for X ~ Normal(0, scale).

    Args:
        scale (float or Tensor): the scale of the full normal distribution.

    Example::

        >>> m = HalfNormal(torch.tensor([1.0]))
        >>> m.sample()
        tensor([ 0.1046])
    """
    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None) -> None:
        base_dist = Normal(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(HalfNormal, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)
