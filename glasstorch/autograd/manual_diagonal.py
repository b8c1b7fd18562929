"""Derivatives of the diagonal family (diag, trace, as_strided_scatter), too long for
one formula line; re-exported by `manual.py`, where formulas look names up.

Each is the adjoint of its forward: what the forward reads from a diagonal (or a
strided part), the backward writes there into zeros, and the other way round.
"""
from __future__ import annotations

import glasstorch as torch


def diag_backward(grad, sizes, diagonal: int):
    """`diag` of a vector made a matrix: the gradient is that matrix's diagonal. `diag`
    of a matrix read its diagonal: the gradient is zeros with `grad` on it."""
    if len(sizes) == 1:
        return grad.diagonal(diagonal)
    return torch.diagonal_scatter(grad.new_zeros(sizes), grad, diagonal)


def trace_backward(grad, sizes):
    """Every element of the main diagonal contributed once to the sum."""
    return torch.diagonal_scatter(grad.new_zeros(sizes), grad.expand(min(sizes)))


def as_strided_scatter_backward(grad, sizes, size, stride, storage_offset):
    """What torch's autograd gives `input` (for the contiguous inputs it allows): zeros
    of the input's sizes holding, in the written part, `grad`'s values there. (The
    written part's own gradient goes to `src`; torch's formula places a copy here too,
    and glasstorch follows it.)"""
    part = grad.contiguous().as_strided(size, stride, storage_offset)
    return torch.as_strided_scatter(grad.new_zeros(sizes), part, size, stride, storage_offset)


def slice_part(grad, dim: int, start, end, step: int):
    """``grad[start:end:step]`` along `dim`: the gradient of `slice_scatter`'s `src`."""
    return torch.ops.aten.slice.Tensor(grad, dim, start, end, step)
