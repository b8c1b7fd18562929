"""Derivatives of the reductions (sum, mean, prod, max, amax, var, std, norm, logsumexp...),
too long for one formula line: torch's FunctionsManual for them, re-exported by
`manual.py` where formulas look names up.

A reduction's gradient first gets its reduced dims back (`restore_reduced_dims`: size
1 where they were dropped), then broadcasts over them. Written in torch operators, so
they are differentiable again.
"""
from __future__ import annotations

import math

import glasstorch as torch

from .engine import sum_to


def _reduced(dim, ndim: int) -> list:
    """The wrapped dims a reduction over `dim` reduced (None or empty: every dim)."""
    if dim is None:
        return list(range(ndim))
    dims = [dim] if isinstance(dim, int) else list(dim)
    if not dims:
        return list(range(ndim))
    return sorted(d % ndim for d in dims) if ndim else []


def restore_reduced_dims(grad, dim, sizes, keepdim: bool):
    """`grad` with size-1 dims where the reduction dropped them (keepdim=False)."""
    if keepdim or not sizes:
        return grad
    for d in _reduced(dim, len(sizes)):
        grad = grad.unsqueeze(d)
    return grad


def _count(sizes, dim) -> int:
    return math.prod(sizes[d] for d in _reduced(dim, len(sizes)))


def sum_backward(grad, sizes, dim, keepdim: bool):
    """Every summed element receives the gradient of its sum."""
    return restore_reduced_dims(grad, dim, tuple(sizes), keepdim).expand(tuple(sizes))


def mean_backward(grad, sizes, dim, numel: int, keepdim: bool):
    """sum's gradient divided by the count of elements each mean averaged."""
    return sum_backward(grad, sizes, dim, keepdim) / max(_count(tuple(sizes), dim), 1)


def nansum_backward(grad, self, dim, keepdim: bool):
    """sum's gradient, except for the NaN elements, which took no part."""
    return sum_backward(grad, self.shape, dim, keepdim) * self.isnan().logical_not()


def nanmean_backward(grad, self, dim, keepdim: bool):
    """nansum's gradient divided by the count of non-NaN elements."""
    present = self.isnan().logical_not()
    count = present.sum(_reduced(dim, self.dim()), keepdim=True)
    return nansum_backward(grad, self, dim, keepdim) / count


def prod_backward(grad, self, result, dim, keepdim: bool):
    """The product of the other elements: result / self where self is not zero; where
    a slice holds one zero, the zero gets the product of the rest and the others 0."""
    if self.dim() == 0:
        return grad
    dims = _reduced(dim, self.dim())
    grad = restore_reduced_dims(grad, dim, tuple(self.shape), keepdim)
    result = restore_reduced_dims(result, dim, tuple(self.shape), keepdim)
    zero = self == 0
    zeros = zero.sum(dims, keepdim=True)
    nonzero = torch.where(zero, torch.ones_like(self), self)
    others = nonzero.reshape(-1).prod() if dim is None else nonzero.prod(dims[0], keepdim=True)
    plain = grad * (result / nonzero).conj()
    single = torch.where(zero, grad * others.conj(), torch.zeros_like(plain))
    return torch.where(zeros == 0, plain, torch.where(zeros == 1, single, torch.zeros_like(plain)))


def evenly_distribute_backward(grad, self, result):
    """max / min of everything: the gradient is shared by the elements equal to the
    result (by the NaNs when the result is NaN)."""
    if result.isnan().item():
        mask = self.isnan()
    else:
        mask = self == result
    return mask * (grad / mask.sum())


def value_selecting_reduction_backward(grad, dim: int, indices, sizes, keepdim: bool):
    """max.dim / min.dim: the gradient goes to the selected index only."""
    sizes = tuple(sizes)
    if not sizes:
        return grad.clone()
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    indices = restore_reduced_dims(indices, dim, sizes, keepdim)
    return torch.zeros(sizes, dtype=grad.dtype).scatter(dim % len(sizes), indices, grad)


def amax_amin_backward(grad, self, result, dim, keepdim: bool):
    """amax / amin: shared evenly by the elements equal to the extreme."""
    sizes = tuple(self.shape)
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    mask = self == restore_reduced_dims(result, dim, sizes, keepdim)
    return mask * grad / mask.sum(_reduced(dim, len(sizes)), keepdim=True)


def aminmax_backward(grad_min, grad_max, self, min, max, dim, keepdim: bool):
    """aminmax: amin's gradient plus amax's."""
    dims = () if dim is None else dim
    return (amax_amin_backward(grad_min, self, min, dims, keepdim) +
            amax_amin_backward(grad_max, self, max, dims, keepdim))


def var_backward(grad, self, dim, correction, keepdim: bool):
    """d var / d x = 2 (x - mean) / (N - correction)."""
    correction = 1 if correction is None else correction
    sizes = tuple(self.shape)
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    mean = self.mean(_reduced(dim, len(sizes)), keepdim=True) if sizes else self
    # torch counts the listed dims only: an empty list counts 1 (it reduced everything)
    listed = math.prod(self.shape) if dim is None else _count(sizes, dim) if dim else 1
    freedom = max(0, listed - correction)
    return (2.0 / freedom if freedom else math.inf) * grad * (self - mean)


def std_backward(grad, self, result, dim, correction, keepdim: bool):
    """std = sqrt(var): var's gradient scaled by 1 / (2 std) (0 where std is 0)."""
    halved = (grad / (result * 2)).masked_fill(result == 0, 0)
    return var_backward(halved, self, dim, correction, keepdim)


def moment_mean_backward(grads, self, spread, dim, correction, keepdim: bool, root: bool):
    """var_mean / std_mean: the spread's gradient plus the mean's."""
    if root:
        first = std_backward(grads[0], self, spread, dim, correction, keepdim)
    else:
        first = var_backward(grads[0], self, dim, correction, keepdim)
    return first + mean_backward(grads[1], self.shape, dim, self.numel(), keepdim)


def norm_backward(grad, self, p, result, dim=None, keepdim: bool = False):
    """The gradient of ||x||_p, per order: 0 has none; 1 is sgn(x); 2 is x / ||x||;
    inf / -inf share it among the extreme elements; others |x|^(p-1) sgn(x) / ||x||^(p-1)."""
    p = 2.0 if p is None else float(p)
    sizes = tuple(self.shape)
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    norm = restore_reduced_dims(result, dim, sizes, keepdim)
    if p == 0:
        return None                        # torch leaves the gradient undefined
    if p == 1:
        return self.sgn() * grad
    if p == 2:
        return self * (grad / norm).masked_fill(norm == 0, 0)
    if math.isinf(p):
        # the extreme elements share it; a NaN norm came from the NaN elements
        mask = (self.abs() == norm) | (self.isnan() & norm.isnan())
        count = mask.sum(_reduced(dim, len(sizes)), keepdim=True)
        return self.sgn() * mask * (grad / count)
    scale = self.abs().pow(p - 1) * grad / norm.pow(p - 1)
    return (self.sgn() * scale).masked_fill(norm == 0, 0)


def logsumexp_backward(grad, self, result, dim, keepdim: bool):
    """d logsumexp / d x = softmax(x) = exp(x - logsumexp)."""
    sizes = tuple(self.shape)
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    return grad * (self - restore_reduced_dims(result, dim, sizes, keepdim)).exp()


def dist_backward(grad, self, other, p, result, sizes):
    """dist = norm(self - other): norm's gradient summed back to one input's `sizes`
    (pass ``-grad`` for `other`); undefined for p = 0, as torch's."""
    found = norm_backward(grad, self - other, p, result)
    return None if found is None else sum_to(found, sizes)
