"""The half-Cauchy distribution: |X| for a centred Cauchy X."""
from __future__ import annotations

import math

import glasstorch as torch

from . import constraints
from .cauchy import Cauchy
from .folded import FoldedAtZero
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = ["HalfCauchy"]


class HalfCauchy(FoldedAtZero, TransformedDistribution):
    """The distribution of |X| for X ~ Cauchy(0, scale).

    Args:
        scale (float or Tensor): the scale of the full Cauchy distribution.

    Example::

        >>> m = HalfCauchy(torch.tensor([1.0]))
        >>> m.sample()
        tensor([ 2.3214])
    """
    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None) -> None:
        base_dist = Cauchy(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(HalfCauchy, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        return torch.full(self._extended_shape(), math.inf, dtype=self.scale.dtype,
                          device=self.scale.device)

    @property
    def variance(self):
        return self.base_dist.variance

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = torch.as_tensor(value, dtype=self.base_dist.scale.dtype,
                                device=self.base_dist.scale.device)
        return self._folded_log_prob(value)
