"""Distributions of |X| for X symmetric about 0 (half-normal, half-Cauchy)."""
from __future__ import annotations

import math

import glasstorch as torch

__all__ = ["FoldedAtZero"]


class FoldedAtZero:
    """Mixin for a `TransformedDistribution` of |X| (an `AbsTransform`) for X symmetric
    about 0 with scale `scale`: folding doubles the density on [0, inf) and halves the
    probability mass below any point, so the density, cdf, icdf and entropy follow
    from the base distribution's."""

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mode(self):
        return torch.zeros_like(self.scale)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._folded_log_prob(value)

    def _folded_log_prob(self, value):
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, log_prob, -torch.inf)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)
