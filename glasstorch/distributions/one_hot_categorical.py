"""The one-hot categorical distribution, and its straight-through variant."""
from __future__ import annotations

import glasstorch as torch

from . import constraints
from .categorical import Categorical
from .distribution import Distribution
from .probs_or_logits import CategoricalParams

__all__ = ["OneHotCategorical", "OneHotCategoricalStraightThrough"]


class OneHotCategorical(CategoricalParams, Distribution):
    """A categorical distribution whose samples are one-hot vectors of size
    ``probs.size(-1)``.

    Args:
        probs (Tensor): event probabilities (normalised to sum to 1).
        logits (Tensor): event log-probabilities (instead of `probs`).

    Example::

        >>> m = OneHotCategorical(torch.tensor([ 0.25, 0.25, 0.25, 0.25 ]))
        >>> m.sample()
        tensor([ 0.,  0.,  0.,  1.])
    """
    arg_constraints = {"probs": constraints.simplex,
                       "logits": constraints.independent(constraints.real, 1)}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        self._categorical = Categorical(probs, logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(OneHotCategorical, batch_shape, _instance, "_categorical")

    @property
    def _param(self):
        return self._categorical._param

    @property
    def mean(self):
        return self._categorical.probs

    @property
    def mode(self):
        probs = self._categorical.probs
        return torch.nn.functional.one_hot(probs.argmax(axis=-1),
                                           num_classes=probs.shape[-1]).to(probs)

    @property
    def variance(self):
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape=torch.Size()):
        sample_shape = torch.Size(sample_shape)
        probs = self._categorical.probs
        indices = self._categorical.sample(sample_shape)
        return torch.nn.functional.one_hot(indices, self._categorical._num_events).to(probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        indices = value.max(-1)[1]
        return self._categorical.log_prob(indices)

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand: bool = True):
        n = self.event_shape[0]
        values = torch.eye(n, dtype=self._param.dtype, device=self._param.device)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        if expand:
            values = values.expand((n,) + self.batch_shape + (n,))
        return values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """A `OneHotCategorical` whose `rsample` passes gradients straight through the
    one-hot sample to the probabilities (the straight-through estimator of Bengio et
    al., 2013)."""
    has_rsample = True

    def rsample(self, sample_shape=torch.Size()):
        samples = self.sample(sample_shape)
        probs = self._categorical.probs      # cached: the gradient reaches the logits
        return samples + (probs - probs.detach())
