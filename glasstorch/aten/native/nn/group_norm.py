"""Group normalization: `native_group_norm`, its backward, and the `group_norm` composite.

Note [Group norm as rows]
    The C channels of ``(N, C, *)`` are split into `group` groups of ``C / group``
    channels; each (sample, group) pair is one row of ``(C / group) * HxW`` elements,
    normalized as a layer norm row is (Note [Layer norm over rows]: biased variance,
    ``rstd = 1 / sqrt(var + eps)``), and the per-channel `weight` and `bias` then apply.
    `mean` and `rstd` are results of shape ``(N, group)``. The backward is the row
    formula with ``g = grad * weight`` per element; its derivative reuses batch norm's
    (`training_parts`), the weight's part summed per channel.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10.dtype import scalar_type_name
from ... import functions as at
from ...derivatives import derivative_helper
from ...registry import TensorMeta, composite, op
from ..pointwise.unary import refuse
from . import normalization_reduced
from .row_moments import channels_last_moments, row_moments
from .batch_norm import (_NOT_FLOATING, check_parameter_dtypes, compute_dtype, like_input,
                         training_parts)


def _shape_text(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def check_group_norm_inputs(input, weight, bias, channels: int, groups: int) -> None:
    """torch's refusals: a positive group count dividing C, C-sized parameters."""
    if groups <= 0:
        raise RuntimeError(f"Expected num groups to be greater than 0, got {groups}")
    if channels % groups != 0:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {_shape_text(input._size)} "
                           f"and num_groups={groups}")
    # torch's message for the bias names the weight's shape ([0] without a weight)
    weight_shape = _shape_text(weight._size) if weight is not None else "[0]"
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and (len(param._size) != 1 or param._size[0] != channels):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number "
                               f"of channels in input, but got {name} of shape {weight_shape} "
                               f"and input of shape {_shape_text(input._size)}")


def _group_norm_meta(input, weight, bias, N, C, HxW, group, eps):
    if input.numel() != N * C * HxW:
        raise RuntimeError(f"Expected input to have {N * C * HxW} elements, but got "
                           f"{input.numel()}")
    check_group_norm_inputs(input, weight, bias, C, group)
    mixed = check_parameter_dtypes(input, (weight, bias))
    stat_dtype = weight._dtype if mixed and weight is not None else \
        bias._dtype if mixed else input._dtype
    return (like_input(input), TensorMeta((N, group), stat_dtype),
            TensorMeta((N, group), stat_dtype))


@derivative_helper
def group_norm_backward_with_statistics(grads, input, mean, rstd, weight, N, C, HxW, group,
                                        mask):
    """`native_group_norm`'s gradients, the mean's and rstd's cotangents included (they
    reach the input only: ``d mean = 1 / L``, ``d rstd = -rstd² x̂ / L`` per row of L
    elements)."""
    grad_out, grad_mean, grad_rstd = grads
    found = [None, None, None]
    if grad_out is not None:
        # the statistics as constants: the double backward counts their dependence on
        # the input itself (Note [Layer norm double backward])
        found = list(native_group_norm_backward.call(grad_out.contiguous(), input,
                                                     mean.detach(), rstd.detach(), weight, N,
                                                     C, HxW, group, mask))
    if mask[0] and (grad_mean is not None or grad_rstd is not None):
        rows, length = N * group, C // group * HxW
        x = input.reshape(rows, length)
        extra = at.zeros_like(x)
        if grad_mean is not None:
            extra = extra + grad_mean.reshape(rows, 1) / length
        if grad_rstd is not None:
            r = rstd.reshape(rows, 1)
            extra = extra - grad_rstd.reshape(rows, 1) * r * r * r \
                * (x - mean.reshape(rows, 1)) / length
        extra = extra.reshape(input.shape)
        found[0] = extra if found[0] is None else found[0] + extra
    return tuple(found)


@op("native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, "
    "SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)", meta=_group_norm_meta,
    grad={"input, weight, bias": "group_norm_backward_with_statistics(grads, input, result1, "
                                 "result2, weight, N, C, HxW, group, grad_input_mask)"})
def native_group_norm(input, weight, bias, N, C, HxW, group, eps, *, out):
    """Group normalization with its statistics: ``(output, mean, rstd)``, the statistics
    of shape ``(N, group)`` (Note [Group norm as rows]).

    Args:
        input (Tensor): ``(N, C, *)`` with ``HxW`` elements per channel.
        weight, bias (Tensor, optional): per-channel scale and shift.
        N, C, HxW (int): the batch size, the channels, the elements per channel.
        group (int): the number of groups (dividing C).
        eps (float): added to the variance.

    Example::

        >>> torch.native_group_norm(torch.tensor([[1., 3.]]), None, None, 1, 2, 1, 1, 0.0)
        (tensor([[-1.,  1.]]), tensor([[2.]]), tensor([[1.]]))
    """
    refuse(input, "GroupNormKernelImpl", _NOT_FLOATING)
    result, mean, rstd = out
    length = C // group * HxW
    if input.dtype.itemsize == 2 and length:
        _group_norm_in_order(input, weight, bias, N, C, HxW, group, eps, out)
        return
    compute = compute_dtype(input)
    rows = np.ascontiguousarray(input).reshape(N * group, length).astype(compute, copy=False)
    with np.errstate(all="ignore"):
        mu = np.add.reduce(rows, axis=1) / compute.type(length)
        centered = rows - mu[:, None]
        inverse = 1 / np.sqrt(np.einsum("ij,ij->i", centered, centered) / compute.type(length)
                              + compute.type(eps))
    normalized = (centered * inverse[:, None]).reshape(N, C, HxW)
    if weight is not None:
        normalized *= weight.astype(compute).reshape(1, C, 1)
    if bias is not None:
        normalized += bias.astype(compute).reshape(1, C, 1)
    np.copyto(result, normalized.reshape(input.shape), casting="unsafe")
    mean[...] = mu.reshape(N, group)
    rstd[...] = inverse.reshape(N, group)


def _group_norm_in_order(input, weight, bias, N, C, HxW, group, eps, out) -> None:
    """A float16 / bfloat16 group norm as torch's kernels round it: the statistics in
    their order (Note [Welford moments in torch's order], Note [Group norm statistics,
    channels last]), ``rstd`` taken in float64 from the float32 variance, and each
    channel's ``scale = rstd * weight``, ``shift = bias - scale * mean`` applied as
    ``scale * x + shift`` (fused; a contiguous input without parameters as ``(x -
    mean) * rstd``)."""
    result, mean, rstd = out
    last = _channels_last(input)
    with np.errstate(all="ignore"):
        if last:
            planes = np.moveaxis(input, 1, -1).reshape(N, HxW, C).astype(np.float32)
            mu, var = channels_last_moments(planes, group)
            values = np.moveaxis(planes.reshape(N, HxW, group, C // group), 1, -1)
        else:
            rows = np.ascontiguousarray(input).reshape(N * group, C // group * HxW)
            mu, var = row_moments(rows)
            values = rows.reshape(N, group, C // group, HxW).astype(np.float32)
        mu = mu.reshape(N, group)
        inverse = (1 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(np.float32)
        per_channel = (N, group, C // group, 1)
        scale = np.broadcast_to(inverse.reshape(N, group, 1, 1), per_channel)
        if weight is not None:
            scale = scale * weight.astype(np.float32).reshape(1, group, -1, 1)
        shift = normalization_reduced.fused(-scale, mu.reshape(N, group, 1, 1),
                                            np.float32(0) if bias is None else
                                            bias.astype(np.float32).reshape(1, group, -1, 1))
        if weight is None and bias is None and not last:
            normalized = (values - mu.reshape(N, group, 1, 1)) * scale
        else:
            normalized = normalization_reduced.fused(scale, values, shift)
    np.copyto(result, normalized.reshape(input.shape), casting="unsafe")
    mean[...] = mu
    rstd[...] = inverse.reshape(N, group)


def _group_norm_backward_meta(grad_out, input, mean, rstd, weight, N, C, HxW, group,
                              output_mask):
    wanted = [bool(m) for m in output_mask]
    param_dtype = weight._dtype if weight is not None else mean._dtype
    return (like_input(input) if wanted[0] else None,
            TensorMeta((C,), param_dtype) if wanted[1] else None,
            TensorMeta((C,), param_dtype) if wanted[2] else None)


@derivative_helper
def group_norm_double_backward(input, weight, grad_input_grad, grad_weight_grad,
                               grad_bias_grad, grad_out, mean, rstd, N, C, HxW, group, mask):
    """The gradients of grad_out, input and weight of `native_group_norm_backward`'s
    results (Note [Group norm as rows]); None where `mask` says no."""
    rows = N * group
    length = C // group * HxW
    x, grad = input.reshape(rows, length), grad_out.reshape(rows, length)
    r = rstd.reshape(rows, 1)
    normalized = (x - mean.reshape(rows, 1)) * r

    def per_element(values):
        if values is None:
            return None
        return values.reshape(1, C, 1).expand(N, C, HxW).reshape(rows, length)
    a = None if grad_input_grad is None else grad_input_grad.reshape(rows, length)
    found_grad, found_input, found_weight = training_parts(
        x, grad, normalized, r, per_element(weight), a, per_element(grad_weight_grad),
        per_element(grad_bias_grad), mask)
    shape = input.shape
    return (None if found_grad is None else found_grad.reshape(shape),
            None if found_input is None else found_input.reshape(shape),
            None if found_weight is None or weight is None
            else found_weight.reshape(N, C, HxW).sum((0, 2)))


@op("native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, "
    "Tensor? weight, SymInt N, SymInt C, SymInt HxW, int group, bool[3] output_mask) -> "
    "(Tensor, Tensor, Tensor)", meta=_group_norm_backward_meta, function=False,
    grad={"grad_out, input, weight": "group_norm_double_backward(input, weight, grads[0], "
                                     "grads[1], grads[2], grad_out, mean, rstd, N, C, HxW, "
                                     "group, grad_input_mask)",
          "mean": "refuses_requires_grad", "rstd": "refuses_requires_grad"})
def native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group,
                               output_mask, *, out):
    """The gradients of `native_group_norm`'s input, weight and bias in one pass (Note
    [Group norm as rows]); those `output_mask` leaves out are None."""
    grad_input, grad_weight, grad_bias = out
    compute = compute_dtype(input)
    rows = N * group
    length = C // group * HxW
    x = np.ascontiguousarray(input).reshape(rows, length).astype(compute, copy=False)
    grads = np.ascontiguousarray(grad_out).reshape(rows, length).astype(compute, copy=False)
    r = rstd.reshape(rows, 1).astype(compute)
    normalized = (x - mean.reshape(rows, 1).astype(compute)) * r
    per_channel = (N, C, HxW)
    if input.dtype.itemsize == 2 and (grad_weight is not None or grad_bias is not None):
        # summed in torch's order (Note [Reduced-precision group norm gradients])
        sums = normalization_reduced.group_parameter_gradients(
            np.asarray(grad_out).reshape(per_channel), np.asarray(input).reshape(per_channel),
            mean, rstd, group, _channels_last(input))
        for target, total in zip((grad_weight, grad_bias), sums):
            if target is not None:
                target[...] = total
    else:
        if grad_weight is not None:
            grad_weight[...] = (grads * normalized).reshape(per_channel).sum((0, 2))
        if grad_bias is not None:
            grad_bias[...] = grads.reshape(per_channel).sum((0, 2))
    if grad_input is None:
        return
    scaled = grads if weight is None else \
        (grads.reshape(per_channel) * weight.astype(compute).reshape(1, C, 1)).reshape(rows, length)
    count = compute.type(max(length, 1))
    gradient = r * (scaled - scaled.sum(1, keepdims=True) / count
                    - normalized * (scaled * normalized).sum(1, keepdims=True) / count)
    np.copyto(grad_input, gradient.reshape(input.shape), casting="unsafe")


def _channels_last(array: np.ndarray) -> bool:
    """Whether torch's kernel reads `array` channels last (its suggested layout)."""
    return array.ndim >= 4 and not array.flags.c_contiguous and \
        np.moveaxis(array, 1, -1).flags.c_contiguous


@composite("group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
           "float eps=1e-05, bool cudnn_enabled=True) -> Tensor")
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """Normalize each group of channels of each sample (Note [Group norm as rows]), then
    ``* weight + bias`` per channel.

    Args:
        input (Tensor): ``(N, C, *)``.
        num_groups (int): the number of groups (dividing C).
        weight, bias (Tensor, optional): per-channel scale and shift.
        eps (float): added to the variance (default 1e-5).
        cudnn_enabled (bool): ignored on CPU.

    Example::

        >>> torch.group_norm(torch.tensor([[1., 3.]]), 1, eps=0.0)
        tensor([[-1.,  1.]])
    """
    batch, channels = input.shape[0], input.shape[1]
    check_group_norm_inputs(input, weight, bias, channels, num_groups)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"GroupNormKernelImpl\" not implemented for "
                                  f"'{scalar_type_name(input.dtype)}'")
    hxw = math.prod(input.shape[2:])
    return native_group_norm.call(input, weight, bias, batch, channels, hxw,
                                  num_groups, eps)[0]

