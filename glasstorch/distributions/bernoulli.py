"""The Bernoulli distribution."""
from __future__ import annotations

import glasstorch as torch
from glasstorch.nn.functional import binary_cross_entropy_with_logits

from . import constraints
from .exp_family import ExponentialFamily
from .probs_or_logits import ProbsOrLogitsParam
from .utils import _enumerate_values, broadcast_all

__all__ = ["Bernoulli"]


class Bernoulli(ProbsOrLogitsParam, ExponentialFamily):
    """A Bernoulli distribution: 1 with probability `probs`, else 0.

    Args:
        probs (Number, Tensor): the probability of sampling 1.
        logits (Number, Tensor): the log-odds of sampling 1 (instead of `probs`).

    Example::

        >>> m = Bernoulli(torch.tensor([0.3]))
        >>> m.sample()
        tensor([ 0.])
    """
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        (param,) = self._init_probs_or_logits(probs, logits)
        super().__init__(param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(Bernoulli, batch_shape, _instance)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = torch.nan
        return mode

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand: bool = True):
        return _enumerate_values(self, 2, self._param.dtype, expand)

    @property
    def _natural_params(self) -> tuple:
        return (torch.logit(self.probs),)

    def _log_normalizer(self, x):
        return torch.log1p(torch.exp(x))
