"""torch.nn.functional.linear_cross_entropy: a linear layer's logits and the cross
entropy of them in one call, Python-level in torch too.

torch's optional ``options`` select a chunked evaluation that never holds every logit at
once, a memory saving with the same loss; glasstorch computes the logits in one piece.
The chunked path (class indices, no label smoothing, no K-dimensional logits) reads
the class weights as constants where `cross_entropy` refuses weights that require grad:
`_weighted_nll` writes that loss in tensor operations.
"""
from __future__ import annotations

import math

import glasstorch as torch

from .loss import cross_entropy

__all__ = ["linear_cross_entropy"]

Tensor = torch.Tensor


def _logits_shape(input: Tensor, linear_weight: Tensor, linear_bias) -> tuple:
    """torch's checks of the operands' shapes, in its order; the logits' shape
    ``(*batch, classes, *out_features)``."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.dim()}")
    batch, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(f"expected equal input and linear_weight last dimensions "
                           f"(in_features), got {in_features} and {linear_weight.shape[-1]}, "
                           f"respectively")
    classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(classes, *out_features)}, got "
                           f"{tuple(linear_bias.shape)}")
    if out_features and not batch:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape "
                           f"{tuple(linear_weight.shape)} requires batched input, "
                           f"(N, {in_features}), got unbatched input with shape "
                           f"{tuple(input.shape)}")
    return (*batch, classes, *out_features)


def linear_cross_entropy(input: Tensor, linear_weight: Tensor, target: Tensor, *,
                         linear_bias: Tensor | None = None, weight: Tensor | None = None,
                         reduction: str = "mean", ignore_index: int | None = None,
                         label_smoothing: float = 0.0, options=None) -> Tensor:
    """The cross entropy of the logits ``input @ linear_weight.T + linear_bias`` (see
    `torch.nn.LinearCrossEntropyLoss`).

    Args:
        input (Tensor): features ``(N, in_features)`` or ``(in_features)``.
        linear_weight (Tensor): ``(classes, *out_features, in_features)``.
        target (Tensor): class indices, or class probabilities of the logits' shape.
        linear_bias (Tensor, optional): ``(classes, *out_features)``.
        weight (Tensor, optional): a weight per class.
        reduction (str): 'none' | 'mean' | 'sum'. Default: 'mean'.
        ignore_index (int, optional): a class index that contributes nothing (indices
            only). Default: -100.
        label_smoothing (float): as for `cross_entropy`. Default: 0.
        options (optional): torch's chunking options (the loss is the same without).

    Example::

        >>> F.linear_cross_entropy(torch.tensor([[1., 0.]]), torch.eye(2), torch.tensor([0]))
        tensor(0.3133)
    """
    logits_shape = _logits_shape(input, linear_weight, linear_bias)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains "
                           "probabilities")
    classes, in_features = linear_weight.shape[0], input.shape[-1]
    out_features = logits_shape[input.dim():]
    if out_features:
        linear_weight = linear_weight.reshape((math.prod(out_features, start=classes),
                                               in_features))
        if linear_bias is not None:
            linear_bias = linear_bias.reshape(math.prod(out_features, start=classes))
    logits = torch.nn.functional.linear(input, linear_weight, linear_bias).reshape(logits_shape)
    if (options is not None and reduction in ("mean", "sum", "none") and not out_features
            and label_smoothing == 0.0 and target.dtype == torch.int64):
        return _weighted_nll(logits, target, weight, reduction,
                             -100 if ignore_index is None else ignore_index)
    return cross_entropy(logits, target, weight=weight, reduction=reduction,
                         ignore_index=-100 if ignore_index is None else ignore_index,
                         label_smoothing=label_smoothing)


def _weighted_nll(logits: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                  ignore_index: int) -> Tensor:
    """The cross entropy of class indices with constant class weights: each kept
    sample's ``-weight[t] log_softmax(logits)[t]``, a mean dividing by the kept samples'
    weights."""
    kept = target != ignore_index
    safe = torch.where(kept, target, 0)
    picked = logits.log_softmax(-1).gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    scale = kept.to(logits.dtype) if weight is None else weight.detach()[safe] * kept
    losses = -picked * scale
    if reduction == "none":
        return losses
    return losses.sum() / scale.sum() if reduction == "mean" else losses.sum()
