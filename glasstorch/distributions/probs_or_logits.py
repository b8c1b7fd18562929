"""Distributions parametrised by probabilities or, equivalently, by logits.

Note [Probs or logits]: such a distribution is made from exactly one of `probs` and
`logits`. The given one is stored on the instance; the other is a `lazy_property`,
computed on first use and then stored as well. Which of them sits in ``__dict__`` is
observable, as in torch: the repr shows only those, validation checks only those, and
`expand` carries over exactly those (the sole copy of a parameter that the user never
asked for would otherwise be computed, and its gradient path changed).
"""
from __future__ import annotations

from .utils import _check_one_of, broadcast_all, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["ProbsOrLogits", "ProbsOrLogitsParam", "CategoricalParams", "RelaxedParams"]

_NAMES = ("probs", "logits")


class ProbsOrLogits:
    """Mixin for a distribution with `probs` and `logits` parameters, one given, the
    other derived (Note [Probs or logits]).

    Binary events (`_binary_events` True) take log-odds and sigmoids; otherwise the
    last dimension holds the events, with log-probabilities and a softmax.
    """
    _binary_events = True

    def _store_param(self, name: str, value) -> None:
        setattr(self, name, value)

    def _init_probs_or_logits(self, probs, logits, *others) -> tuple:
        """Refuse both or neither of `probs` and `logits`, and store the given one
        broadcast with `others`.

        Returns:
            tuple: ``broadcast_all(*others, given)``.
        """
        _check_one_of(probs, logits)
        name, given = ("probs", probs) if probs is not None else ("logits", logits)
        broadcast = broadcast_all(*others, given)
        self._store_param(name, broadcast[-1])
        return broadcast

    def _expand_probs_or_logits(self, new, param_shape) -> None:
        """Give `new` whichever of probs and logits this instance holds, expanded to
        `param_shape`."""
        for name in _NAMES:
            if name in self.__dict__:
                new._store_param(name, self.__dict__[name].expand(param_shape))

    def _expand_attributes(self, cls, batch_shape, _instance, *names: str, copied=()):
        """`Distribution._expand_attributes`, carrying over probs and logits too (when
        they have no dimensions beyond the batch ones)."""
        new = super()._expand_attributes(cls, batch_shape, _instance, *names, copied=copied)
        self._expand_probs_or_logits(new, new.batch_shape)
        return new

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=self._binary_events)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=self._binary_events)


class ProbsOrLogitsParam(ProbsOrLogits):
    """`ProbsOrLogits` that also keeps the given tensor as `_param`: the one whose
    dtype, device and shape new tensors (`_new`) and `param_shape` follow."""

    def _store_param(self, name: str, value) -> None:
        setattr(self, name, value)
        self._param = value

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    @property
    def param_shape(self):
        return self._param.size()


class CategoricalParams:
    """Mixin for a distribution built over a `Categorical` (its `_categorical`),
    whose probs, logits and parameter tensor are that categorical's."""

    def _new(self, *args, **kwargs):
        return self._categorical._new(*args, **kwargs)

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits


class RelaxedParams:
    """Mixin for a relaxed distribution, a transformed one whose base distribution
    holds the temperature, probs and logits."""

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs
