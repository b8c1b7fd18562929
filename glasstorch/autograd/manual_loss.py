"""Derivative helpers of the losses (aten/native/loss_*.py), as torch's FunctionsManual.

First derivatives that are not dedicated backward operators (the targets of the binary
cross entropies), and the second derivatives: the gradients of the backward operators
(`mse_loss_backward`...) for their `grad_output`, `self` and `target`. All are written
in torch operators, so they are differentiable again. `reduction` is ATen's enum
(0 none, 1 mean, 2 sum); a mean divides every element's gradient by the element count.
"""
from __future__ import annotations

import glasstorch as torch

_MEAN = 1
_NONE = 0
_EPSILON = 1e-12          # keeps torch's binary cross entropy gradients finite at 0 and 1


def _mean_divided(gradient, reduction: int, count: int):
    return gradient / count if reduction == _MEAN else gradient


def _weighted(gradient, weight):
    return gradient if weight is None else gradient * weight


def _grad_output_gradient(backward, grad, grad_output, reduction: int, *args):
    """The gradient of a pointwise loss's backward operator for its `grad_output`: the
    backward itself, contracted with `grad` when the loss was reduced to one number."""
    if reduction == _NONE:
        return backward(grad, *args)
    slope = backward(torch.ones_like(grad_output), *args)
    return (slope * grad).sum()


def mse_loss_double_backward(grad, self, reduction: int):
    """d(mse_loss_backward)/d(self) applied to `grad` (already times grad_output)."""
    return _mean_divided(2 * grad, reduction, self.numel())


def mse_loss_double_backward_grad_output(grad, grad_output, self, target, reduction: int):
    return _grad_output_gradient(torch.ops.aten.mse_loss_backward, grad, grad_output,
                                 reduction, self, target, reduction)


def smooth_l1_loss_double_backward(grad, self, target, reduction: int, beta: float):
    """Inside the quadratic zone the slope changes at 1 / beta, outside not at all."""
    if beta == 0:
        return torch.zeros_like(grad)
    inside = ((self - target).abs() < beta).to(grad.dtype)
    return _mean_divided(grad * inside / beta, reduction, self.numel())


def smooth_l1_loss_double_backward_grad_output(grad, grad_output, self, target,
                                               reduction: int, beta: float):
    return _grad_output_gradient(torch.ops.aten.smooth_l1_loss_backward, grad, grad_output,
                                 reduction, self, target, reduction, beta)


def huber_loss_double_backward(grad, self, target, reduction: int, delta: float):
    """Inside the quadratic zone the slope changes at 1, outside not at all."""
    inside = (self - target).abs() < delta
    return _mean_divided(grad * inside, reduction, self.numel())


def huber_loss_double_backward_grad_output(grad, grad_output, self, target,
                                           reduction: int, delta: float):
    return _grad_output_gradient(torch.ops.aten.huber_loss_backward, grad, grad_output,
                                 reduction, self, target, reduction, delta)


# ----------------------------------------------------------------------------------
# Binary cross entropy (on probabilities)
# ----------------------------------------------------------------------------------
def binary_cross_entropy_target_backward(grad, self, target, weight, reduction: int):
    """d/d(target) of ``-(t log x + (1 - t) log(1 - x))`` is ``-logit(x)``."""
    gradient = _weighted(-self.logit() * grad, weight)
    return _mean_divided(gradient, reduction, target.numel())


def binary_cross_entropy_double_backward(grad_output, grad, self, target, weight,
                                         reduction: int):
    """d/d(self) of the first derivative ``(x - t) / (x (1 - x))``."""
    numerator = self * self - 2 * self * target + target
    denominator = (self + _EPSILON).pow(2) * (1 - self + _EPSILON).pow(2)
    gradient = _weighted(numerator / denominator * (grad * grad_output), weight)
    return _mean_divided(gradient, reduction, self.numel())


def binary_cross_entropy_double_backward_target(grad, grad_output, self, target, weight,
                                                reduction: int):
    """d/d(target) of the first derivative: ``-1 / (x (1 - x))``."""
    gradient = _weighted(-grad * grad_output, weight)
    denominator = ((1 - self) * self).clamp_min(_EPSILON)
    return _mean_divided(gradient / denominator, reduction, target.numel())


def binary_cross_entropy_double_backward_grad_output(grad, self, target, weight,
                                                     reduction: int):
    """The first derivative itself, applied to `grad`."""
    slope = (self - target) / ((self + _EPSILON) * (1 - self + _EPSILON))
    return _mean_divided(_weighted(slope * grad, weight), reduction, self.numel())


# ----------------------------------------------------------------------------------
# Binary cross entropy with logits
# ----------------------------------------------------------------------------------
def binary_cross_entropy_with_logits_backward(grad, self, target, weight, pos_weight,
                                              reduction: int):
    """``(sigmoid(x) - t)`` times the weights; with `pos_weight` p:
    ``(1 + (p - 1) t) sigmoid(x) - p t``."""
    if pos_weight is not None:
        weighted_target = pos_weight * target
        slope = (weighted_target + 1 - target) * self.sigmoid() - weighted_target
    else:
        slope = self.sigmoid() - target
    gradient = _weighted(slope * grad, weight)
    return _mean_divided(gradient, reduction, self.numel())


def binary_cross_entropy_with_logits_target_backward(grad, self, target, weight, pos_weight,
                                                     reduction: int):
    """d/d(target): ``-x``, or ``log_sigmoid(-x) - p log_sigmoid(x)`` with `pos_weight`."""
    if pos_weight is not None:
        slope = _log_sigmoid(-self) - _log_sigmoid(self) * pos_weight
    else:
        slope = -self
    gradient = _weighted(slope * grad, weight)
    return _mean_divided(gradient, reduction, target.numel())


def _log_sigmoid(x):
    """``log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))``, without overflow."""
    return x.clamp_max(0) - (-x.abs()).exp().log1p()
