"""The multivariate normal distribution."""
from __future__ import annotations

import math

import glasstorch as torch

from . import constraints
from .covariance import _expand_given_matrices, _given_matrix, _scale_tril_of
from .distribution import Distribution
from .symmetric import SymmetricAboutLoc
from .utils import _standard_normal, lazy_property

__all__ = ["MultivariateNormal"]


def _batch_mv(bmat, bvec):
    """Matrix-vector products over batches (broadcast)."""
    return torch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL, bx):
    """The squared Mahalanobis distance x^T (L L^T)^{-1} x, for a batch of lower
    Cholesky factors `bL` and vectors `bx` whose batch shape may be larger (broadcast
    over L's): x is reshaped so that every L solves for all the x it applies to at once.
    """
    n = bx.size(-1)
    bx_batch_shape = bx.shape[:-1]
    bL_batch_dims = bL.dim() - 2
    outer_batch_dims = len(bx_batch_shape) - bL_batch_dims
    old_batch_dims = outer_batch_dims + bL_batch_dims
    new_batch_dims = outer_batch_dims + 2 * bL_batch_dims
    # split each of x's batch dimensions matched with L's into (repeats, L's size)
    bx_new_shape = bx.shape[:outer_batch_dims]
    for size_l, size_x in zip(bL.shape[:-2], bx.shape[outer_batch_dims:-1]):
        bx_new_shape += (size_x // size_l, size_l)
    bx_new_shape += (n,)
    bx = bx.reshape(bx_new_shape)
    # then gather the repeats in front and L's sizes behind them
    permute_dims = (list(range(outer_batch_dims))
                    + list(range(outer_batch_dims, new_batch_dims, 2))
                    + list(range(outer_batch_dims + 1, new_batch_dims, 2)) + [new_batch_dims])
    bx = bx.permute(permute_dims)
    flat_L = bL.reshape(-1, n, n)
    flat_x = bx.reshape(-1, flat_L.size(0), n)
    flat_x_swap = flat_x.permute(1, 2, 0)
    squares = torch.linalg.solve_triangular(flat_L, flat_x_swap, upper=False).pow(2).sum(-2)
    permuted = squares.t().reshape(bx.shape[:-1])
    permute_inv_dims = list(range(outer_batch_dims))
    for i in range(bL_batch_dims):
        permute_inv_dims += [outer_batch_dims + i, old_batch_dims + i]
    return permuted.permute(permute_inv_dims).reshape(bx_batch_shape)


class _NormalOnVectors(SymmetricAboutLoc):
    """Mixin for a normal distribution on vectors, its covariance factored one way or
    another: its entropy follows from the log-determinant of the covariance."""

    def _matrix_shape(self):
        return self._batch_shape + self._event_shape + self._event_shape

    def _entropy(self, half_log_det):
        """The entropy, given half the log-determinant of the covariance."""
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)


class MultivariateNormal(_NormalOnVectors, Distribution):
    """A multivariate normal distribution with mean `loc` and a covariance given by
    one of `covariance_matrix`, `precision_matrix` or `scale_tril` (its lower Cholesky
    factor, the cheapest: the others are factored first).

    Args:
        loc (Tensor): the mean.
        covariance_matrix (Tensor): a positive-definite covariance matrix.
        precision_matrix (Tensor): a positive-definite precision matrix.
        scale_tril (Tensor): a lower-triangular factor of the covariance, with a
            positive diagonal.

    Example::

        >>> m = MultivariateNormal(torch.zeros(2), torch.eye(2))
        >>> m.sample()
        tensor([-0.2102, -0.5429])
    """
    arg_constraints = {"loc": constraints.real_vector,
                       "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite,
                       "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        name, matrix = _given_matrix(ValueError, scale_tril=scale_tril,
                                     covariance_matrix=covariance_matrix,
                                     precision_matrix=precision_matrix)
        if matrix.dim() < 2:
            what = "scale_tril matrix" if name == "scale_tril" else name
            raise ValueError(f"{what} must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        batch_shape = torch.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        setattr(self, name, matrix.expand(batch_shape + (-1, -1)))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        self._unbroadcasted_scale_tril = _scale_tril_of(name, matrix)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(MultivariateNormal, _instance)
        batch_shape = torch.Size(batch_shape)
        cov_shape = batch_shape + self.event_shape + self.event_shape
        new.loc = self.loc.expand(batch_shape + self.event_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        _expand_given_matrices(self, new, cov_shape)
        super(MultivariateNormal, new).__init__(batch_shape, self.event_shape,
                                                validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return torch.matmul(L, L.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        return torch.cholesky_inverse(self._unbroadcasted_scale_tril).expand(
            self._matrix_shape())

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(
            self._batch_shape + self._event_shape)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - self._half_log_det()

    def entropy(self):
        return self._entropy(self._half_log_det())
