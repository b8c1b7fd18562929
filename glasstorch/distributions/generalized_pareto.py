"""The generalized Pareto distribution."""
from __future__ import annotations

import math
from numbers import Real

import glasstorch as torch

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """A generalized Pareto distribution with location `loc`, scale `scale` and shape
    `concentration` xi: the exponential for xi = 0, a Pareto for xi > 0, bounded above
    (at loc - scale / xi) for xi < 0; a model of the tails of other distributions.

    Where xi is (close to) 0 the formulas take their limits, written with a harmless
    stand-in for xi in the other branch so that gradients stay finite.

    Args:
        loc (float or Tensor): the location.
        scale (float or Tensor): the scale (positive).
        concentration (float or Tensor): the shape xi.

    Example::

        >>> m = GeneralizedPareto(torch.tensor([0.1]), torch.tensor([2.0]), torch.tensor([0.4]))
        >>> m.sample()
        tensor([ 1.5623])
    """
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive,
                       "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None) -> None:
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        super().__init__(self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(GeneralizedPareto, batch_shape, _instance,
                                       "loc", "scale", "concentration")

    def _zero_and_safe_concentration(self):
        """(where xi is 0, xi with those replaced by 1)."""
        eq_zero = torch.isclose(self.concentration, torch.tensor(0.0))
        return eq_zero, torch.where(eq_zero, torch.ones_like(self.concentration),
                                    self.concentration)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        u = torch.rand(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe = self._zero_and_safe_concentration()
        y = 1 / safe + torch.ones_like(z)
        where_nonzero = torch.where(y == 0, y, y * torch.log1p(safe * z))
        log_scale = math.log(self.scale) if isinstance(self.scale, Real) else self.scale.log()
        return -log_scale - torch.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        """log(1 - cdf(value))."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe = self._zero_and_safe_concentration()
        return torch.where(eq_zero, -z, -torch.log1p(safe * z) / safe)

    def log_cdf(self, value):
        """log(cdf(value))."""
        return torch.log1p(-torch.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return torch.exp(self.log_cdf(value))

    def icdf(self, value):
        eq_zero = torch.isclose(self.concentration, torch.zeros_like(self.concentration))
        safe = torch.where(eq_zero, torch.ones_like(self.concentration), self.concentration)
        log_u = torch.log1p(-value)
        where_nonzero = self.loc + self.scale / safe * torch.expm1(-safe * log_u)
        return torch.where(eq_zero, self.loc - self.scale * log_u, where_nonzero)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        valid = self.concentration < 1
        safe = torch.where(valid, self.concentration, 0.5)
        return torch.where(valid, self.loc + self.scale / (1 - safe), torch.nan)

    @property
    def variance(self):
        valid = self.concentration < 0.5
        safe = torch.where(valid, self.concentration, 0.25)
        result = self.scale ** 2 / ((1 - safe) ** 2 * (1 - 2 * safe))
        return torch.where(valid, result, torch.nan)

    def entropy(self):
        return torch.broadcast_to(torch.log(self.scale) + self.concentration + 1,
                                  self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        lower = self.loc
        upper = torch.where(self.concentration < 0, lower - self.scale / self.concentration,
                            torch.inf)
        return constraints.interval(lower, upper)
