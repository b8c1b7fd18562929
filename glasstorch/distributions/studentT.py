"""Student's t distribution."""
from __future__ import annotations

import math

import glasstorch as torch

from . import constraints
from .chi2 import Chi2
from .distribution import Distribution
from .utils import _standard_normal, broadcast_all

__all__ = ["StudentT"]


class StudentT(Distribution):
    """A Student's t distribution with `df` degrees of freedom, location `loc` and
    scale `scale`: loc + scale * X / sqrt(V / df) for X standard normal, V ~ Chi2(df).

    Args:
        df (float or Tensor): the degrees of freedom.
        loc (float or Tensor): the location.
        scale (float or Tensor): the scale.

    Example::

        >>> m = StudentT(torch.tensor([2.0]))
        >>> m.sample()
        tensor([ 0.1046])
    """
    arg_constraints = {"df": constraints.positive, "loc": constraints.real,
                       "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    @property
    def mean(self):
        mean = self.loc.clone(memory_format=torch.contiguous_format)
        mean[self.df <= 1] = torch.nan
        return mean

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        variance = self.df.clone(memory_format=torch.contiguous_format)
        finite = self.df > 2
        variance[finite] = (self.scale[finite].pow(2) * self.df[finite]
                            / (self.df[finite] - 2))
        variance[(self.df <= 2) & (self.df > 1)] = torch.inf
        variance[self.df <= 1] = torch.nan
        return variance

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_attributes(StudentT, batch_shape, _instance,
                                       "df", "loc", "scale", "_chi2")

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        x = _standard_normal(shape, dtype=self.df.dtype, device=self.df.device)
        z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * x * torch.rsqrt(z / self.df)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        normalizer = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi)
                      + torch.lgamma(0.5 * self.df) - torch.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * torch.log1p(y ** 2.0 / self.df) - normalizer

    def entropy(self):
        log_beta = (torch.lgamma(0.5 * self.df) + math.lgamma(0.5)
                    - torch.lgamma(0.5 * (self.df + 1)))
        return (self.scale.log()
                + 0.5 * (self.df + 1) * (torch.digamma(0.5 * (self.df + 1))
                                         - torch.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + log_beta)
