"""`ExponentialFamily`: distributions whose density is
p(x; theta) = exp(<t(x), theta> - F(theta) + k(x)), with natural parameters theta,
log normaliser F and carrier measure k. Their entropy follows from F alone (Note
[Entropy from the log normaliser]), and so does the Bregman form of their KL
divergence (`kl.py`).
"""
from __future__ import annotations

import glasstorch as torch

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """The base class of exponential-family distributions: subclasses give
    `_natural_params`, `_log_normalizer` and `_mean_carrier_measure`."""

    @property
    def _natural_params(self) -> tuple:
        """The natural parameters theta, as a tuple of tensors."""
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        """The log normaliser F(theta)."""
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        """The expected carrier measure E[k(x)]."""
        raise NotImplementedError

    def entropy(self):
        """The entropy, from the log normaliser.

        Note [Entropy from the log normaliser]: for an exponential family,
        H = F(theta) - <theta, grad F(theta)> - E[k(x)], since grad F(theta) is the
        mean of t(x). The gradient is taken by autograd (with create_graph, so the
        entropy differentiates again).
        """
        result = -self._mean_carrier_measure
        natural = [p.detach().requires_grad_() for p in self._natural_params]
        log_normalizer = self._log_normalizer(*natural)
        gradients = torch.autograd.grad(log_normalizer.sum(), natural, create_graph=True)
        result = result + log_normalizer
        for parameter, gradient in zip(natural, gradients):
            result = result - (parameter * gradient).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
