"""Regression losses: mse_loss, l1_loss, smooth_l1_loss, huber_loss, kl_div, and the
reduction rule every loss shares.

Note [Loss reductions]
    A loss takes ``reduction`` as an int, as ATen's ``at::Reduction`` enum: 0 keeps the
    elementwise losses ('none'), 1 averages them ('mean'), 2 sums them ('sum');
    `torch.nn._reduction.get_enum` maps the Python strings to these numbers. A mean over
    no elements is NaN. The pointwise losses compare `self` with `target` as a binary
    TensorIterator does (promotion, broadcasting); their elementwise losses are rounded
    to the result dtype before the reduction, which accumulates float16 / bfloat16 in
    float32, as torch's kernels do.

`mse_loss`, `smooth_l1_loss` and `huber_loss` are kernels with dedicated backward
operators (one fused NumPy expression each: `MseLossBackward0` calls
`mse_loss_backward`); `l1_loss` and `kl_div` are composites, as in torch, so autograd
records the operators they are written in (`AbsBackward0`, `MeanBackward0`...).
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ... import functions as at
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...meta.pointwise import Promotion, common_dtype, elementwise_meta
from ...meta.shape import broadcast_shapes
from ...registry import TensorMeta, composite, op
from ..pointwise.unary import refuse

NONE, MEAN, SUM = 0, 1, 2
# The dtypes the loss kernels have no loop for (torch's AT_DISPATCH_FLOATING_TYPES_AND2)
NOT_FLOATING = frozenset(np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16, np.int32,
                                               np.int64, np.uint16, np.uint32, np.uint64,
                                               np.complex64, np.complex128))


# ----------------------------------------------------------------------------------
# Shared by the loss kernels
# ----------------------------------------------------------------------------------
def opmath(array: np.ndarray) -> np.ndarray:
    """`array` in the dtype torch computes it in: float16 / bfloat16 widen to float32."""
    return array.astype(np.float32) if array.dtype.itemsize == 2 else array


def rounded(values, dtype: np.dtype):
    """`values` (computed in float32) rounded to a float16 / bfloat16 `dtype` and read
    back, where torch's kernel keeps an intermediate in that dtype."""
    if dtype.itemsize != 2:
        return values
    return np.asarray(values).astype(dtype).astype(np.float32)


def reduce_loss(losses: np.ndarray, reduction: int, out: np.ndarray,
                dtype: np.dtype) -> None:
    """Write the elementwise `losses`, their mean or their sum into `out` (Note [Loss
    reductions]): the losses are rounded to the result `dtype` first (an out= may be
    of another), sums accumulate in float32 at least."""
    losses = np.asarray(losses)
    if losses.dtype != dtype:
        losses = losses.astype(dtype)
    if reduction == MEAN or reduction == SUM:
        wide = np.float32 if dtype.itemsize == 2 else dtype
        total = np.add.reduce(losses, axis=None, dtype=wide)
        if reduction == MEAN:
            total = total / losses.size if losses.size else np.nan
        out[...] = np.asarray(total).astype(dtype)
    else:
        np.copyto(out, losses, casting="unsafe")


def common(a: np.ndarray, b: np.ndarray) -> np.dtype:
    """The dtype two floating operands promote to (float16 with bfloat16: float32)."""
    if a.dtype == b.dtype:
        return a.dtype
    if a.dtype.itemsize == b.dtype.itemsize:
        return np.dtype(np.float32)
    return a.dtype if a.dtype.itemsize > b.dtype.itemsize else b.dtype


def pointwise_loss_meta(self, target, reduction) -> TensorMeta:
    """The result of a loss comparing `self` with `target` elementwise (promoted,
    broadcast) under `reduction`."""
    if reduction in (MEAN, SUM):
        broadcast_shapes(self._size, target._size)
        return TensorMeta((), common_dtype((self, target)))
    return elementwise_meta((self, target), Promotion.DEFAULT)    # TensorIterator's layout


def backward_meta(grad_output, self, target) -> TensorMeta:
    """The gradient of a pointwise loss for `self`: `self`'s dtype, the shape of all
    three broadcast (torch's backward kernels are TensorIterators writing a tensor
    like `self`)."""
    shape = broadcast_shapes(grad_output._size, self._size, target._size)
    return TensorMeta(shape, self._dtype)


def write_gradient(out, slope, grad_output, reduction: int, count: int,
                   factor: float = 1.0) -> None:
    """``slope * grad_output`` into `out` (the loss's derivative for each element times
    the upstream gradient), times `factor`, over `count` for a mean."""
    scale = factor / count if reduction == MEAN and count else factor
    np.copyto(out, slope * (opmath(grad_output) * scale), casting="unsafe")


# ----------------------------------------------------------------------------------
# mse_loss
# ----------------------------------------------------------------------------------
# ----------------------------------------------------------------------------------
# Derivatives of the backward operators (and of the targets), in operators so that they
# differentiate again. A mean divides every element's gradient by the element count.
# ----------------------------------------------------------------------------------
def mean_divided(gradient, reduction: int, count: int):
    return gradient / count if reduction == MEAN else gradient


def _grad_output_gradient(backward, grad, grad_output, reduction: int, *args):
    """The gradient of a pointwise loss's backward operator for its `grad_output`: the
    backward itself, contracted with `grad` when the loss was reduced to one number."""
    if reduction == NONE:
        return backward(grad, *args)
    slope = backward(at.ones_like(grad_output), *args)
    return (slope * grad).sum()


@op("mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor",
    meta=lambda self, target, reduction=MEAN: pointwise_loss_meta(self, target, reduction),
    out=True, python_module="nn",
    grad={"self": "mse_loss_backward(grad, self, target, reduction)",
          "target": "mse_loss_backward(grad, target, self, reduction)"})
def mse_loss(self, target, reduction, *, out):
    """The mean squared error ``(input - target)^2``, averaged, summed or elementwise.

    Args:
        input (Tensor): the predictions (floating point).
        target (Tensor): the targets, broadcastable with `input`.
        reduction (int): 0 none, 1 mean, 2 sum (see `torch.nn._reduction.get_enum`).

    Example::

        >>> torch.ops.aten.mse_loss(torch.tensor([1., 2.]), torch.tensor([0., 4.]))
        tensor(2.5000)
    """
    for array in (self, target):
        refuse(array, "mse_cpu", NOT_FLOATING)
    dtype = common(self, target)
    difference = rounded(opmath(self) - opmath(target), dtype)   # torch rounds it too
    reduce_loss(difference * difference, reduction, out, dtype)


@derivative_helper
def mse_loss_double_backward(grad, self, reduction: int):
    """d(mse_loss_backward)/d(self) applied to `grad` (already times grad_output)."""
    return mean_divided(2 * grad, reduction, self.numel())


@derivative_helper
def mse_loss_double_backward_grad_output(grad, grad_output, self, target, reduction: int):
    return _grad_output_gradient(ops.aten.mse_loss_backward, grad, grad_output, reduction,
                                 self, target, reduction)


@op("mse_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) -> Tensor",
    meta=lambda grad_output, self, target, reduction: backward_meta(grad_output, self, target),
    out=True, out_overload="grad_input", out_names=("grad_input",), function=False,
    grad={"grad_output": "mse_loss_double_backward_grad_output(grad, grad_output, self, "
                         "target, reduction)",
          "self": "mse_loss_double_backward(grad * grad_output, self, reduction)",
          "target": "-mse_loss_double_backward(grad * grad_output, target, reduction)"})
def mse_loss_backward(grad_output, self, target, reduction, *, out):
    """The gradient of `mse_loss` for `self`: ``2 (self - target) grad_output``, over
    the element count for a mean."""
    write_gradient(out, opmath(self) - opmath(target), grad_output, reduction, self.size,
                   factor=2.0)


# ----------------------------------------------------------------------------------
# smooth_l1_loss and huber_loss: quadratic near zero, linear beyond
# ----------------------------------------------------------------------------------
def _smooth_l1_meta(self, target, reduction=MEAN, beta=1.0) -> TensorMeta:
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return pointwise_loss_meta(self, target, reduction)


@op("smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.) -> Tensor",
    meta=_smooth_l1_meta, out=True, python_module="nn",
    grad={"self": "smooth_l1_loss_backward(grad, self, target, reduction, beta)",
          "target": "smooth_l1_loss_backward(grad, target, self, reduction, beta)"})
def smooth_l1_loss(self, target, reduction, beta, *, out):
    """``0.5 z^2 / beta`` where ``z = |input - target| < beta``, else ``z - 0.5 beta``.

    Args:
        input (Tensor): the predictions (floating point).
        target (Tensor): the targets, broadcastable with `input`.
        reduction (int): 0 none, 1 mean, 2 sum.
        beta (float): where the loss turns from quadratic to linear (>= 0).

    Example::

        >>> torch.ops.aten.smooth_l1_loss(torch.tensor([0.5, 3.]), torch.zeros(2), 0)
        tensor([0.1250, 2.5000])
    """
    for array in (self, target):
        refuse(array, "smooth_l1_cpu", NOT_FLOATING)
    gap = np.abs(opmath(self) - opmath(target))
    reduce_loss(np.where(gap < beta, 0.5 * gap * gap / beta, gap - 0.5 * beta), reduction, out,
                common(self, target))


@derivative_helper
def smooth_l1_loss_double_backward(grad, self, target, reduction: int, beta: float):
    """Inside the quadratic zone the slope changes at 1 / beta, outside not at all."""
    if beta == 0:
        return at.zeros_like(grad)
    inside = ((self - target).abs() < beta).to(grad.dtype)
    return mean_divided(grad * inside / beta, reduction, self.numel())


@derivative_helper
def smooth_l1_loss_double_backward_grad_output(grad, grad_output, self, target,
                                               reduction: int, beta: float):
    return _grad_output_gradient(ops.aten.smooth_l1_loss_backward, grad, grad_output,
                                 reduction, self, target, reduction, beta)


@op("smooth_l1_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction, "
    "float beta) -> Tensor",
    meta=lambda grad_output, self, target, reduction, beta: backward_meta(grad_output, self,
                                                                          target),
    out=True, out_overload="grad_input", out_names=("grad_input",), function=False,
    grad={"grad_output": "smooth_l1_loss_double_backward_grad_output(grad, grad_output, self, "
                         "target, reduction, beta)",
          "self": "smooth_l1_loss_double_backward(grad * grad_output, self, target, reduction, "
                  "beta)",
          "target": "-smooth_l1_loss_double_backward(grad * grad_output, self, target, "
                    "reduction, beta)"})
def smooth_l1_loss_backward(grad_output, self, target, reduction, beta, *, out):
    """The gradient of `smooth_l1_loss` for `self`: ``(self - target) / beta`` clipped
    to [-1, 1], times `grad_output` (over the element count for a mean)."""
    slope = np.clip((opmath(self) - opmath(target)) / beta, -1, 1)
    write_gradient(out, slope, grad_output, reduction, self.size)


def _huber_meta(self, target, reduction=MEAN, delta=1.0) -> TensorMeta:
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    described = pointwise_loss_meta(self, target, reduction)
    described.dtype = self._dtype            # torch's huber kernel writes self's dtype
    return described


def _huber_backward_meta(grad_output, self, target, reduction, delta) -> TensorMeta:
    """torch's kernel reads its operands in `self`'s dtype only (no promotion)."""
    for other in (grad_output, target):
        if other._dtype is not self._dtype:
            raise RuntimeError(f"Found dtype {dtypes.scalar_type_name(other._dtype)} but "
                               f"expected {dtypes.scalar_type_name(self._dtype)}")
    return backward_meta(grad_output, self, target)


@op("huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.) -> Tensor",
    meta=_huber_meta, out=True, python_module="nn",
    grad={"self": "huber_loss_backward(grad, self, target, reduction, delta)",
          "target": "huber_loss_backward(grad, target, self, reduction, delta)"})
def huber_loss(self, target, reduction, delta, *, out):
    """``0.5 z^2`` where ``z = |input - target| < delta``, else ``delta (z - 0.5 delta)``.

    Args:
        input (Tensor): the predictions (floating point).
        target (Tensor): the targets, broadcastable with `input`.
        reduction (int): 0 none, 1 mean, 2 sum.
        delta (float): where the loss turns from quadratic to linear (> 0).

    Example::

        >>> torch.ops.aten.huber_loss(torch.tensor([0.5, 3.]), torch.zeros(2), 0, 2.)
        tensor([0.1250, 4.0000])
    """
    for array in (self, target):
        refuse(array, "huber_cpu", NOT_FLOATING)
    gap = np.abs(opmath(self) - opmath(target))
    reduce_loss(np.where(gap < delta, 0.5 * gap * gap, delta * (gap - 0.5 * delta)),
                reduction, out, self.dtype)


@derivative_helper
def huber_loss_double_backward(grad, self, target, reduction: int, delta: float):
    """Inside the quadratic zone the slope changes at 1, outside not at all."""
    inside = (self - target).abs() < delta
    return mean_divided(grad * inside, reduction, self.numel())


@derivative_helper
def huber_loss_double_backward_grad_output(grad, grad_output, self, target,
                                           reduction: int, delta: float):
    return _grad_output_gradient(ops.aten.huber_loss_backward, grad, grad_output,
                                 reduction, self, target, reduction, delta)


@op("huber_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction, "
    "float delta) -> Tensor", meta=_huber_backward_meta,
    out=True, out_overload="out", out_names=("grad_input",), function=False,
    grad={"grad_output": "huber_loss_double_backward_grad_output(grad, grad_output, self, "
                         "target, reduction, delta)",
          "self": "huber_loss_double_backward(grad * grad_output, self, target, reduction, "
                  "delta)",
          "target": "-huber_loss_double_backward(grad * grad_output, self, target, "
                    "reduction, delta)"})
def huber_loss_backward(grad_output, self, target, reduction, delta, *, out):
    """The gradient of `huber_loss` for `self`: ``self - target`` clipped to
    [-delta, delta], times `grad_output` (over the element count for a mean)."""
    slope = np.clip(opmath(self) - opmath(target), -delta, delta)
    write_gradient(out, slope, grad_output, reduction, self.size)


# ----------------------------------------------------------------------------------
# Composites: l1_loss and kl_div
# ----------------------------------------------------------------------------------
def apply_loss_reduction(losses, reduction: int):
    """The elementwise `losses` averaged, summed or kept (torch's apply_loss_reduction)."""
    if reduction == MEAN:
        return losses.mean()
    if reduction == SUM:
        return losses.sum()
    return losses


@composite("l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor",
           python_module="nn")
def l1_loss(self, target, reduction=MEAN):
    """The mean absolute error ``|input - target|``, averaged, summed or elementwise.

    Args:
        input (Tensor): the predictions.
        target (Tensor): the targets, broadcastable with `input`.
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.ops.aten.l1_loss(torch.tensor([1., 2.]), torch.tensor([0., 4.]))
        tensor(1.5000)
    """
    return apply_loss_reduction((self - target).abs(), reduction)


@composite("kl_div(Tensor self, Tensor target, int reduction=1, *, bool log_target=False) "
           "-> Tensor")
def kl_div(self, target, reduction=MEAN, log_target=False):
    """The pointwise Kullback-Leibler divergence of `target` from `input` (log-probabilities):
    ``target (log(target) - input)``, or ``exp(target) (target - input)`` when `target`
    holds log-probabilities too; a zero target contributes 0.

    Args:
        input (Tensor): log-probabilities.
        target (Tensor): probabilities (log-probabilities with `log_target`).
        reduction (int): 0 none, 1 mean, 2 sum.
        log_target (bool): whether `target` is given in log space.

    Example::

        >>> torch.kl_div(torch.tensor([0.5, 0.5]).log(), torch.tensor([0.25, 0.75]), 2)
        tensor(0.1308)
    """
    if self.is_complex() or target.is_complex():
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if not (self.is_floating_point() and target.is_floating_point()):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        losses = target.exp() * (target - self)
    else:
        losses = target.xlogy(target) - target * self
    return apply_loss_reduction(losses, reduction)
