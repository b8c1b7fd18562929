"""The binomial distribution."""
from __future__ import annotations

import glasstorch as torch

from . import constraints
from .distribution import Distribution
from .probs_or_logits import ProbsOrLogitsParam
from .utils import _enumerate_values

__all__ = ["Binomial"]


def _clamp_by_zero(x):
    """max(x, 0), with gradient 1/2 at 0 (as torch's, so the gradients agree)."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(ProbsOrLogitsParam, Distribution):
    """A binomial distribution: successes among `total_count` Bernoulli trials of
    probability `probs` (or log-odds `logits`). `total_count` broadcasts with them.

    Args:
        total_count (int or Tensor): the number of trials.
        probs (Tensor): the probability of success of each trial.
        logits (Tensor): its log-odds (instead of `probs`).

    Example::

        >>> m = Binomial(100, torch.tensor([0 , .2, .8, 1]))
        >>> x = m.sample()
        tensor([   0.,   22.,   71.,  100.])
    """
    arg_constraints = {"total_count": constraints.nonnegative_integer,
                       "probs": constraints.unit_interval, "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None) -> None:
        total_count, param = self._init_probs_or_logits(probs, logits, total_count)
        self.total_count = total_count.type_as(param)
        super().__init__(param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(Binomial, batch_shape, _instance, "total_count")

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = torch.lgamma(self.total_count + 1)
        log_factorial_k = torch.lgamma(value + 1)
        log_factorial_nmk = torch.lgamma(self.total_count - value + 1)
        # n log(1 + e^logits), computed without overflow
        normalize_term = (self.total_count * _clamp_by_zero(self.logits)
                          + self.total_count * torch.log1p(torch.exp(-torch.abs(self.logits)))
                          - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def _homogeneous_count(self, method: str) -> int:
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError(
                f"Inhomogeneous total count not supported by `{method}`.")
        return total_count

    def entropy(self):
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(torch.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand: bool = True):
        total_count = self._homogeneous_count("enumerate_support")
        return _enumerate_values(self, 1 + total_count, self._param.dtype, expand)
