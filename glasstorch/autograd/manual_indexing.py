"""Derivatives of the indexing operators (take_along_dim, scatter_reduce, index_reduce,
masked_scatter, masked_select), too long for one formula line: torch's FunctionsManual
for them, re-exported by `manual.py` where formulas look names up.

Each sends the incoming gradient back to the elements the forward call read, with the
inverse indexing operator (gather <-> scatter_add, masked_select <-> masked_scatter).
Written in torch operators, so they are differentiable again.
"""
from __future__ import annotations

import glasstorch as torch

from .engine import sum_to


def take_along_dim_backward(grad, self, indices, dim):
    """Add the gradient back along `dim` (summed over the dims self was broadcast in)."""
    if dim is None:
        return self.new_zeros(self.shape).put(indices.reshape(-1), grad.reshape(-1), True)
    shape = list(grad.shape)
    shape[dim] = self.shape[dim]
    wrapped = indices.remainder(self.shape[dim]).expand(grad.shape)
    full = grad.new_zeros(shape).scatter_add(dim, wrapped, grad)
    return sum_to(full, self.shape)


def scatter_reduce_backward(grad, self, dim, index, src, reduce, include_self, result):
    """Gradients of `scatter_reduce` for self and src: ``(grad_self, grad_src)``.

    sum passes the gradient through; mean divides it by each position's count; prod
    multiplies it by the product of the other factors (result / factor, so exact for
    nonzero factors); amax / amin share it evenly among the values equal to the
    result, as torch does. Positions `include_self=False` overwrote get no gradient
    for self.
    """
    if reduce == "sum":
        grad_self = grad if include_self else grad.scatter(dim, index, 0)
        return grad_self, grad.gather(dim, index)
    if reduce == "mean":
        counts = self.new_ones(self.shape) if include_self else self.new_zeros(self.shape)
        counts = counts.scatter_add(dim, index, src.new_ones(src.shape)).clamp(min=1)
        share = grad / counts
        grad_self = share if include_self else share.scatter(dim, index, 0)
        return grad_self, share.gather(dim, index)
    if reduce == "prod":
        grad_self = grad * result / self if include_self else grad.scatter(dim, index, 0)
        return grad_self, (grad * result).gather(dim, index) / src
    chosen_src = (src == result.gather(dim, index)).to(grad.dtype)
    if include_self:
        chosen_self = (self == result).to(grad.dtype)
        ties = chosen_self.scatter_add(dim, index, chosen_src)
    else:
        ties = self.new_zeros(self.shape).scatter_add(dim, index, chosen_src)
    share = grad / ties.clamp(min=1)
    grad_self = share * chosen_self if include_self else grad.scatter(dim, index, 0)
    return grad_self, share.gather(dim, index) * chosen_src


def index_reduce_backward(grad, self, dim, index, source, reduce, include_self, result):
    """Gradients of `index_reduce`: `scatter_reduce_backward` with the index spread over
    each slice of `source`."""
    shape = [1] * source.dim()
    if shape:                       # (a 0-dim source takes its one index as it is)
        shape[dim] = index.numel()
    spread = index.reshape(shape).expand(source.shape)
    return scatter_reduce_backward(grad, self, dim, spread, source, reduce, include_self,
                                   result)


def masked_scatter_backward(grad, mask, sizes):
    """The gradient of masked_scatter's source: the masked elements of `grad`, in order,
    padded with zeros to source's size."""
    taken = grad.masked_select(mask)
    total = 1
    for n in sizes:
        total *= n
    taken = taken[:total]
    positions = torch.arange(taken.numel())
    return grad.new_zeros((total,)).index_copy(0, positions, taken).reshape(sizes)


def masked_select_backward(grad, self, mask):
    """Each gradient element back where masked_select read it (summed over the dims
    self was broadcast in)."""
    full = torch.zeros_like(self).masked_fill(mask, 0)        # the broadcast shape
    return sum_to(full.masked_scatter(mask, grad), self.shape)
