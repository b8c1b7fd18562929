"""The negative binomial distribution."""
from __future__ import annotations

import glasstorch as torch
import glasstorch.nn.functional as F

from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .probs_or_logits import ProbsOrLogitsParam
from .utils import lazy_property

__all__ = ["NegativeBinomial"]


class NegativeBinomial(ProbsOrLogitsParam, Distribution):
    """A negative binomial distribution: successes of Bernoulli trials of probability
    `probs` before `total_count` failures. Sampled as a gamma-Poisson mixture.

    Args:
        total_count (float or Tensor): the number of failures to stop at (non-negative;
            the distribution is defined for real values).
        probs (Tensor): the probability of success, in [0, 1).
        logits (Tensor): its log-odds (instead of `probs`).
    """
    arg_constraints = {"total_count": constraints.greater_than_eq(0),
                       "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None) -> None:
        total_count, param = self._init_probs_or_logits(probs, logits, total_count)
        self.total_count = total_count.type_as(param)
        super().__init__(param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(NegativeBinomial, batch_shape, _instance, "total_count")

    @property
    def mean(self):
        return self.total_count * torch.exp(self.logits)

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / torch.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self):
        return Gamma(concentration=self.total_count, rate=torch.exp(-self.logits),
                     validate_args=False)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            rate = self._gamma.sample(sample_shape=sample_shape)
            return torch.poisson(rate)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_unnormalized_prob = (self.total_count * F.logsigmoid(-self.logits)
                                 + value * F.logsigmoid(self.logits))
        log_normalization = (-torch.lgamma(self.total_count + value) + torch.lgamma(1.0 + value)
                             + torch.lgamma(self.total_count))
        # a total count and value of 0 is certain: its normaliser is 0, not lgamma(0)
        log_normalization = log_normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return log_unnormalized_prob - log_normalization
