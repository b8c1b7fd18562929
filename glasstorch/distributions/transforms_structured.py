"""Transforms of whole vectors and matrices (softmax, stick breaking, Cholesky
factors), and the transforms that join others (cat, stack)."""
from __future__ import annotations

import math

import glasstorch as torch
from glasstorch.nn.functional import logsigmoid, pad, softplus

from . import constraints
from .transform_base import Transform
from .transforms_elementwise import _SameClassEqual, _clipped_sigmoid
from .utils import _sum_rightmost, lazy_property, tril_matrix_to_vec, vec_to_tril_matrix

__all__ = ["SoftmaxTransform", "StickBreakingTransform", "LowerCholeskyTransform",
           "PositiveDefiniteTransform", "CorrCholeskyTransform", "CatTransform",
           "StackTransform"]


def _at_least_one_dim(shape):
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")


class SoftmaxTransform(_SameClassEqual, Transform):
    """From unconstrained vectors to the simplex: y = exp(x) normalised. Not bijective
    (adding a constant to x changes nothing), so it serves algorithms that need no
    log-det-Jacobian; the inverse returns log(y)."""
    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        _at_least_one_dim(shape)
        return shape

    def inverse_shape(self, shape):
        _at_least_one_dim(shape)
        return shape


class StickBreakingTransform(_SameClassEqual, Transform):
    """A bijection from vectors of K - 1 reals to the K-simplex: each sigmoid (shifted
    so that x = 0 maps to the simplex's centre) breaks off a share of what remains."""
    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    @staticmethod
    def _log_offset(x):
        return (x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)).log()

    def _call(self, x):
        z = _clipped_sigmoid(x - self._log_offset(x))
        remaining = (1 - z).cumprod(-1)
        return pad(z, [0, 1], value=1) * pad(remaining, [1, 0], value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = y.shape[-1] - y.new_ones(y_crop.shape[-1]).cumsum(-1)
        remaining = torch.clamp(1 - y_crop.cumsum(-1), min=torch.finfo(y.dtype).tiny)
        return y_crop.log() - remaining.log() + offset.log()

    def log_abs_det_jacobian(self, x, y):
        x = x - self._log_offset(x)
        return (-x + logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        _at_least_one_dim(shape)
        return shape[:-1] + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        _at_least_one_dim(shape)
        return shape[:-1] + (shape[-1] - 1,)


class LowerCholeskyTransform(_SameClassEqual, Transform):
    """From unconstrained square matrices to lower-triangular ones with a positive
    diagonal: the strict lower triangle kept, the diagonal exponentiated."""
    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x):
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y):
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(_SameClassEqual, Transform):
    """From unconstrained square matrices to positive-definite ones: L L^T for the
    `LowerCholeskyTransform` L of x."""
    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def _call(self, x):
        x = LowerCholeskyTransform()(x)
        return x @ x.mT

    def _inverse(self, y):
        return LowerCholeskyTransform().inv(torch.linalg.cholesky(y))


class CorrCholeskyTransform(_SameClassEqual, Transform):
    """From vectors of D(D-1)/2 reals to Cholesky factors of D x D correlation matrices.

    The reals go through tanh to (-1, 1), fill the strict lower triangle row by row,
    and each row is then completed by stick breaking so that it has unit norm: row i's
    j-th entry is its partial correlation times the length left by the entries before it.
    """
    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x):
        x = torch.tanh(x)
        eps = torch.finfo(x.dtype).eps
        x = x.clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(x, diag=-1)
        remaining = (1 - r ** 2).sqrt().cumprod(-1)
        r = r + torch.eye(r.shape[-1], dtype=r.dtype, device=r.device)
        return r * pad(remaining[..., :-1], [1, 0], value=1)

    def _inverse(self, y):
        remaining = 1 - torch.cumsum(y * y, dim=-1)
        remaining_before = pad(remaining[..., :-1], [1, 0], value=1)
        y_vec = tril_matrix_to_vec(y, diag=-1)
        remaining_vec = tril_matrix_to_vec(remaining_before, diag=-1)
        t = y_vec / remaining_vec.sqrt()
        return (t.log1p() - t.neg().log1p()) / 2          # atanh

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        remaining = 1 - (y * y).cumsum(dim=-1)
        stick_breaking_logdet = 0.5 * tril_matrix_to_vec(remaining, diag=-2).log().sum(-1)
        tanh_logdet = -2 * (x + softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape):
        _at_least_one_dim(shape)
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattend lower-diagonal number")
        return shape[:-1] + (d, d)

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return shape[:-2] + (d * (d - 1) // 2,)


class CatTransform(Transform):
    """Transforms `tseq` applied to consecutive slices of `lengths` (default 1) along
    `dim`, the results concatenated.

    Example::

        >>> x0 = torch.cat([torch.range(1, 10), torch.range(1, 10)], dim=0)
        >>> t = CatTransform([ExpTransform(), identity_transform], dim=0, lengths=[10, 10])
        >>> y = t(x0)
    """

    def __init__(self, tseq, dim: int = 0, lengths=None, cache_size: int = 0) -> None:
        assert all(isinstance(t, Transform) for t in tseq)
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        if lengths is None:
            lengths = [1] * len(self.transforms)
        self.lengths = list(lengths)
        assert len(self.lengths) == len(self.transforms)
        self.dim = dim

    @lazy_property
    def event_dim(self) -> int:
        return max(t.event_dim for t in self.transforms)

    @lazy_property
    def length(self) -> int:
        return sum(self.lengths)

    def with_cache(self, cache_size: int = 1):
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _slices(self, *tensors):
        """(transform, slices of each tensor) for each part."""
        start = 0
        for transform, length in zip(self.transforms, self.lengths):
            yield transform, [t.narrow(self.dim, start, length) for t in tensors]
            start += length

    def _check(self, x) -> None:
        assert -x.dim() <= self.dim < x.dim()
        assert x.size(self.dim) == self.length

    def _call(self, x):
        self._check(x)
        return torch.cat([t(s) for t, (s,) in self._slices(x)], dim=self.dim)

    def _inverse(self, y):
        self._check(y)
        return torch.cat([t.inv(s) for t, (s,) in self._slices(y)], dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check(x)
        assert -y.dim() <= self.dim < y.dim() and y.size(self.dim) == self.length
        terms = []
        for transform, (x_part, y_part) in self._slices(x, y):
            term = transform.log_abs_det_jacobian(x_part, y_part)
            if transform.event_dim < self.event_dim:
                term = _sum_rightmost(term, self.event_dim - transform.event_dim)
            terms.append(term)
        dim = self.dim - x.dim() if self.dim >= 0 else self.dim
        dim += self.event_dim
        # a dim within the batch keeps one term per slice; one within the event sums
        return torch.cat(terms, dim=dim) if dim < 0 else sum(terms)

    @property
    def bijective(self) -> bool:
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self):
        return constraints.cat([t.codomain for t in self.transforms], self.dim,
                               self.lengths)


class StackTransform(Transform):
    """Transforms `tseq` applied to the successive slices along `dim`, the results
    stacked.

    Example::

        >>> x = torch.stack([torch.range(1, 10), torch.range(1, 10)], dim=1)
        >>> t = StackTransform([ExpTransform(), identity_transform], dim=1)
        >>> y = t(x)
    """

    def __init__(self, tseq, dim: int = 0, cache_size: int = 0) -> None:
        assert all(isinstance(t, Transform) for t in tseq)
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.dim = dim

    def with_cache(self, cache_size: int = 1):
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _slice(self, z):
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _check(self, x) -> None:
        assert -x.dim() <= self.dim < x.dim()
        assert x.size(self.dim) == len(self.transforms)

    def _call(self, x):
        self._check(x)
        return torch.stack([t(s) for s, t in zip(self._slice(x), self.transforms)],
                           dim=self.dim)

    def _inverse(self, y):
        self._check(y)
        return torch.stack([t.inv(s) for s, t in zip(self._slice(y), self.transforms)],
                           dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check(x)
        self._check(y)
        terms = [t.log_abs_det_jacobian(xs, ys)
                 for xs, ys, t in zip(self._slice(x), self._slice(y), self.transforms)]
        return torch.stack(terms, dim=self.dim)

    @property
    def bijective(self) -> bool:
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self):
        return constraints.stack([t.codomain for t in self.transforms], self.dim)
