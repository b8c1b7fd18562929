"""The categorical distribution over {0, ..., K - 1}."""
from __future__ import annotations

import glasstorch as torch

from . import constraints
from .distribution import Distribution
from .probs_or_logits import ProbsOrLogitsParam
from .utils import _check_one_of, _enumerate_values

__all__ = ["Categorical"]


class Categorical(ProbsOrLogitsParam, Distribution):
    """A categorical distribution over the indices of the last dimension of `probs`
    (or `logits`), the other dimensions batching it.

    Args:
        probs (Tensor): event probabilities (non-negative, normalised to sum to 1).
        logits (Tensor): event log-probabilities, unnormalised (instead of `probs`).

    Example::

        >>> m = Categorical(torch.tensor([ 0.25, 0.25, 0.25, 0.25 ]))
        >>> m.sample()
        tensor(3)
    """
    arg_constraints = {"probs": constraints.simplex,
                       "logits": constraints.independent(constraints.real, 1)}
    has_enumerate_support = True
    _binary_events = False

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        _check_one_of(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self._store_param("probs", probs / probs.sum(-1, keepdim=True))
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self._store_param("logits", logits - logits.logsumexp(dim=-1, keepdim=True))
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.ndimension() > 1 else torch.Size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Categorical, _instance)
        batch_shape = torch.Size(batch_shape)
        param_shape = batch_shape + torch.Size((self._num_events,))
        self._expand_probs_or_logits(new, param_shape)
        new._num_events = self._num_events
        super(Categorical, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def mean(self):
        return torch.full(self._extended_shape(), torch.nan, dtype=self.probs.dtype,
                          device=self.probs.device)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return torch.full(self._extended_shape(), torch.nan, dtype=self.probs.dtype,
                          device=self.probs.device)

    def sample(self, sample_shape=torch.Size()):
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = torch.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = torch.broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        # -inf logits (zero probabilities) contribute 0, not nan
        logits = torch.clamp(self.logits, min=torch.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand: bool = True):
        return _enumerate_values(self, self._num_events, torch.long, expand)
