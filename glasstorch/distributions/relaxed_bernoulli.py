"""The relaxed Bernoulli (binary Concrete) distribution and its logit form."""
from __future__ import annotations

import glasstorch as torch

from . import constraints
from .distribution import Distribution
from .transformed_distribution import TransformedDistribution
from .transforms import SigmoidTransform
from .probs_or_logits import ProbsOrLogitsParam, RelaxedParams
from .utils import broadcast_all, clamp_probs

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]


class LogitRelaxedBernoulli(ProbsOrLogitsParam, Distribution):
    """The logit of a `RelaxedBernoulli` sample: (logit(U) + logits) / temperature for
    U uniform (Maddison et al., 2017).

    Args:
        temperature (Tensor): the relaxation temperature.
        probs (Number, Tensor): the probability of sampling 1.
        logits (Number, Tensor): its log-odds (instead of `probs`).
    """
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        self.temperature = temperature
        (param,) = self._init_probs_or_logits(probs, logits)
        super().__init__(param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(LogitRelaxedBernoulli, batch_shape, _instance,
                                       copied=("temperature",))

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(torch.rand(shape, dtype=probs.dtype, device=probs.device))
        return (uniforms.log() - (-uniforms).log1p() + probs.log()
                - (-probs).log1p()) / self.temperature

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(RelaxedParams, TransformedDistribution):
    """A relaxed Bernoulli distribution on (0, 1): a continuous, reparameterisable
    stand-in for a Bernoulli, sharper as `temperature` falls.

    Args:
        temperature (Tensor): the relaxation temperature.
        probs (Number, Tensor): the probability of sampling 1.
        logits (Number, Tensor): its log-odds (instead of `probs`).

    Example::

        >>> m = RelaxedBernoulli(torch.tensor([2.2]),
        ...                      torch.tensor([0.1, 0.2, 0.3, 0.99]))
        >>> m.sample()
        tensor([ 0.2951,  0.3442,  0.8918,  0.9021])
    """
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(RelaxedBernoulli, _instance)
        return super().expand(batch_shape, _instance=new)
