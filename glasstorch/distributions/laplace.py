"""The Laplace (double exponential) distribution."""
from __future__ import annotations

import glasstorch as torch

from . import constraints
from .distribution import Distribution
from .symmetric import SymmetricAboutLoc
from .utils import broadcast_all

__all__ = ["Laplace"]


class Laplace(SymmetricAboutLoc, Distribution):
    """A Laplace distribution with location `loc` and scale `scale`.

    Args:
        loc (float or Tensor): the mean.
        scale (float or Tensor): the scale (positive).

    Example::

        >>> m = Laplace(torch.tensor([0.0]), torch.tensor([1.0]))
        >>> m.sample()
        tensor([ 0.1046])
    """
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2 ** 0.5) * self.scale

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(Laplace, batch_shape, _instance, "loc", "scale")

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = torch.finfo(self.loc.dtype).eps
        u = self.loc.new(shape).uniform_(eps - 1, 1)   # (-1, 1), away from -1
        return self.loc - self.scale * u.sign() * torch.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -torch.log(2 * self.scale) - torch.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * torch.expm1(
            -(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * torch.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + torch.log(2 * self.scale)
