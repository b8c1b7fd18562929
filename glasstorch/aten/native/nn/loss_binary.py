"""The two-class losses: binary cross entropy on probabilities (binary_cross_entropy and
its backward operator) and on logits (binary_cross_entropy_with_logits), and the soft
margin loss of logits against targets of ±1 (soft_margin_loss and its backward operator).

Note [Binary cross entropy]
    For a probability ``x`` of the positive class and a target ``t`` in [0, 1], the loss
    is ``-(t log x + (1 - t) log(1 - x))``. torch clamps both logarithms at -100, so a
    confident wrong answer costs 100, not infinity, and refuses inputs or targets outside
    [0, 1] ('all elements of input should be between 0 and 1'). The gradient
    ``(x - t) / (x (1 - x))`` has its denominator clamped at 1e-12 for the same reason.
    On logits ``z`` (``x = sigmoid(z)``) the loss is rewritten to stay finite everywhere:
    ``(1 - t) z - log_sigmoid(z)``, with ``log_sigmoid(z) = min(z, 0) - log1p(exp(-|z|))``;
    a `pos_weight` p scales the positive term: ``(1 - t) z - (1 + (p - 1) t) log_sigmoid(z)``.
"""
from __future__ import annotations

import numpy as np

from ....c10.dtype import from_numpy_dtype, scalar_type_name
from ....c10.promotion import result_type_of
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...meta.pointwise import Promotion, common_dtype, elementwise_meta, result_and_compute
from ...meta.shape import broadcast_shapes, is_non_overlapping_and_dense
from ...registry import TensorMeta, check_castable, op
from .loss_regression import (MEAN, NOT_FLOATING, SUM, _grad_output_gradient, mean_divided,
                              opmath, reduce_loss, rounded)
from ..pointwise.unary import _check_neg, refuse

_LOG_FLOOR = -100.0
_REFUSED = "refuses_requires_grad"    # torch's derivatives leave weights out: refused
_EPSILON = 1e-12


def _check_same_dtype(expected, *others) -> None:
    """torch's kernels read (and write) every operand in the result's dtype."""
    for other in others:
        if other._dtype is not expected:
            raise RuntimeError(f"Found dtype {scalar_type_name(other._dtype)} but expected "
                               f"{scalar_type_name(expected)}")


def _check_broadcasts(shape: tuple, other) -> None:
    """`other` must broadcast to `shape` without growing it (an in-place product)."""
    if other is not None and broadcast_shapes(shape, other._size) != shape:
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape "
                           f"{list(broadcast_shapes(shape, other._size))}")


def _weighted(values: np.ndarray, weight) -> np.ndarray:
    return values if weight is None else values * opmath(weight)


# ----------------------------------------------------------------------------------
# binary_cross_entropy (probabilities)
# ----------------------------------------------------------------------------------
def _bce_meta(self, target, weight=None, reduction=MEAN, out=None) -> TensorMeta:
    """A result like `self` (empty_like: its strides kept where dense), reduced or not;
    torch's kernel writes an out= of self's dtype only."""
    _check_same_dtype(self._dtype, target, *(() if out is None else (out,)))
    _check_broadcasts(self._size, target)
    _check_broadcasts(self._size, weight)
    if reduction in (MEAN, SUM):
        return TensorMeta((), self._dtype)
    dense = is_non_overlapping_and_dense(self._size, self._stride)
    return TensorMeta(self._size, self._dtype, self._stride if dense else None)


def _check_probabilities(x: np.ndarray, t: np.ndarray) -> None:
    """torch's range check, element by element: the first offending element names
    whether its input or its target is outside [0, 1]."""
    bad_input = ~((x >= 0) & (x <= 1))
    bad_target = ~((t >= 0) & (t <= 1))
    bad = bad_input | bad_target
    if bad.any():
        first = np.unravel_index(np.argmax(bad), bad.shape)
        what = "input" if bad_input[first] else "target"
        raise RuntimeError(f"all elements of {what} should be between 0 and 1")


def _weighted_gradient(gradient, weight):
    return gradient if weight is None else gradient * weight


@derivative_helper
def binary_cross_entropy_target_backward(grad, self, target, weight, reduction: int):
    """d/d(target) of ``-(t log x + (1 - t) log(1 - x))`` is ``-logit(x)``."""
    gradient = _weighted_gradient(-self.logit() * grad, weight)
    return mean_divided(gradient, reduction, target.numel())


@op("binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) "
    "-> Tensor", meta=_bce_meta, out=True, python_module="nn",
    grad={"self": "binary_cross_entropy_backward(grad, self, target, weight, reduction)",
          "target": "binary_cross_entropy_target_backward(grad, self, target, weight, "
                    "reduction)", "weight": _REFUSED})
def binary_cross_entropy(self, target, weight, reduction, *, out):
    """The binary cross entropy of probabilities `input` against targets in [0, 1]
    (Note [Binary cross entropy]).

    Args:
        input (Tensor): probabilities in [0, 1].
        target (Tensor): targets in [0, 1], of the input's dtype.
        weight (Tensor, optional): a weight per element, broadcast to the input.
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.ops.aten.binary_cross_entropy(torch.tensor([0.5, 1.]), torch.tensor([1., 0.]))
        tensor(50.3466)
    """
    refuse(self, "binary_cross_entropy", NOT_FLOATING)
    x, t = opmath(self), opmath(np.broadcast_to(target, self.shape))
    _check_probabilities(x, t)
    dtype = self.dtype        # float16 / bfloat16: each step rounded, as torch's scalar loop
    positive = rounded(np.maximum(rounded(np.log(x), dtype), _LOG_FLOOR), dtype)
    negative = rounded(np.maximum(rounded(np.log1p(-x), dtype), _LOG_FLOOR), dtype)
    losses = rounded(rounded(t - 1, dtype) * negative, dtype) - rounded(t * positive, dtype)
    reduce_loss(_weighted(losses.astype(dtype), weight), reduction, out, dtype)


def _bce_backward_meta(grad_output, self, target, weight=None, reduction=MEAN) -> TensorMeta:
    _check_same_dtype(self._dtype, target)
    shape = broadcast_shapes(grad_output._size, self._size, target._size)
    if shape == self._size and is_non_overlapping_and_dense(self._size, self._stride):
        return TensorMeta(shape, self._dtype, self._stride)       # empty_like(self)
    return TensorMeta(shape, self._dtype)


@derivative_helper
def binary_cross_entropy_double_backward(grad_output, grad, self, target, weight,
                                         reduction: int):
    """d/d(self) of the first derivative ``(x - t) / (x (1 - x))``."""
    numerator = self * self - 2 * self * target + target
    denominator = (self + _EPSILON).pow(2) * (1 - self + _EPSILON).pow(2)
    gradient = _weighted_gradient(numerator / denominator * (grad * grad_output), weight)
    return mean_divided(gradient, reduction, self.numel())


@derivative_helper
def binary_cross_entropy_double_backward_target(grad, grad_output, self, target, weight,
                                                reduction: int):
    """d/d(target) of the first derivative: ``-1 / (x (1 - x))``."""
    gradient = _weighted_gradient(-grad * grad_output, weight)
    denominator = ((1 - self) * self).clamp_min(_EPSILON)
    return mean_divided(gradient / denominator, reduction, target.numel())


@derivative_helper
def binary_cross_entropy_double_backward_grad_output(grad, self, target, weight,
                                                     reduction: int):
    """The first derivative itself, applied to `grad`."""
    slope = (self - target) / ((self + _EPSILON) * (1 - self + _EPSILON))
    return mean_divided(_weighted_gradient(slope * grad, weight), reduction, self.numel())


@op("binary_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target, "
    "Tensor? weight=None, int reduction=1) -> Tensor", meta=_bce_backward_meta,
    out=True, out_overload="grad_input", out_names=("grad_input",), function=False,
    grad={"grad_output": "binary_cross_entropy_double_backward_grad_output(grad, self, "
                         "target, weight, reduction)",
          "self": "binary_cross_entropy_double_backward(grad_output, grad, self, target, "
                  "weight, reduction)",
          "target": "binary_cross_entropy_double_backward_target(grad, grad_output, self, "
                    "target, weight, reduction)", "weight": _REFUSED})
def binary_cross_entropy_backward(grad_output, self, target, weight, reduction, *, out):
    """The gradient of `binary_cross_entropy` for `self`:
    ``grad (x - t) / max(x (1 - x), 1e-12)``, times the weight, over the element count
    for a mean."""
    refuse(self, "binary_cross_entropy_backward", NOT_FLOATING)
    x = opmath(self)
    slope = (x - opmath(target)) / np.maximum((1 - x) * x, _EPSILON)
    gradient = _weighted(slope * opmath(grad_output), weight)
    if reduction == MEAN:
        gradient = gradient / self.size
    np.copyto(out, gradient, casting="unsafe")


# ----------------------------------------------------------------------------------
# binary_cross_entropy_with_logits
# ----------------------------------------------------------------------------------
def _bce_logits_meta(self, target, weight=None, pos_weight=None, reduction=MEAN) -> TensorMeta:
    """torch computes the loss in place in a tensor made from `target`: its shape is the
    input's and target's broadcast, its dtype the target's."""
    shape = broadcast_shapes(self._size, target._size)
    if target._size != shape:
        raise RuntimeError(f"output with shape {list(target._size)} doesn't match the "
                           f"broadcast shape {list(shape)}")
    if pos_weight is not None:
        broadcast_shapes(pos_weight._size, target._size)
        _check_broadcasts(shape, pos_weight)
    _check_broadcasts(shape, weight)
    if reduction in (MEAN, SUM):
        return TensorMeta((), target._dtype)
    return elementwise_meta((target,), Promotion.DEFAULT)      # laid out as 1 - target


def _log_sigmoid(z: np.ndarray) -> np.ndarray:
    return np.minimum(z, 0) - np.log1p(np.exp(-np.abs(z)))


@derivative_helper
def binary_cross_entropy_with_logits_backward(grad, self, target, weight, pos_weight,
                                              reduction: int):
    """``(sigmoid(x) - t)`` times the weights; with `pos_weight` p:
    ``(1 + (p - 1) t) sigmoid(x) - p t``."""
    if pos_weight is not None:
        weighted_target = pos_weight * target
        slope = (weighted_target + 1 - target) * self.sigmoid() - weighted_target
    else:
        slope = self.sigmoid() - target
    gradient = _weighted_gradient(slope * grad, weight)
    return mean_divided(gradient, reduction, self.numel())


@derivative_helper
def binary_cross_entropy_with_logits_target_backward(grad, self, target, weight, pos_weight,
                                                     reduction: int):
    """d/d(target): ``-x``, or ``log_sigmoid(-x) - p log_sigmoid(x)`` with `pos_weight`."""
    if pos_weight is not None:
        slope = _log_sigmoid_tensor(-self) - _log_sigmoid_tensor(self) * pos_weight
    else:
        slope = -self
    gradient = _weighted_gradient(slope * grad, weight)
    return mean_divided(gradient, reduction, target.numel())


def _log_sigmoid_tensor(x):
    """``log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))`` on a tensor, without overflow."""
    return x.clamp_max(0) - (-x.abs()).exp().log1p()


@op("binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, "
    "Tensor? pos_weight=None, int reduction=1) -> Tensor", meta=_bce_logits_meta, out=True,
    bind_out=False,
    grad={"self": "binary_cross_entropy_with_logits_backward(grad, self, target, weight, "
                  "pos_weight, reduction)",
          "target": "binary_cross_entropy_with_logits_target_backward(grad, self, target, "
                    "weight, pos_weight, reduction)", "weight": _REFUSED, "pos_weight": _REFUSED})
def binary_cross_entropy_with_logits(self, target, weight, pos_weight, reduction, *, out):
    """The binary cross entropy of ``sigmoid(input)`` against `target`, computed from the
    logits without overflow (Note [Binary cross entropy]).

    Args:
        input (Tensor): logits.
        target (Tensor): targets in [0, 1], of the input's shape.
        weight (Tensor, optional): a weight per element, broadcast to the input.
        pos_weight (Tensor, optional): a weight of the positive term per class (last dim).
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.binary_cross_entropy_with_logits(torch.tensor([0., 100.]),
        ...                                        torch.tensor([1., 0.]))
        tensor(50.3466)
    """
    refuse(self, "log_sigmoid_cpu", NOT_FLOATING)
    dtype = target.dtype      # float16 / bfloat16: each tensor op rounds, as torch's do
    z, t = opmath(self), opmath(target)
    log_sigmoid = rounded(_log_sigmoid(z), dtype)
    if pos_weight is not None:
        scale = rounded(rounded(rounded(opmath(pos_weight) - 1, dtype) * t, dtype) + 1, dtype)
        log_sigmoid = rounded(log_sigmoid * scale, dtype)
    losses = rounded(rounded(1 - t, dtype) * z, dtype) - log_sigmoid
    if weight is not None:
        losses = rounded(losses, dtype) * opmath(weight)
    reduce_loss(losses, reduction, out, dtype)


# ----------------------------------------------------------------------------------
# soft_margin_loss: log(1 + exp(-target * input))
# ----------------------------------------------------------------------------------
# torch writes both operators as chains of tensor operations, in place in the result
# (``-input``, times target, exp, log1p; ``target * exp(-target * input)``, scaled, over
# ``1 + exp(...)``, times grad_output): each step refuses what that operation refuses
# and rounds to the dtype of the tensor it writes, which the kernels reproduce.
def _common(a: np.ndarray, b: np.ndarray) -> np.dtype:
    """torch's common dtype of two operands, as a NumPy dtype."""
    return result_type_of(from_numpy_dtype(a.dtype), a.ndim == 0, from_numpy_dtype(b.dtype),
                          b.ndim == 0)._np


def _wide(dtype: np.dtype) -> np.dtype:
    """The dtype torch computes in for `dtype`: float32 for float16 / bfloat16."""
    return np.dtype(np.float32) if dtype.itemsize == 2 else dtype


def _step(values, dtype: np.dtype) -> np.ndarray:
    """One tensor operation's result: rounded to `dtype`, read back as torch computes the
    next (float16 / bfloat16 in float32)."""
    return opmath(np.asarray(values).astype(dtype))


def _soft_margin_meta(self, target, reduction=MEAN, out=None) -> TensorMeta:
    """A result like `self` (laid out as ``-self``), of self's dtype only."""
    _check_neg(self)
    if out is not None:
        _check_same_dtype(self._dtype, out)
    _check_broadcasts(self._size, target)
    check_castable(common_dtype((self, target)), self._dtype)
    check_castable(result_and_compute(self._dtype, Promotion.INT_TO_FLOAT)[0], self._dtype)
    if reduction in (MEAN, SUM):
        return TensorMeta((), self._dtype)
    return elementwise_meta((self,), Promotion.DEFAULT)


@op("soft_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor",
    meta=_soft_margin_meta, out=True, python_module="nn",
    grad={"self": "soft_margin_loss_backward(grad, self, target, reduction)",
          "target": _REFUSED})
def soft_margin_loss(self, target, reduction, *, out):
    """The logistic loss ``log(1 + exp(-target * input))`` of logits against targets of
    ±1, averaged, summed or elementwise.

    Args:
        input (Tensor): logits (floating point or complex).
        target (Tensor): 1 or -1, broadcastable to the input's shape.
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.ops.aten.soft_margin_loss(torch.tensor([2., -1.]), torch.tensor([1., 1.]), 0)
        tensor([0.1269, 1.3133])
    """
    dtype, wide = self.dtype, _wide(_common(self, target))
    margin = _step(-self.astype(wide) * target.astype(wide), dtype)
    reduce_loss(np.log1p(_step(np.exp(margin), dtype)), reduction, out, dtype)


@derivative_helper
def soft_margin_loss_double_backward(grad, self, target, reduction: int):
    """d(soft_margin_loss_backward)/d(self) applied to `grad` (already times grad_output):
    ``t^2 e / (1 + e)^2`` with ``e = exp(-t x)``."""
    e = (-target * self).exp()
    return mean_divided(grad * (target * target) * e / ((e + 1) * (e + 1)), reduction,
                        self.numel())


@derivative_helper
def soft_margin_loss_double_backward_grad_output(grad, grad_output, self, target,
                                                 reduction: int):
    return _grad_output_gradient(ops.aten.soft_margin_loss_backward, grad, grad_output,
                                 reduction, self, target, reduction)


def _soft_margin_backward_meta(grad_output, self, target, reduction, out=None) -> TensorMeta:
    """A result of self's dtype, shaped and laid out as ``target * exp(-target * self)``."""
    _check_neg(target)
    described = elementwise_meta((target, self), Promotion.DEFAULT)
    written = self._dtype if out is None else out._dtype
    check_castable(result_and_compute(described.dtype, Promotion.INT_TO_FLOAT)[0], written)
    _check_broadcasts(described.shape, grad_output)
    check_castable(result_type_of(written, not described.shape, grad_output._dtype,
                                   not grad_output._size), written)
    return TensorMeta(described.shape, self._dtype, described.stride)


@op("soft_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) "
    "-> Tensor", meta=_soft_margin_backward_meta,
    out=True, out_overload="grad_input", out_names=("grad_input",), function=False,
    grad={"grad_output": "soft_margin_loss_double_backward_grad_output(grad, grad_output, "
                         "self, target, reduction)",
          "self": "soft_margin_loss_double_backward(grad * grad_output, self, target, "
                  "reduction)",
          "target": _REFUSED})
def soft_margin_loss_backward(grad_output, self, target, reduction, *, out):
    """The gradient of `soft_margin_loss` for `self`: ``-target e / (1 + e)`` with
    ``e = exp(-target self)``, times `grad_output`, over the element count for a mean."""
    common, written = _common(target, self), out.dtype
    wide = _wide(common)
    e = _step(np.exp(_step(-target.astype(wide) * self.astype(wide), common)), common)
    gradient = _step(target.astype(wide) * e, written)
    norm = 1 / self.size if reduction == MEAN and self.size else 1
    gradient = _step(gradient * _step(-norm, written), written)     # a scalar of its dtype
    gradient = _step(gradient / _step(e + 1, common), written)
    wide = _wide(_common(out, grad_output))
    np.copyto(out, gradient.astype(wide) * grad_output.astype(wide), casting="unsafe")

