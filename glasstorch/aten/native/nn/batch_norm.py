"""Batch normalization: `native_batch_norm` and its fused backward.

Note [Batch norm over channels]
    The input ``(N, C, *)`` is read as ``(N, C, L)``: each channel c is normalized over
    its ``N * L`` elements. In training the statistics are the batch's (mean and the
    biased variance; `save_mean` and `save_invstd = 1 / sqrt(var + eps)` are results,
    read by backward), and the running statistics handed in are updated in place,
    ``running = (1 - momentum) * running + momentum * batch`` with the *unbiased*
    variance, without a version bump (as torch: they are buffers, not autograd inputs).
    Out of training the running statistics normalize, and the saved ones are empty.
    Either way the kernel folds the affine map per channel, ``y = x * a + b`` with
    ``a = invstd * weight`` and ``b = bias - mean * a``, as torch's CPU kernel does.
    float32 is computed in float32, float64 in float64, float16/bfloat16 in float32
    (parameters and statistics may then be float32: torch's mixed dtype), summed and
    rounded as torch's kernels do (Note [Batch norm in channel blocks], Note
    [Reduced-precision batch statistics]).

    The backward (`native_batch_norm_backward`) is layer norm's turned on its side
    (Note [Layer norm over rows]): a channel is a row. In training, with
    ``x̂ = (x - mean) * invstd``, the input's gradient is
    ``invstd * w * (g - mean(g) - x̂ * mean(g * x̂))`` over the channel's elements; out of
    training the statistics are constants and it is ``g * invstd * w``. The weight's
    gradient is ``sum(g * x̂)`` and the bias's ``sum(g)`` per channel (computed in
    torch's order: Note [Batch norm in channel blocks]).
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.tensor_impl import TensorBase
from ... import functions as at
from ...derivatives import derivative_helper
from ...registry import TensorMeta, op
from ..creation.copy import memory_format_strides, suggest_memory_format
from ..pointwise.unary import refuse
from .batch_norm_kernels import (as_cube, normalize, training_forward,
                                 update_running_statistics)
from .batch_norm_kernels import backward as batch_norm_backward_kernel
from .batch_norm_statistics import inverse_std, reduced_training_statistics
from .normalization import _input_part, _project

_REDUCED = (dtypes.float16, dtypes.bfloat16)
_REDUCED_NUMPY = frozenset(t._np for t in _REDUCED)
_NOT_FLOATING = frozenset(np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16,
                                                np.int32, np.int64, np.complex64,
                                                np.complex128))


# ----------------------------------------------------------------------------------
# Argument checks
# ----------------------------------------------------------------------------------
def check_batch_norm_arguments(input: TensorBase, weight, bias, running_mean, running_var,
                               training: bool) -> None:
    """torch's refusals of `batch_norm` (its native operator checks nothing and reads
    out of bounds; glasstorch refuses with the composite's words)."""
    channels = input._size[1] if len(input._size) > 1 else None
    if channels is None:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], "
                         "but got 1)")
    for name, tensor in (("weight", weight), ("bias", bias), ("running_mean", running_mean),
                         ("running_var", running_var)):
        if tensor is not None and math.prod(tensor._size) != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not "
                               f"{math.prod(tensor._size)}")
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError(f"{'running_mean' if running_mean is None else 'running_var'} "
                           f"must be defined in evaluation mode")
    if not input._dtype.is_floating_point:
        raise NotImplementedError(f"\"batch_norm\" not implemented for "
                                  f"'{scalar_type_name(input._dtype)}'")
    check_parameter_dtypes(input, (weight, bias, running_mean, running_var))


def check_parameter_dtypes(input: TensorBase, params) -> bool:
    """torch's CPU rule: parameters share the input's dtype or (mixed) are all float32
    with a float16/bfloat16 input. Returns whether the call is mixed."""
    present = [p for p in params if p is not None]
    if all(p._dtype is input._dtype for p in present):
        return False
    if any(p._dtype is not dtypes.float32 for p in present):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    if input._dtype not in _REDUCED:
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    return True


def like_input(input: TensorBase) -> TensorMeta:
    """The result's geometry: channels-last inputs give channels-last results."""
    stride = memory_format_strides(input._size, suggest_memory_format(input))
    return TensorMeta(input._size, input._dtype, stride)


def _stat_dtype(input: TensorBase, params) -> object:
    present = [p for p in params if p is not None]
    return present[0]._dtype if present else input._dtype


# ----------------------------------------------------------------------------------
# native_batch_norm
# ----------------------------------------------------------------------------------
def _batch_norm_meta(input, weight, bias, running_mean, running_var, training, momentum,
                     eps):
    check_batch_norm_arguments(input, weight, bias, running_mean, running_var, training)
    stat_dtype = _stat_dtype(input, (weight, bias, running_mean, running_var))
    saved = (input._size[1],) if training else (0,)
    return like_input(input), TensorMeta(saved, stat_dtype), TensorMeta(saved, stat_dtype)


def compute_dtype(array: np.ndarray) -> np.dtype:
    return np.dtype(np.float64) if array.dtype == np.float64 else np.dtype(np.float32)


@op("native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
    "Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    meta=_batch_norm_meta, out=True, out_names=("out", "save_mean", "save_invstd"),
    grad={"input, weight, bias": "native_batch_norm_backward(grad, input, weight, "
                                 "running_mean, running_var, result1, result2, training, eps, "
                                 "grad_input_mask)",
          "running_mean": "refuses_requires_grad", "running_var": "refuses_requires_grad",
          "output_differentiability": (True, False, False)})
def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
                      *, out):
    """Batch normalization with its saved statistics: ``(output, save_mean, save_invstd)``
    (see Note [Batch norm over channels]; empty statistics out of training).

    Args:
        input (Tensor): ``(N, C, *)``.
        weight (Tensor, optional): per-channel scale, ``(C,)``.
        bias (Tensor, optional): per-channel shift, ``(C,)``.
        running_mean (Tensor, optional): updated in training, used otherwise.
        running_var (Tensor, optional): updated in training, used otherwise.
        training (bool): normalize with the batch's statistics.
        momentum (float): the weight of the batch in the running statistics.
        eps (float): added to the variance.

    Example::

        >>> torch.native_batch_norm(torch.tensor([[1.], [3.]]), None, None, None, None,
        ...                         True, 0.1, 0.0)
        (tensor([[-1.], [ 1.]]), tensor([2.]), tensor([1.]))
    """
    refuse(input, "batch_norm", _NOT_FLOATING)
    result, save_mean, save_invstd = out
    compute = compute_dtype(input)
    cube, written = as_cube(input), as_cube(result, written=True)
    if training and input.dtype not in _REDUCED_NUMPY:
        mean, squares, invstd = training_forward(cube, written, weight, bias, eps)
        save_mean[...], save_invstd[...] = mean, invstd
        update_running_statistics(running_mean, running_var, mean, squares,
                                  cube.shape[0] * cube.shape[2], momentum)
        return
    if training:
        mean, invstd = reduced_training_statistics(input, eps, momentum, running_mean,
                                                   running_var,
                                                   keep_dtype=save_mean.dtype == input.dtype)
        save_mean[...] = mean
        save_invstd[...] = invstd
        # normalized with the statistics as saved (rounded, for float16/bfloat16)
        mean, invstd = save_mean.astype(compute), save_invstd.astype(compute)
    else:
        mean = running_mean.astype(compute)
        invstd = 1 / np.sqrt(running_var.astype(compute) + compute.type(eps))
    normalize(cube, written, mean, invstd, weight, bias)


# ----------------------------------------------------------------------------------
# native_batch_norm_backward
# ----------------------------------------------------------------------------------
def _batch_norm_backward_meta(grad_out, input, weight, running_mean, running_var, save_mean,
                              save_invstd, train, eps, output_mask):
    channels = input._size[1]
    param_dtype = _stat_dtype(input, (weight, running_mean, running_var, save_mean))
    wanted = [bool(m) for m in output_mask]
    return (like_input(input) if wanted[0] else None,
            TensorMeta((channels,), param_dtype) if wanted[1] else None,
            TensorMeta((channels,), param_dtype) if wanted[2] else None)


def _statistics(train, running_mean, running_var, save_mean, save_invstd, eps, compute):
    """The mean and invstd the forward normalized with (out of training, the inverse
    standard deviation computed in float64, as torch's backward kernel computes it)."""
    if train:
        return save_mean.astype(compute), save_invstd.astype(compute)
    with np.errstate(all="ignore"):
        return (running_mean.astype(compute),
                inverse_std(running_var.astype(compute), eps))


# Note [Batch norm double backward]
#     In training a channel is a row of layer norm's Note [Layer norm double backward]
#     with a per-row weight: the same projections give every cotangent, the weight's
#     summed per row. Out of training the first-order gradients are linear in grad_out
#     (gI = grad_out * w * invstd) and in x only through x̂ in gW, so:
#     grad_out ← a w invstd + bW x̂ + bB; input ← bW grad_out invstd; weight ←
#     Σ a grad_out invstd.
@derivative_helper
def batch_norm_double_backward(input, weight, grad_input_grad, grad_weight_grad,
                               grad_bias_grad, grad_out, running_mean, running_var, train,
                               eps, save_mean, save_invstd, mask):
    """The gradients of grad_out, input and weight of `native_batch_norm_backward`'s
    results (Note [Batch norm double backward]); None where `mask` says no."""
    channels = input.shape[1]
    x, grad = _as_rows(input), _as_rows(grad_out)
    if train:
        mean, invstd = save_mean.reshape(channels, 1), save_invstd.reshape(channels, 1)
    else:
        mean = running_mean.reshape(channels, 1)
        invstd = (running_var.reshape(channels, 1) + eps).rsqrt()
    normalized = (x - mean) * invstd
    w = None if weight is None else weight.reshape(channels, 1)
    a = None if grad_input_grad is None else _as_rows(grad_input_grad)
    b_weight = None if grad_weight_grad is None else grad_weight_grad.reshape(channels, 1)
    b_bias = None if grad_bias_grad is None else grad_bias_grad.reshape(channels, 1)
    if train:
        found = training_parts(x, grad, normalized, invstd, w, a, b_weight, b_bias, mask)
        if found[2] is not None:
            found = (found[0], found[1], found[2].sum(1))
    else:
        found = _evaluation_parts(grad, normalized, invstd, w, a, b_weight, b_bias, mask)
    found_grad, found_input, found_weight = found
    return (None if found_grad is None else _from_rows(found_grad, input.shape),
            None if found_input is None else _from_rows(found_input, input.shape),
            None if found_weight is None or weight is None
            else found_weight.reshape(weight.shape))


def _as_rows(tensor):
    """``(N, C, *)`` as ``(C, N * L)`` with differentiable operators."""
    n, c = tensor.shape[0], tensor.shape[1]
    return tensor.reshape(n, c, -1).transpose(0, 1).reshape(c, -1)


def _from_rows(rows, shape):
    return rows.reshape((shape[1], shape[0]) + tuple(shape[2:])).transpose(0, 1)


def training_parts(x, grad, normalized, invstd, w, a, b_weight, b_bias, mask):
    """The cotangents of a normalization over rows (Note [Layer norm double backward])
    whose weight is given per element (`w`, `b_weight`, `b_bias` broadcast to the rows):
    grad_out's, input's, and the weight's before its sum over each parameter's
    elements."""
    length = x.shape[1]
    projected = None if a is None else _project(a, normalized, invstd)
    found_grad = found_input = found_weight = None
    if mask[0]:
        found_grad = at.zeros_like(grad)
        if projected is not None:
            found_grad = found_grad + (projected if w is None else projected * w)
        if b_weight is not None:
            found_grad = found_grad + b_weight * normalized
        if b_bias is not None:
            found_grad = found_grad + b_bias
    if mask[1]:
        scaled = grad if w is None else grad * w
        found_input = _input_part(scaled, grad, normalized, invstd, a, b_weight, length)
    if mask[2]:
        found_weight = None if projected is None else grad * projected
    return found_grad, found_input, found_weight


def _evaluation_parts(grad, normalized, invstd, w, a, b_weight, b_bias, mask):
    found_grad = found_input = found_weight = None
    if mask[0]:
        found_grad = at.zeros_like(grad)
        if a is not None:
            found_grad = found_grad + (a * invstd if w is None else a * invstd * w)
        if b_weight is not None:
            found_grad = found_grad + b_weight * normalized
        if b_bias is not None:
            found_grad = found_grad + b_bias
    if mask[1]:
        found_input = at.zeros_like(grad) if b_weight is None else b_weight * grad * invstd
    if mask[2] and a is not None:
        found_weight = (a * grad * invstd).sum(1)
    return found_grad, found_input, found_weight


@op("native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, "
    "Tensor? running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, "
    "bool train, float eps, bool[3] output_mask) -> (Tensor, Tensor, Tensor)",
    meta=_batch_norm_backward_meta, function=False,
    grad={"grad_out, input, weight": "batch_norm_double_backward(input, weight, grads[0], "
                                     "grads[1], grads[2], grad_out, running_mean, "
                                     "running_var, train, eps, save_mean, save_invstd, "
                                     "grad_input_mask)",
          "running_mean": "refuses_requires_grad", "running_var": "refuses_requires_grad",
          "save_mean": "not_implemented('native_batch_norm_backward save_mean')",
          "save_invstd": "not_implemented('native_batch_norm_backward save_invstd')"})
def native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean,
                               save_invstd, train, eps, output_mask, *, out):
    """The gradients of `native_batch_norm`'s input, weight and bias in one pass (see
    Note [Batch norm over channels]); those `output_mask` leaves out are None."""
    grad_input, grad_weight, grad_bias = out
    compute = compute_dtype(input)
    mean, invstd = _statistics(train, running_mean, running_var, save_mean, save_invstd, eps,
                               compute)
    sums, dots = batch_norm_backward_kernel(
        as_cube(grad_out), as_cube(input),
        None if grad_input is None else as_cube(grad_input, written=True),
        mean, invstd, weight, train)
    if grad_weight is not None:
        grad_weight[...] = dots * invstd
    if grad_bias is not None:
        grad_bias[...] = sums
