"""The geometric distribution: failures before the first success."""
from __future__ import annotations

import glasstorch as torch
from glasstorch.nn.functional import binary_cross_entropy_with_logits

from . import constraints
from .distribution import Distribution
from .probs_or_logits import ProbsOrLogits
from .utils import broadcast_all

__all__ = ["Geometric"]


class Geometric(ProbsOrLogits, Distribution):
    """A geometric distribution: the number of failures before the first success
    of Bernoulli trials of probability `probs` (in (0, 1]).

    Args:
        probs (Number, Tensor): the probability of success of each trial.
        logits (Number, Tensor): its log-odds (instead of `probs`).

    Example::

        >>> m = Geometric(torch.tensor([0.3]))
        >>> m.sample()
        tensor([ 2.])
    """
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        (param,) = self._init_probs_or_logits(probs, logits)
        super().__init__(param.size(), validate_args=validate_args)
        if self._validate_args and probs is not None:
            self._check_positive(self.probs)

    def _check_positive(self, value) -> None:
        """A probability of 0 is in the unit interval, yet no trial would succeed."""
        valid = value > 0
        if not valid.all():
            raise ValueError(
                f"Expected parameter probs ({type(value).__name__} of shape "
                f"{tuple(value.shape)}) of distribution {repr(self)} to be positive but "
                f"found invalid values:\n{value.data[~valid]}")

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(Geometric, batch_shape, _instance)

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return torch.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        tiny = torch.finfo(self.probs.dtype).tiny
        with torch.no_grad():
            u = self.probs.new(shape).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone(memory_format=torch.contiguous_format)
        probs[(probs == 1) & (value == 0)] = 0           # 0 * log(0) is 0 here
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs,
                                                reduction="none") / self.probs
