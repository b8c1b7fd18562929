"""Distances between vectors: `cosine_similarity`, `pairwise_distance`, and `pdist`
with the operators it calls (`_pdist_forward`, `_pdist_backward`).

cosine_similarity and pairwise_distance are composites (torch's
CompositeImplicitAutograd): their gradients come from the operators they are written
in. pdist computes the p-norm distance of every pair of rows ``i < j`` of an
``(n, m)`` matrix, in row-major pair order, in one kernel with its own backward.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.promotion import result_type
from ... import functions as at
from ...registry import TensorMeta, composite, op
from ..pointwise.unary import refuse
from ..reduction.norms import linalg_vector_norm, norm_dim
from .batch_norm import _NOT_FLOATING

# torch's pdist kernel has loops for float and double only
_NO_PDIST_LOOP = _NOT_FLOATING | {np.dtype(np.float16), np.dtype(dtypes.bfloat16._np)}


@composite("cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor")
def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """The cosine of the angle between the vectors of `x1` and `x2` along `dim`:
    ``Σ (x1 / max(‖x1‖, eps)) * (x2 / max(‖x2‖, eps))``, the inputs broadcast.

    Each input is divided by its own norm (clamped at `eps`) before the dot product,
    which keeps the result within [-1, 1]; the clamp is not differentiated.

    Args:
        x1, x2 (Tensor): broadcastable; promoted to a floating dtype.
        dim (int): the dim the vectors lie along (default 1).
        eps (float): the smallest norm (default 1e-8).

    Example::

        >>> torch.cosine_similarity(torch.tensor([[1., 0.]]), torch.tensor([[1., 1.]]))
        tensor([0.7071])
    """
    common = result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{scalar_type_name(common)}")
    x1, x2 = at.broadcast_tensors([x1.to(common), x2.to(common)])
    norm1, norm2 = (_clamped_norm(x, dim, eps) for x in (x1, x2))
    return ((x1 / norm1) * (x2 / norm2)).sum(dim)


def _clamped_norm(x, dim: int, eps: float):
    """The 2-norm along `dim`, at least `eps` in value; its gradient is the norm's as if
    unclamped (torch clamps a clone in place, out of autograd's sight)."""
    norm = linalg_vector_norm.call(x, 2, [dim], True, None)
    return norm + (norm.clamp_min(eps) - norm).detach()


@composite("pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=1e-06, "
           "bool keepdim=False) -> Tensor")
def pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False):
    """The p-norm of ``x1 - x2 + eps`` along the last dim (of the broadcast shape).

    Args:
        x1, x2 (Tensor): broadcastable.
        p (float): the norm's exponent (default 2).
        eps (float): added to the difference, so that equal vectors have a gradient.
        keepdim (bool): keep the reduced dim as size 1.

    Example::

        >>> torch.pairwise_distance(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.]]), eps=0.)
        tensor([5.])
    """
    last = max(x1.dim(), x2.dim()) - 1
    return norm_dim.call(x1 - x2 + eps, p, [last], keepdim)          # at::norm, as torch


@composite("pdist(Tensor self, float p=2.) -> Tensor")
def pdist(self, p=2.0):
    """The p-norm distances between every pair of rows ``i < j`` of a matrix, as one
    vector of ``n * (n - 1) / 2`` elements (the upper triangle of `torch.cdist` of the
    matrix with itself, row by row).

    Args:
        self (Tensor): ``(n, m)``, floating point.
        p (float): the norm's exponent, at least 0 (default 2).

    Example::

        >>> torch.pdist(torch.tensor([[0., 0.], [3., 4.], [6., 8.]]))
        tensor([ 5., 10.,  5.])
    """
    if self.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {self.dim()}D")
    if not self.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return _pdist_forward.call(self.contiguous(), p)


def _pairs(n: int) -> tuple:
    return np.triu_indices(n, 1)


def _p_norm(diff: np.ndarray, p: float) -> np.ndarray:
    """The p-norm of each row of `diff` (p = 0 counts the non-zeros)."""
    magnitude = np.abs(diff)
    if p == 0:
        return np.count_nonzero(magnitude, axis=1).astype(diff.dtype)
    if p == math.inf:
        return magnitude.max(axis=1, initial=0)
    if p == 1:
        return magnitude.sum(axis=1)
    if p == 2:
        return np.sqrt(np.einsum("ij,ij->i", diff, diff))
    return (magnitude ** p).sum(axis=1) ** (1 / p)


@op("_pdist_forward(Tensor self, float p=2.) -> Tensor",
    meta=lambda self, p=2.0: TensorMeta((self._size[0] * (self._size[0] - 1) // 2,),
                                        self._dtype),
    grad={"self": "_pdist_backward(grad, self, p, result)"}, function=False)
def _pdist_forward(self, p, *, out):
    """The kernel of `pdist`: the distances of the row pairs ``i < j``, row-major."""
    refuse(self, "pdist", _NO_PDIST_LOOP)
    first, second = _pairs(self.shape[0])
    compute = np.float64 if self.dtype == np.float64 else np.float32
    rows = self.astype(compute, copy=False)
    out[...] = _p_norm(rows[first] - rows[second], float(p))


def _pair_gradient(diff: np.ndarray, dist: np.ndarray, grad: np.ndarray, p: float):
    """d(distance)/d(diff) times the incoming gradient, per pair (0 where undefined)."""
    with np.errstate(all="ignore"):
        if p == 0:
            return np.zeros_like(diff)
        if p == 1:
            return np.sign(diff) * grad[:, None]
        if p == math.inf:
            return np.sign(diff) * (np.abs(diff) == dist[:, None]) * grad[:, None]
        if p < 2:
            found = np.sign(diff) * np.abs(diff) ** (p - 1) * grad[:, None] \
                / dist[:, None] ** (p - 1)
            return np.where((dist[:, None] == 0) | (diff == 0), 0, found)
        if p == 2:
            found = diff * grad[:, None] / dist[:, None]
        else:
            found = diff * np.abs(diff) ** (p - 2) * grad[:, None] / dist[:, None] ** (p - 1)
        return np.where(dist[:, None] == 0, 0, found)


@op("_pdist_backward(Tensor grad, Tensor self, float p, Tensor pdist) -> Tensor",
    meta=lambda grad, self, p, pdist: TensorMeta(self._size, self._dtype),
    grad={"grad, self, pdist": "not_implemented('_pdist_backward')"}, function=False)
def _pdist_backward(grad, self, p, pdist, *, out):
    """The gradient of `_pdist_forward` for its input: each pair's gradient added to
    its first row and taken from its second."""
    first, second = _pairs(self.shape[0])
    compute = np.float64 if self.dtype == np.float64 else np.float32
    rows = self.astype(compute, copy=False)
    per_pair = _pair_gradient(rows[first] - rows[second], pdist.astype(compute),
                              grad.astype(compute), float(p))
    result = np.zeros(self.shape, compute)
    np.add.at(result, first, per_pair)
    np.subtract.at(result, second, per_pair)
    out[...] = result
