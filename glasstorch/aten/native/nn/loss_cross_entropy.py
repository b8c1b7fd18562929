"""cross_entropy_loss: log_softmax over the class dim, then the negative log likelihood.

A composite, as in torch, with three routes picked by the target:

- class indices (the usual case): ``nll_loss_nd(log_softmax(input, class_dim), target)``,
  so autograd records `NllLossBackward0` over `LogSoftmaxBackward0`, two fused kernels
  each way;
- class indices with ``label_smoothing`` ε > 0: ``(1 - ε)`` times that loss plus ``ε / C``
  times the loss against a uniform target (``-sum(log_softmax * weight)`` per position,
  zero where the target is ignored, reduced as the nll loss is: a weighted mean divides
  by the weights of the non-ignored targets);
- class probabilities (a target of the input's shape, floating point):
  ``-sum(target * log_softmax * weight)`` over the class dim, the target smoothed to
  ``target (1 - ε) + ε / C`` first; a mean divides by the number of positions.

The class dim is 1, or 0 for an unbatched ``(C)`` input.
"""
from __future__ import annotations

from ....c10.dtype import scalar_type_name
from ...dispatcher import ops
from ...registry import composite
from ..pointwise.binary_scalar import add_scalar, div_scalar, mul_scalar
from .loss_nll import nll_loss_nd
from .loss_regression import MEAN, NONE, SUM

_aten = ops.aten


@composite("cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, "
           "int reduction=1, SymInt ignore_index=-100, float label_smoothing=0.0) -> Tensor",
           python_module="nn")
def cross_entropy_loss(self, target, weight=None, reduction=MEAN, ignore_index=-100,
                       label_smoothing=0.0):
    """The cross entropy between the softmax of the logits `input` and `target`.

    Args:
        input (Tensor): logits ``(C)``, ``(N, C)`` or ``(N, C, d1, ..., dK)``.
        target (Tensor): class indices (int64 or uint8, the input's shape without C) or
            class probabilities (floating point, the input's shape).
        weight (Tensor, optional): a weight per class, ``(C)``.
        reduction (int): 0 none, 1 mean, 2 sum.
        ignore_index (int): a class index whose positions count for nothing.
        label_smoothing (float): the share ε in [0, 1] of the target spread uniformly.

    Example::

        >>> torch.ops.aten.cross_entropy_loss(torch.tensor([[0., 0.], [0., 2.]]),
        ...                                   torch.tensor([0, 1]))
        tensor(0.4100)
    """
    class_dim = 0 if self.dim() == 1 else 1
    if self._size == target._size:
        return _probability_target(self, target, weight, reduction, ignore_index,
                                   label_smoothing, class_dim)
    if label_smoothing > 0.0:
        _check_smoothing(label_smoothing)
        return _smoothed_indices(self, target, weight, reduction, ignore_index,
                                 label_smoothing, class_dim)
    log_probabilities = _aten.log_softmax.int.call(self, class_dim, self._dtype)
    return nll_loss_nd.call(log_probabilities, target, weight, reduction, ignore_index)


def _check_smoothing(label_smoothing: float) -> None:
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing:g}")


def _class_weights(weight, ndim: int, class_dim: int):
    """`weight` shaped to broadcast along the class dim of an `ndim`-dim input."""
    if ndim <= 1:
        return weight
    shape = [1] * ndim
    shape[class_dim] = weight._size[0]
    return weight.view(shape)


def _probability_target(self, target, weight, reduction, ignore_index, label_smoothing,
                        class_dim):
    """The loss against class probabilities (the target has the input's shape)."""
    if not target.is_floating_point():
        raise RuntimeError(f"Expected floating point type for target with class "
                           f"probabilities, got {scalar_type_name(target._dtype)}")
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    classes = self._size[class_dim]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all "
                           f"{classes} classes or no classes but got weight tensor of shape: "
                           f"{list(weight._size)}")
    log_probabilities = _aten.log_softmax.int.call(self, class_dim, self._dtype)
    if label_smoothing > 0.0:
        _check_smoothing(label_smoothing)
        target = add_scalar.call(mul_scalar.call(target, 1 - label_smoothing),
                                 label_smoothing / classes, 1)
    products = log_probabilities * target
    if weight is not None:
        products = products * _class_weights(weight, self.dim(), class_dim)
    if reduction == MEAN:
        if self.numel() == 0:
            return -products.sum().fill_(float("nan"))
        return div_scalar.call(-products.sum(), self.numel() // classes)
    if reduction == SUM:
        return -products.sum()
    return -products.sum(class_dim)


def _smoothed_indices(self, target, weight, reduction, ignore_index, label_smoothing,
                      class_dim):
    """``(1 - ε) nll + ε / C * smooth``, where `smooth` is the loss against a uniform
    target."""
    log_probabilities = _aten.log_softmax.int.call(self, class_dim, self._dtype)
    nll = nll_loss_nd.call(log_probabilities, target, weight, reduction, ignore_index)
    ignored = target == ignore_index
    if weight is not None:
        weighted = log_probabilities * _class_weights(weight, self.dim(), class_dim)
        smooth = -weighted.sum(class_dim)
    else:
        smooth = -log_probabilities.sum(class_dim)
    smooth = smooth.masked_fill(ignored, 0.0)
    if reduction == MEAN:
        if weight is not None:      # the weights of the kept targets (no data-sized select)
            kept = target.masked_fill(ignored, 0).flatten()
            picked = weight.gather(0, kept).masked_fill(ignored.flatten(), 0.0)
            smooth = smooth.sum() / picked.sum()
        else:
            smooth = smooth.sum() / ignored.logical_not().sum()
    elif reduction == SUM:
        smooth = smooth.sum()
    elif reduction != NONE:
        raise RuntimeError(f"Invalid reduction type encountered in cross_entropy: {reduction}")
    classes = self._size[class_dim]
    # numbers times tensors, as torch's C++ writes them: the Scalar overloads
    return mul_scalar.call(nll, 1 - label_smoothing) + \
        mul_scalar.call(smooth, label_smoothing / classes)
