"""torch.nn.functional's margin, embedding and likelihood losses (CTC's among them): the
reduction string
(or the legacy ``size_average`` / ``reduce`` flags) turned into ATen's enum and torch's
Python-level checks, then the operators of `aten/native/nn/loss_embedding.py` and
`loss_margin.py`; ``gaussian_nll_loss``, ``multilabel_soft_margin_loss`` and
``triplet_margin_with_distance_loss`` are Python-level in torch too, written in tensor
operations.
"""
from __future__ import annotations

import math
from typing import Callable

import glasstorch as torch

from .. import _reduction
from .activation import logsigmoid
from .loss import _nn

__all__ = ["margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
           "poisson_nll_loss", "gaussian_nll_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss", "multilabel_soft_margin_loss",
           "multi_margin_loss", "multilabel_margin_loss", "ctc_loss"]

Tensor = torch.Tensor


def _enum(size_average, reduce, reduction: str) -> int:
    if size_average is not None or reduce is not None:
        return _reduction.legacy_get_enum(size_average, reduce)
    return _reduction.get_enum(reduction)


def _string(size_average, reduce, reduction: str) -> str:
    if size_average is not None or reduce is not None:
        return _reduction.legacy_get_string(size_average, reduce)
    return reduction


def _reduce(loss: Tensor, reduction: str, refusal: str) -> Tensor:
    """A Python-level loss's reduction; other strings are refused with `refusal`."""
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(f"{reduction} {refusal}")


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    """The ranking loss ``max(0, -target (input1 - input2) + margin)`` (see
    `torch.nn.MarginRankingLoss`); the three tensors must have the same rank.

    Example::

        >>> F.margin_ranking_loss(torch.tensor([1., 2.]), torch.tensor([2., 1.]),
        ...                       torch.tensor([1., 1.]), margin=0.5)
        tensor(0.7500)
    """
    enum = _enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.size()}, input2: {input2.size()}, "
                           f"target: {target.size()} ")
    return torch.margin_ranking_loss(input1, input2, target, margin, enum)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """The hinge loss of distances under targets of 1 or -1 (see
    `torch.nn.HingeEmbeddingLoss`).

    Example::

        >>> F.hinge_embedding_loss(torch.tensor([0.3, 0.3]), torch.tensor([1., -1.]))
        tensor(0.5000)
    """
    return torch.hinge_embedding_loss(input, target, margin,
                                      _enum(size_average, reduce, reduction))


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average: bool | None = None, reduce: bool | None = None,
                          reduction: str = "mean") -> Tensor:
    """The cosine embedding loss of pairs under targets of 1 or -1 (see
    `torch.nn.CosineEmbeddingLoss`).

    Example::

        >>> F.cosine_embedding_loss(torch.tensor([[1., 0.]]), torch.tensor([[0., 1.]]),
        ...                         torch.tensor([1.]))
        tensor(1.)
    """
    return torch.cosine_embedding_loss(input1, input2, target, margin,
                                       _enum(size_average, reduce, reduction))


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: bool | None = None, eps: float = 1e-8,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The Poisson negative log likelihood of counts `target` (see
    `torch.nn.PoissonNLLLoss`).

    Example::

        >>> F.poisson_nll_loss(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
        tensor(0.8591)
    """
    reduction = _string(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return torch.poisson_nll_loss(input, target, log_input, full, eps,
                                  _reduction.get_enum(reduction))


def _gaussian_variance(var, input: Tensor) -> Tensor:
    """The variance as a tensor of the input's shape, or one that broadcasts to it
    (missing its last dim, or differing from the input in one dim's size)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * torch.ones_like(input)
    elif torch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.ndim != var.ndim or sum(
                y for x, y in zip(input.size(), var.size()) if x != y) != 1:
            raise ValueError("var is of incorrect size")
    return var


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """The Gaussian negative log likelihood ``(log(var) + (input - target)^2 / var) / 2``
    of `target` under means `input` and variances `var` (see `torch.nn.GaussianNLLLoss`).

    Args:
        var (Tensor or float): the variances (>= 0), clamped at `eps` (without gradient
            through the clamp).
        full (bool): whether to add the constant ``log(2 pi) / 2``. Default: False.

    Example::

        >>> F.gaussian_nll_loss(torch.tensor([1., 2.]), torch.tensor([1., 4.]), 1.)
        tensor(1.)
    """
    var = _gaussian_variance(var, input)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction, "is not valid")


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2, eps: float = 1e-6, swap: bool = False,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    """The triplet loss ``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with
    the p-norm distance (see `torch.nn.TripletMarginLoss`).

    Example::

        >>> F.triplet_margin_loss(torch.zeros(1, 2), torch.ones(1, 2), torch.ones(1, 2) * 2)
        tensor(0.)
    """
    enum = _enum(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return torch.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, enum)


def triplet_margin_with_distance_loss(
        anchor: Tensor, positive: Tensor, negative: Tensor, *,
        distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0, swap: bool = False, reduction: str = "mean") -> Tensor:
    """The triplet loss with any distance function (default: `torch.pairwise_distance`;
    see `torch.nn.TripletMarginWithDistanceLoss`).

    Example::

        >>> F.triplet_margin_with_distance_loss(
        ...     torch.zeros(1, 2), torch.ones(1, 2), torch.ones(1, 2) * 2,
        ...     distance_function=lambda a, b: (a - b).abs().sum(-1))
        tensor(0.)
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.ndim, positive.ndim, negative.ndim)
    if len(set(dims)) != 1:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have "
                           f"the same number of dimensions, but got: anchor {dims[0]}D, "
                           f"positive {dims[1]}D, and negative {dims[2]}D inputs")
    distance = torch.pairwise_distance if distance_function is None else distance_function
    distance_positive = distance(anchor, positive)
    distance_negative = distance(anchor, negative)
    if swap:
        distance_negative = torch.minimum(distance_negative, distance(positive, negative))
    return _reduce(torch.clamp_min(margin + distance_positive - distance_negative, 0),
                   reduction, "is not a valid value for reduction")


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average: bool | None = None, reduce: bool | None = None,
                                reduction: str = "mean") -> Tensor:
    """The binary cross entropy of each class's logit against a target of 0 or 1,
    averaged over the classes (the last dim; see `torch.nn.MultiLabelSoftMarginLoss`).

    Example::

        >>> F.multilabel_soft_margin_loss(torch.tensor([[0., 2.]]), torch.tensor([[1., 0.]]))
        tensor(1.4100)
    """
    reduction = _string(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    return _reduce(loss, reduction, "is not valid")


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, size_average: bool | None = None,
                      reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The multi-class margin (hinge) loss of class scores against target classes (see
    `torch.nn.MultiMarginLoss`).

    Example::

        >>> F.multi_margin_loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([3]))
        tensor(0.3250)
    """
    enum = _enum(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    return _nn("multi_margin_loss")(input, target, p, margin, weight, enum)


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                           reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The multi-label margin loss of class scores against lists of target classes,
    each ended by -1 (see `torch.nn.MultiLabelMarginLoss`).

    Example::

        >>> F.multilabel_margin_loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]),
        ...                          torch.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """
    return _nn("multilabel_margin_loss")(input, target, _enum(size_average, reduce, reduction))


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """The connectionist temporal classification loss of unaligned label sequences under
    per-step log probabilities (see `torch.nn.CTCLoss`).

    Args:
        log_probs (Tensor): ``(T, N, C)`` or unbatched ``(T, C)`` log probabilities
            (e.g. from `log_softmax`).
        targets (Tensor): ``(N, S)`` padded targets or their 1-D concatenation.
        input_lengths (Tensor or tuple of int): the steps of each input (at most T).
        target_lengths (Tensor or tuple of int): the labels of each target.
        blank (int): the blank label (default 0).
        reduction (str): 'none' | 'mean' (each loss divided by its target length, then
            averaged) | 'sum'. Default: 'mean'.
        zero_infinity (bool): infinite losses (inputs too short for their targets) and
            their gradients become 0 (default False).

    Example::

        >>> lp = torch.tensor([[[0.5, 0.5]], [[0.5, 0.5]]]).log()
        >>> F.ctc_loss(lp, torch.tensor([[1]]), (2,), (1,))
        tensor(0.2877)
    """
    return torch.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                          _reduction.get_enum(reduction), zero_infinity)
