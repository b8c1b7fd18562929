"""The relaxed one-hot categorical (Concrete) distribution and its log form."""
from __future__ import annotations

import glasstorch as torch

from . import constraints
from .categorical import Categorical
from .distribution import Distribution
from .probs_or_logits import CategoricalParams, RelaxedParams
from .transformed_distribution import TransformedDistribution
from .transforms import ExpTransform
from .utils import broadcast_all, clamp_probs

__all__ = ["ExpRelaxedCategorical", "RelaxedOneHotCategorical"]


class ExpRelaxedCategorical(CategoricalParams, Distribution):
    """The log of a `RelaxedOneHotCategorical` sample: a log-softmax of
    (logits + Gumbel noise) / temperature (Maddison et al., 2017).

    Args:
        temperature (Tensor): the relaxation temperature.
        probs (Tensor): event probabilities.
        logits (Tensor): unnormalised log-probabilities (instead of `probs`).
    """
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        self._categorical = Categorical(probs, logits)
        self.temperature = temperature
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(ExpRelaxedCategorical, batch_shape, _instance,
                                       "_categorical", copied=("temperature",))

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        uniforms = clamp_probs(torch.rand(shape, dtype=self.logits.dtype,
                                          device=self.logits.device))
        gumbels = -((-(uniforms.log())).log())
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value):
        count = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_scale = (torch.full_like(self.temperature, float(count)).lgamma()
                     - self.temperature.log().mul(-(count - 1)))
        score = logits - value.mul(self.temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(RelaxedParams, TransformedDistribution):
    """A relaxed one-hot categorical distribution on the simplex: a continuous,
    reparameterisable stand-in for `OneHotCategorical`, sharper as `temperature` falls.

    Args:
        temperature (Tensor): the relaxation temperature.
        probs (Tensor): event probabilities.
        logits (Tensor): unnormalised log-probabilities (instead of `probs`).

    Example::

        >>> m = RelaxedOneHotCategorical(torch.tensor([2.2]),
        ...                              torch.tensor([0.1, 0.2, 0.3, 0.4]))
        >>> m.sample()
        tensor([ 0.1294,  0.2324,  0.3859,  0.2523])
    """
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        base_dist = ExpRelaxedCategorical(temperature, probs, logits,
                                          validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(RelaxedOneHotCategorical, _instance)
        return super().expand(batch_shape, _instance=new)
