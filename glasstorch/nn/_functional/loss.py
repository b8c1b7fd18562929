"""torch.nn.functional's loss functions: the reduction string (or the legacy
``size_average`` / ``reduce`` flags) turned into ATen's enum, torch's Python-level checks
and warnings, then the operators of `aten/native/loss_*.py`.

The weighted regression forms (``mse_loss(..., weight=)``, ``l1_loss``, ``huber_loss``)
and ``kl_div``'s 'batchmean' are Python-level in torch too, written in tensor operations.
"""
from __future__ import annotations

import warnings

import glasstorch as torch

from ...aten.binding import get_binding
from .. import _reduction

__all__ = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy", "nll_loss",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
           "soft_margin_loss"]

Tensor = torch.Tensor


def _nn(name: str):
    """The binding of an operator declared with ``python_module="nn"`` (torch._C._nn)."""
    return get_binding("nn", name)


def _reduction_of(size_average, reduce, reduction: str) -> str:
    if size_average is not None or reduce is not None:
        return _reduction.legacy_get_string(size_average, reduce)
    return reduction


def _warn_target_size(input: Tensor, target: Tensor, stacklevel: int = 3) -> None:
    """torch's warning when a pointwise loss is about to broadcast its target (attributed
    to the caller of the F function, `stacklevel` frames up)."""
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input "
                      f"size ({input.size()}). This will likely lead to incorrect results due "
                      f"to broadcasting. Please ensure they have the same size.", stacklevel=stacklevel)


def _weighted_reduction(losses: Tensor, weight: Tensor, reduction: str,
                        mean_over_weight: bool = True) -> Tensor:
    """The reduction of elementwise losses times `weight`, as torch's Python forms do: a
    mean divides by the weights' sum (or counts elements, for huber_loss)."""
    weighted = losses * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return torch.sum(weighted)
    if reduction == "mean":
        return torch.sum(weighted) / torch.sum(weight) if mean_over_weight else weighted.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', "
                     f"'sum'.")


def _check_weight_size(weight: Tensor, input: Tensor) -> None:
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")


# ----------------------------------------------------------------------------------
# Regression
# ----------------------------------------------------------------------------------
def _elementwise_loss(name: str, of_difference, input: Tensor, target: Tensor,
                      reduction: str, weight: Tensor | None) -> Tensor:
    """The operator `name` on input and target broadcast together; with a `weight`, the
    per-element losses ``of_difference(input - target)`` weighted, then reduced."""
    _warn_target_size(input, target, stacklevel=4)
    expanded_input, expanded_target = (input, target) if input._size == target._size else \
        torch.broadcast_tensors(input, target)      # which gives same-shaped tensors back
    if weight is None:
        return _nn(name)(expanded_input, expanded_target, _reduction.get_enum(reduction))
    _check_weight_size(weight, input)
    return _weighted_reduction(of_difference(expanded_input - expanded_target), weight,
                               reduction)


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
             reduce: bool | None = None, reduction: str = "mean",
             weight: Tensor | None = None) -> Tensor:
    """The mean squared error ``(input - target)^2`` (see `torch.nn.MSELoss`).

    Args:
        input (Tensor): the predictions.
        target (Tensor): the targets, of the input's size (others broadcast, with a
            warning).
        size_average (bool, optional): deprecated (see `reduction`).
        reduce (bool, optional): deprecated (see `reduction`).
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        weight (Tensor, optional): a weight per element, of the input's size; a mean
            then divides by the weights' sum.

    Example::

        >>> F.mse_loss(torch.tensor([1., 2.]), torch.tensor([0., 4.]))
        tensor(2.5000)
    """
    return _elementwise_loss("mse_loss", lambda d: torch.pow(d, 2), input, target,
                             _reduction_of(size_average, reduce, reduction), weight)


def l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
            reduce: bool | None = None, reduction: str = "mean",
            weight: Tensor | None = None) -> Tensor:
    """The mean absolute error ``|input - target|`` (see `torch.nn.L1Loss`).

    Args:
        input (Tensor): the predictions.
        target (Tensor): the targets, of the input's size (others broadcast, with a
            warning).
        size_average (bool, optional): deprecated (see `reduction`).
        reduce (bool, optional): deprecated (see `reduction`).
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        weight (Tensor, optional): a weight per element, of the input's size; a mean
            then divides by the weights' sum.

    Example::

        >>> F.l1_loss(torch.tensor([1., 2.]), torch.tensor([0., 4.]))
        tensor(1.5000)
    """
    return _elementwise_loss("l1_loss", torch.abs, input, target,
                             _reduction_of(size_average, reduce, reduction), weight)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                   reduce: bool | None = None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """The smooth L1 loss: quadratic (over `beta`) below `beta`, linear above (see
    `torch.nn.SmoothL1Loss`); ``beta=0`` is the L1 loss.

    Example::

        >>> F.smooth_l1_loss(torch.tensor([0.5, 3.]), torch.zeros(2), reduction='none')
        tensor([0.1250, 2.5000])
    """
    _warn_target_size(input, target)
    reduction = _reduction_of(size_average, reduce, reduction)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    if beta == 0.0:
        return _nn("l1_loss")(expanded_input, expanded_target, _reduction.get_enum(reduction))
    return _nn("smooth_l1_loss")(expanded_input, expanded_target,
                                 _reduction.get_enum(reduction), beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """The Huber loss: quadratic below `delta`, linear (with slope `delta`) above (see
    `torch.nn.HuberLoss`).

    Args:
        weight (Tensor, optional): a weight per element, of the input's size; a mean
            then averages the weighted losses.

    Example::

        >>> F.huber_loss(torch.tensor([0.5, 3.]), torch.zeros(2), reduction='none', delta=2.)
        tensor([0.1250, 4.0000])
    """
    _warn_target_size(input, target)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    if weight is None:
        return _nn("huber_loss")(expanded_input, expanded_target,
                                 _reduction.get_enum(reduction), delta)
    _check_weight_size(weight, input)
    losses = _nn("huber_loss")(expanded_input, expanded_target, _reduction.get_enum("none"),
                               delta)
    return _weighted_reduction(losses, weight, reduction, mean_over_weight=False)


def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None,
           reduce: bool | None = None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """The Kullback-Leibler divergence of `target` from `input` (log-probabilities; see
    `torch.nn.KLDivLoss`). 'batchmean' divides the sum by the batch size, which is the
    divergence's mathematical definition; 'mean' (averaging over every element) warns.

    Example::

        >>> F.kl_div(torch.tensor([[0.5, 0.5]]).log(), torch.tensor([[0.25, 0.75]]),
        ...          reduction='batchmean')
        tensor(0.1308)
    """
    if size_average is not None or reduce is not None:
        reduction_enum = _reduction.legacy_get_enum(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and "
                          "the support size.'batchmean' divides only by the batch size, and "
                          "aligns with the KL div math definition.'mean' will be changed to "
                          "behave the same as 'batchmean' in the next major release.",
                          stacklevel=2)
        reduction_enum = _reduction.get_enum("sum" if reduction == "batchmean" else reduction)
    reduced = torch.kl_div(input, target, reduction_enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


# ----------------------------------------------------------------------------------
# Classification
# ----------------------------------------------------------------------------------
def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """The cross entropy between ``softmax(input)`` over the class dim and `target`
    (see `torch.nn.CrossEntropyLoss`).

    Args:
        input (Tensor): logits ``(C)``, ``(N, C)`` or ``(N, C, d1, ..., dK)``.
        target (Tensor): class indices (int64, the input's shape without C) or class
            probabilities (floating point, the input's shape).
        weight (Tensor, optional): a weight per class, ``(C)``.
        size_average (bool, optional): deprecated (see `reduction`).
        ignore_index (int): a class index that contributes nothing (indices only).
        reduce (bool, optional): deprecated (see `reduction`).
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        label_smoothing (float): the share in [0, 1] of the target spread uniformly over
            the classes. Default: 0.0.

    Example::

        >>> F.cross_entropy(torch.tensor([[0., 0.], [0., 2.]]), torch.tensor([0, 1]))
        tensor(0.4100)
    """
    reduction = _reduction_of(size_average, reduce, reduction)
    return _nn("cross_entropy_loss")(input, target, weight, _reduction.get_enum(reduction),
                                     ignore_index, label_smoothing)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             size_average: bool | None = None, ignore_index: int = -100,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The negative log likelihood of class indices `target` under log-probabilities
    `input` (see `torch.nn.NLLLoss`).

    Args:
        input (Tensor): log-probabilities ``(C)``, ``(N, C)`` or ``(N, C, d1, ..., dK)``.
        target (Tensor): class indices (int64), the input's shape without C.
        weight (Tensor, optional): a weight per class, ``(C)``.
        ignore_index (int): a class index that contributes nothing.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> F.nll_loss(torch.tensor([[-1., -2.], [-3., -4.]]), torch.tensor([0, 1]))
        tensor(2.5000)
    """
    reduction = _reduction_of(size_average, reduce, reduction)
    return _nn("nll_loss_nd")(input, target, weight, _reduction.get_enum(reduction),
                              ignore_index)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """The binary cross entropy of probabilities `input` against `target` (see
    `torch.nn.BCELoss`); the logarithms are clamped at -100.

    Args:
        input (Tensor): probabilities in [0, 1].
        target (Tensor): targets in [0, 1], of the input's size.
        weight (Tensor, optional): a weight per element, broadcast to the target's size.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.

    Example::

        >>> F.binary_cross_entropy(torch.tensor([0.5, 1.]), torch.tensor([1., 0.]))
        tensor(50.3466)
    """
    if size_average is not None or reduce is not None:
        reduction_enum = _reduction.legacy_get_enum(size_average, reduce)
    else:
        reduction_enum = _reduction.get_enum(reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the "
                         f"input size ({input.size()}) is deprecated. Please ensure they have "
                         f"the same size.")
    if weight is not None:
        weight = weight.expand(torch.broadcast_shapes(target.size(), weight.size()))
    return _nn("binary_cross_entropy")(input, target, weight, reduction_enum)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None,
                                     size_average: bool | None = None,
                                     reduce: bool | None = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """The binary cross entropy of ``sigmoid(input)`` against `target`, computed from the
    logits without overflow (see `torch.nn.BCEWithLogitsLoss`).

    Args:
        input (Tensor): logits.
        target (Tensor): targets in [0, 1], of the input's size.
        weight (Tensor, optional): a weight per element, broadcast to the input.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        pos_weight (Tensor, optional): a weight of the positive term per class, broadcast
            along the last dim.

    Example::

        >>> F.binary_cross_entropy_with_logits(torch.tensor([0., 100.]), torch.tensor([1., 0.]))
        tensor(50.3466)
    """
    if size_average is not None or reduce is not None:
        reduction_enum = _reduction.legacy_get_enum(size_average, reduce)
    else:
        reduction_enum = _reduction.get_enum(reduction)
    if not (target.size() == input.size()):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({input.size()})")
    return torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                  reduction_enum)


def soft_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The two-class logistic loss ``log(1 + exp(-target * input))`` of logits against
    targets of 1 or -1 (see `torch.nn.SoftMarginLoss`).

    Example::

        >>> F.soft_margin_loss(torch.tensor([2., -1.]), torch.tensor([1., 1.]))
        tensor(0.7201)
    """
    return _nn("soft_margin_loss")(input, target, _reduction.get_enum(
        _reduction_of(size_average, reduce, reduction)))
