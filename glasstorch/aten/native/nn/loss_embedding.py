"""The losses ATen writes in other operators (CompositeImplicitAutograd): margin ranking,
hinge embedding, cosine embedding, Poisson negative log likelihood and triplet margin.

Each body is the chain of tensor operations torch's composite runs, in the same order,
so float32 results round as torch's do, and autograd differentiates the operators the
body decomposes into (no derivative formulas of their own).

Note [Embedding losses]
    These losses compare embeddings, or scores, under a target of 1 (similar, ranked
    first) or -1 (dissimilar, ranked second): ``margin_ranking_loss`` is
    ``max(0, margin - y (x1 - x2))``; ``hinge_embedding_loss`` is x where y = 1 and
    ``max(0, margin - x)`` where y = -1 (a target of neither contributes both terms, as
    torch's two masks do); ``cosine_embedding_loss`` is ``1 - cos`` for y = 1 and
    ``max(0, cos - margin)`` for y = -1, the cosine over the last dim with 1e-12 added
    to each squared norm; ``triplet_margin_loss`` is
    ``max(0, margin + d(a, p) - d(a, n))`` with ``d`` the p-norm of ``x1 - x2 + eps``.
"""
from __future__ import annotations

import math

from ... import functions as at
from ...registry import composite
from .distances import pairwise_distance
from .loss_regression import MEAN, SUM

_COSINE_EPSILON = 1e-12


def _reduced(losses, reduction: int):
    """torch's ``apply_loss_reduction``: a mean, a sum, or the losses as they are."""
    if reduction == MEAN:
        return losses.mean()
    if reduction == SUM:
        return losses.sum()
    return losses


@composite("margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0., "
           "int reduction=1) -> Tensor")
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=MEAN):
    """The ranking loss ``max(0, margin - target (input1 - input2))`` (Note [Embedding
    losses]).

    Args:
        input1 (Tensor): the first scores.
        input2 (Tensor): the second scores, broadcastable with `input1`.
        target (Tensor): 1 where `input1` should rank higher, -1 where `input2` should.
        margin (float): the gap asked for. Default: 0.
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.margin_ranking_loss(torch.tensor([1., 2.]), torch.tensor([2., 1.]),
        ...                           torch.tensor([1., 1.]), 0.5, 0)
        tensor([1.5000, 0.0000])
    """
    return _reduced((-target * (input1 - input2) + margin).clamp_min(0), reduction)


@composite("hinge_embedding_loss(Tensor self, Tensor target, float margin=1., "
           "int reduction=1) -> Tensor")
def hinge_embedding_loss(self, target, margin=1.0, reduction=MEAN):
    """The hinge loss of distances `self` under targets of 1 (the distance itself) or -1
    (``max(0, margin - x)``) (Note [Embedding losses]).

    Args:
        input (Tensor): distances, of any shape.
        target (Tensor): 1 or -1, broadcastable with `input`.
        margin (float): the distance past which dissimilar pairs cost nothing. Default: 1.
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.hinge_embedding_loss(torch.tensor([0.3, 0.3]), torch.tensor([1., -1.]),
        ...                            1.0, 0)
        tensor([0.3000, 0.7000])
    """
    zeros = at.zeros_like(self)
    margin_clamp = (margin - self).clamp_min(0)
    output_margin = at.where(target != 1, margin_clamp, zeros)
    output_self = at.where(target != -1, self, zeros)
    return _reduced(output_margin + output_self, reduction)


def _check_cosine_shapes(input1, input2, target) -> None:
    """A 1-D target pairs rows of 2-D inputs; a 0-D target, two 1-D vectors."""
    if target.dim() not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    expected, wording = (2, "1D target tensor expects 2D") if target.dim() == 1 else (
        1, "0D target tensor expects 1D")
    if input1.dim() != expected or input2.dim() != expected:
        raise RuntimeError(f"{wording} input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")


@composite("cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, "
           "float margin=0., int reduction=1) -> Tensor")
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=MEAN):
    """The cosine embedding loss: ``1 - cos(x1, x2)`` for a target of 1,
    ``max(0, cos(x1, x2) - margin)`` for -1 (Note [Embedding losses]).

    Args:
        input1 (Tensor): embeddings ``(N, D)`` or ``(D)``.
        input2 (Tensor): embeddings of the same shape.
        target (Tensor): 1 or -1, ``(N)`` or ``()``.
        margin (float): the cosine below which dissimilar pairs cost nothing, in
            [-1, 1]. Default: 0.
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.cosine_embedding_loss(torch.tensor([[1., 0.], [1., 0.]]),
        ...                             torch.tensor([[0., 1.], [1., 1.]]),
        ...                             torch.tensor([1., -1.]), 0., 0)
        tensor([1.0000, 0.7071])
    """
    _check_cosine_shapes(input1, input2, target)
    dim = target.dim()
    products = (input1 * input2).sum(dim)
    squares1 = (input1 * input1).sum(dim) + _COSINE_EPSILON
    squares2 = (input2 * input2).sum(dim) + _COSINE_EPSILON
    cosine = products / (squares1 * squares2).sqrt()
    zeros = at.zeros_like(cosine)
    output_pos = at.where(target == 1, 1 - cosine, zeros)
    output_neg = at.where(target == -1, (cosine - margin).clamp_min(0), zeros)
    return _reduced(output_pos + output_neg, reduction)


@composite("poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, "
           "float eps, int reduction) -> Tensor")
def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    """The negative log likelihood of counts `target` under Poisson rates: ``exp(x) - t x``
    for log-rates, ``x - t log(x + eps)`` for rates; `full` adds Stirling's
    approximation of ``log(t!)``, ``t log t - t + log(2 pi t) / 2``, where t > 1.

    Args:
        input (Tensor): the rates, or their logarithms when `log_input`.
        target (Tensor): the observed counts.
        log_input (bool): whether `input` holds log-rates.
        full (bool): whether to add the Stirling term.
        eps (float): added to the rates before their logarithm (not for log-rates).
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.poisson_nll_loss(torch.tensor([0., 1.]), torch.tensor([1., 2.]),
        ...                        True, False, 1e-8, 0)
        tensor([1.0000, 0.7183])
    """
    if log_input:
        loss = at.exp(input) - target * input
    else:
        loss = input - target * at.log(input + eps)
    if full:
        stirling = target * at.log(target) - target + 0.5 * at.log(2 * math.pi * target)
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduced(loss, reduction)


@composite("triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, "
           "float margin=1., float p=2., float eps=1e-06, bool swap=False, "
           "int reduction=1) -> Tensor")
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
                        reduction=MEAN):
    """The triplet loss ``max(0, margin + d(anchor, positive) - d(anchor, negative))``,
    ``d`` the p-norm distance over the last dim (Note [Embedding losses]).

    Args:
        anchor (Tensor): embeddings ``(N, D)`` or ``(D)``.
        positive (Tensor): embeddings like the anchor's, to be near them.
        negative (Tensor): embeddings like the anchor's, to be far from them.
        margin (float): the gap asked for. Default: 1.
        p (float): the norm's degree. Default: 2.
        eps (float): added to the differences. Default: 1e-6.
        swap (bool): whether the negative's distance is the smaller of its distances to
            the anchor and to the positive. Default: False.
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.triplet_margin_loss(torch.zeros(1, 2), torch.ones(1, 2), torch.ones(1, 2) * 2,
        ...                           1., 2., 0., False, 0)
        tensor([0.])
    """
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have "
                           f"the same number of dimensions, but got: anchor {dims[0]}D, "
                           f"positive {dims[1]}D, and negative {dims[2]}D inputs")
    distance_positive = pairwise_distance.call(anchor, positive, p, eps, False)
    distance_negative = pairwise_distance.call(anchor, negative, p, eps, False)
    if swap:
        swapped = pairwise_distance.call(positive, negative, p, eps, False)
        distance_negative = at.min(distance_negative, swapped)
    return _reduced((margin + distance_positive - distance_negative).clamp_min(0), reduction)
