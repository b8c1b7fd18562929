"""Derivatives of the distance family (cdist's kernels, renorm, cross), too long for one
formula line; re-exported by `manual.py`, where formulas look names up.
"""
from __future__ import annotations

import math

import glasstorch as torch

from .manual_reduction import norm_backward


def cross_dim(sizes, dim):
    """The dim `cross` worked along: the given one, or the first of size 3."""
    from ..aten.native.linalg.distance import default_cross_dim   # loaded: cross ran
    return default_cross_dim(sizes) if dim is None else dim


def cdist_backward(grad, x1, x2, p: float, result):
    """The gradient of the distances between the rows of `x1` and `x2` for `x1`.

    With ``d = x1_i - x2_j`` and ``D_ij = |d|_p``, ``dD_ij / dx1_i`` is 0 for p=0,
    ``sign(d)`` for p=1, ``d / D`` for p=2, ``sign(d)`` on the largest components for
    p=inf and ``sign(d) |d|^(p-1) / D^(p-1)`` otherwise; zero where ``D == 0`` (and, for
    p < 1, where a component of d is 0, whose power would be infinite).
    """
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)                  # (..., r1, r2, m)
    dist = result.unsqueeze(-1)
    upstream = grad.unsqueeze(-1)
    if p == 0:
        return torch.zeros_like(x1)
    if p == 1:
        slope = diff.sign()
    elif p == 2:
        slope = (diff / dist).masked_fill(dist == 0, 0)
    elif math.isinf(p):
        slope = diff.sign() * (diff.abs() == dist)
    else:
        slope = diff.sign() * diff.abs().pow(p - 1) / dist.pow(p - 1)
        vanishing = (dist == 0) | ((diff == 0) & (p < 1))
        slope = slope.masked_fill(vanishing, 0)
    return (slope * upstream).sum(-2)


def euclidean_dist_backward(grad, x1, x2, result):
    """Both gradients of ``D_ij = |x1_i - x2_j|``: ``sum_j (x1_i - x2_j) g_ij / D_ij``
    for x1 and its mirror for x2, written as matrix products (zero where D is 0)."""
    ratio = (grad / result).masked_fill(result == 0, 0)
    grad_x1 = x1 * ratio.sum(-1, keepdim=True) - ratio.matmul(x2)
    grad_x2 = x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT.matmul(x1)
    return grad_x1, grad_x2


def renorm_backward(grad, self, p, dim: int, maxnorm):
    """The gradient of ``y = x * maxnorm / (|x|_p + 1e-7)`` on the slices over the limit
    (``y = x`` elsewhere): the scale times `grad`, minus the scale's own change through
    the norm, ``maxnorm / (n + 1e-7)^2 * sum(conj(x) grad) * dn/dx``."""
    dim = dim % self.dim()
    dims = [d for d in range(self.dim()) if d != dim]
    p = float(p)
    magnitude = self.abs()
    if math.isinf(p):
        norm = magnitude.amax(dims, keepdim=True)
    else:
        norm = magnitude.pow(p).sum(dims, keepdim=True).pow(1 / p)
    along = (self.conj() * grad)
    along = (along.real if along.is_complex() else along).sum(dims, keepdim=True)
    norm_change = norm_backward(along, self, p, norm, dims, True)
    inverse = (norm + 1e-7).reciprocal()
    factor = inverse * maxnorm
    return torch.where(norm > maxnorm, factor * grad - factor * inverse * norm_change, grad)
