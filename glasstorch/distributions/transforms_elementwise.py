"""Transforms acting element by element: exp, power, sigmoid, softplus, tanh, abs,
affine, and a distribution's CDF."""
from __future__ import annotations

import math
from numbers import Number, Real

import glasstorch as torch
from glasstorch.nn.functional import softplus

from . import constraints
from .transform_base import Transform
from .utils import broadcast_all, lazy_property

__all__ = ["ExpTransform", "PowerTransform", "SigmoidTransform", "SoftplusTransform",
           "TanhTransform", "AbsTransform", "AffineTransform",
           "CumulativeDistributionTransform"]


class _SameClassEqual:
    """Transforms without parameters: any two of one class are equal."""

    def __eq__(self, other) -> bool:
        return isinstance(other, type(self))


class ExpTransform(_SameClassEqual, Transform):
    """y = exp(x)."""
    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class PowerTransform(Transform):
    """y = x ** exponent, on positive numbers.

    Args:
        exponent (float or Tensor): the power.
        cache_size (int): 0 or 1.
    """
    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        (self.exponent,) = broadcast_all(exponent)

    def with_cache(self, cache_size: int = 1):
        if self._cache_size == cache_size:
            return self
        return PowerTransform(self.exponent, cache_size=cache_size)

    @lazy_property
    def sign(self):
        return self.exponent.sign()

    def __eq__(self, other) -> bool:
        if not isinstance(other, PowerTransform):
            return False
        return self.exponent.eq(other.exponent).all().item()

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.exponent, "shape", ()))

    def inverse_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.exponent, "shape", ()))


def _clipped_sigmoid(x):
    """A sigmoid kept within [tiny, 1 - eps] of x's dtype (so its inverse is finite)."""
    finfo = torch.finfo(x.dtype)
    return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)


class SigmoidTransform(_SameClassEqual, Transform):
    """y = 1 / (1 + exp(-x))."""
    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True
    sign = +1

    def _call(self, x):
        return _clipped_sigmoid(x)

    def _inverse(self, y):
        finfo = torch.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -softplus(-x) - softplus(x)


class SoftplusTransform(_SameClassEqual, Transform):
    """y = log(1 + exp(x)); its inverse is computed as x = log(1 - exp(-y)) + y."""
    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def _call(self, x):
        return softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -softplus(-x)


class TanhTransform(_SameClassEqual, Transform):
    """y = tanh(x). Its inverse loses precision near +-1: a `TransformedDistribution`
    built on it should cache (``cache_size=1``)."""
    domain = constraints.real
    codomain = constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x, y):
        # log(1 - tanh(x)^2), written stably: 2 (log 2 - x - softplus(-2x))
        return 2.0 * (math.log(2.0) - x - softplus(-2.0 * x))


class AbsTransform(_SameClassEqual, Transform):
    """y = |x| (not invertible: the inverse returns y)."""
    domain = constraints.real
    codomain = constraints.positive

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


def _all_equal(a, b) -> bool:
    if isinstance(a, Number) and isinstance(b, Number):
        return a == b
    return bool((a == b).all().item())


class AffineTransform(Transform):
    """y = loc + scale * x.

    Args:
        loc (Tensor or float): the shift.
        scale (Tensor or float): the scale.
        event_dim (int): the size of the events (1 for vectors, 2 for matrices...): the
            log-det-Jacobian sums over them.
        cache_size (int): 0 or 1.
    """
    bijective = True

    def __init__(self, loc, scale, event_dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc = loc
        self.scale = scale
        self._event_dim = event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        if self.event_dim == 0:
            return constraints.real
        return constraints.independent(constraints.real, self.event_dim)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        if self.event_dim == 0:
            return constraints.real
        return constraints.independent(constraints.real, self.event_dim)

    def with_cache(self, cache_size: int = 1):
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self.event_dim, cache_size=cache_size)

    def __eq__(self, other) -> bool:
        if not isinstance(other, AffineTransform):
            return False
        return _all_equal(self.loc, other.loc) and _all_equal(self.scale, other.scale)

    @property
    def sign(self):
        if isinstance(self.scale, Real):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        shape = x.shape
        scale = self.scale
        if isinstance(scale, Real):
            result = torch.full_like(x, math.log(abs(scale)))
        else:
            result = torch.abs(scale).log()
        if self.event_dim:
            result = result.view(result.size()[:-self.event_dim] + (-1,)).sum(-1)
            shape = shape[:-self.event_dim]
        return result.expand(shape)

    def forward_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.loc, "shape", ()),
                                      getattr(self.scale, "shape", ()))

    def inverse_shape(self, shape):
        return self.forward_shape(shape)


class CumulativeDistributionTransform(Transform):
    """y = the CDF of a univariate `distribution` at x (its icdf inverts it).

    Args:
        distribution (Distribution): with `cdf`, `icdf` and `log_prob`.
        cache_size (int): 0 or 1.

    Example::

        >>> # a Gaussian copula from a multivariate normal
        >>> base_dist = MultivariateNormal(
        ...     loc=torch.zeros(2),
        ...     scale_tril=LKJCholesky(2).sample(),
        ... )
        >>> transform = CumulativeDistributionTransform(Normal(0, 1))
        >>> copula = TransformedDistribution(base_dist, [transform])
    """
    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self):
        return self.distribution.support

    def with_cache(self, cache_size: int = 1):
        if self._cache_size == cache_size:
            return self
        return type(self)(self.distribution, cache_size=cache_size)

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)
