"""The LKJ distribution over Cholesky factors of correlation matrices."""
from __future__ import annotations

import math

import glasstorch as torch

from . import constraints
from .beta import Beta
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """The LKJ distribution (Lewandowski, Kurowicka and Joe, 2009) over lower Cholesky
    factors L of `dim` x `dim` correlation matrices: the density of L L^T is
    proportional to det(L L^T) ** (concentration - 1).

    Sampling is the onion method (Sec. 3.2 of the paper): row i of L is a uniform
    direction scaled by the square root of a Beta draw, its diagonal completing the
    unit norm. The density is that of the correlation matrix, not of L's entries.

    Args:
        dim (int): the dimension of the matrices.
        concentration (float or Tensor): the shape parameter (positive).

    Example::

        >>> l = LKJCholesky(3, 0.5)
        >>> l.sample()
        tensor([[ 1.0000,  0.0000,  0.0000],
                [ 0.3516,  0.9361,  0.0000],
                [-0.1899,  0.4748,  0.8593]])
    """
    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim: int, concentration=1.0, validate_args=None) -> None:
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. "
                             f"Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        # the Beta draws of the onion method, all rows at once
        marginal_concentration = self.concentration + 0.5 * (self.dim - 2)
        offset = torch.arange(self.dim - 1, dtype=self.concentration.dtype,
                              device=self.concentration.device)
        offset = torch.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal_concentration.unsqueeze(-1) - 0.5 * offset)
        super().__init__(batch_shape, torch.Size((dim, dim)), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = torch.Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))
        super(LKJCholesky, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=torch.Size()):
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u_normal = torch.randn(self._extended_shape(sample_shape), dtype=y.dtype,
                               device=y.device).tril(-1)
        u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
        u_hypersphere[..., 0, :].fill_(0.0)      # the first row is 0/0: it has no direction
        w = torch.sqrt(y) * u_hypersphere
        tiny = torch.finfo(w.dtype).tiny
        diagonal = torch.clamp(1 - torch.sum(w ** 2, dim=-1), min=tiny).sqrt()
        w += torch.diag_embed(diagonal)
        return w

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diagonal = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = torch.arange(2, self.dim + 1, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = torch.sum(order * diagonal.log(), dim=-1)
        # the normaliser (page 1999 of the paper): multigammaln's pi term is
        # (D - 1)(D - 2)/4 log(pi), the paper's D(D - 1)/4 log(pi)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = torch.lgamma(alpha) * dm1
        numerator = torch.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        return unnormalized_log_pdf - (pi_constant + numerator - denominator)
