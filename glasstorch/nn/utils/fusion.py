"""torch.nn.utils.fusion: fold an eval-mode batch norm into the convolution or linear
layer before it.

In eval mode a batch norm is the affine map ``y = (x - mean) / sqrt(var + eps) * w + b``
per channel; composed with a layer's ``W x + c`` it is the layer with
``W' = W * s`` (per output channel) and ``c' = (c - mean) * s + b``, where
``s = w / sqrt(var + eps)``.
"""
from __future__ import annotations

import copy
from typing import TypeVar

import glasstorch as torch

from ..modules.batchnorm import _BatchNorm
from ..parameter import Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
           "fuse_linear_bn_weights"]

ConvT = TypeVar("ConvT")
LinearT = TypeVar("LinearT")


def _check_eval(layer, bn: _BatchNorm) -> None:
    if layer.training or bn.training:
        raise AssertionError("Fusion only for eval!")


def _check_statistics(bn: _BatchNorm) -> None:
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")


def fuse_conv_bn_eval(conv: ConvT, bn: _BatchNorm, transpose: bool = False) -> ConvT:
    """A copy of `conv` computing ``bn(conv(x))``; both must be in eval mode.

    Args:
        conv (Module): a convolution (`transpose`: a transposed one).
        bn (Module): the batch norm after it, with running statistics.
        transpose (bool): `conv` is transposed, its output channels in dim 1.

    Returns:
        Module: the fused convolution.

    Example::

        >>> fused = fuse_conv_bn_eval(conv.eval(), bn.eval())
    """
    _check_eval(conv, bn)
    _check_statistics(bn)
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias,
        transpose)
    return fused


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps: float, bn_w, bn_b,
                         transpose: bool = False) -> tuple[Parameter, Parameter]:
    """The weight and bias of a convolution followed by an eval-mode batch norm, folded
    into one convolution; they keep the convolution's dtypes.

    Args:
        conv_w (Tensor): the convolution's weight.
        conv_b (Tensor, optional): its bias.
        bn_rm, bn_rv (Tensor): the batch norm's running mean and variance.
        bn_eps (float): its epsilon.
        bn_w, bn_b (Tensor, optional): its affine weight and bias.
        transpose (bool): the convolution is transposed (output channels in dim 1).

    Returns:
        (Parameter, Parameter): the fused weight and bias.

    Example::

        >>> w, b = fuse_conv_bn_weights(conv.weight, conv.bias, bn.running_mean,
        ...                             bn.running_var, bn.eps, bn.weight, bn.bias)
    """
    weight_dtype = conv_w.dtype
    bias_dtype = conv_b.dtype if conv_b is not None else weight_dtype
    conv_b = torch.zeros_like(bn_rm) if conv_b is None else conv_b
    bn_w = torch.ones_like(bn_rm) if bn_w is None else bn_w
    bn_b = torch.zeros_like(bn_rm) if bn_b is None else bn_b
    rsqrt = torch.rsqrt(bn_rv + bn_eps)
    channels = [1, -1] if transpose else [-1, 1]
    shape = channels + [1] * (len(conv_w.shape) - 2)
    fused_w = (conv_w * (bn_w * rsqrt).reshape(shape)).to(dtype=weight_dtype)
    fused_b = ((conv_b - bn_rm) * rsqrt * bn_w + bn_b).to(dtype=bias_dtype)
    return Parameter(fused_w, conv_w.requires_grad), Parameter(fused_b, conv_b.requires_grad)


def fuse_linear_bn_eval(linear: LinearT, bn: _BatchNorm) -> LinearT:
    """A copy of `linear` computing ``bn(linear(x))``; both must be in eval mode, and
    the batch norm's features must be the linear layer's outputs (or one).

    Args:
        linear (Linear): the linear layer.
        bn (Module): the batch norm after it, with running statistics.

    Returns:
        Linear: the fused layer.

    Example::

        >>> fused = fuse_linear_bn_eval(linear.eval(), bn.eval())
    """
    _check_eval(linear, bn)
    # the batch norm's channel dim must broadcast against the linear's last dim
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError("To fuse, linear.out_features == bn.num_features or "
                             f"bn.num_features == 1, got linear.out_features="
                             f"{linear.out_features} and bn.num_features={bn.num_features}")
    _check_statistics(bn)
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
    return fused


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps: float, bn_w,
                           bn_b) -> tuple[Parameter, Parameter]:
    """The weight and bias of a linear layer followed by an eval-mode batch norm,
    folded into one linear layer; they keep the layer's dtypes.

    Args:
        linear_w (Tensor): the layer's weight.
        linear_b (Tensor, optional): its bias.
        bn_rm, bn_rv (Tensor): the batch norm's running mean and variance.
        bn_eps (float): its epsilon.
        bn_w, bn_b (Tensor): its affine weight and bias.

    Returns:
        (Parameter, Parameter): the fused weight and bias.

    Example::

        >>> w, b = fuse_linear_bn_weights(lin.weight, lin.bias, bn.running_mean,
        ...                               bn.running_var, bn.eps, bn.weight, bn.bias)
    """
    weight_dtype = linear_w.dtype
    bias_dtype = linear_b.dtype if linear_b is not None else weight_dtype
    linear_b = torch.zeros_like(bn_rm) if linear_b is None else linear_b
    scale = bn_w * torch.rsqrt(bn_rv + bn_eps)
    fused_w = linear_w * scale.unsqueeze(-1).to(dtype=weight_dtype)
    fused_b = ((linear_b - bn_rm) * scale + bn_b).to(dtype=bias_dtype)
    return Parameter(fused_w, linear_w.requires_grad), Parameter(fused_b, linear_b.requires_grad)
