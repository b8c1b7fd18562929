"""torch.nn.grad: the gradients of a convolution's input and weight, as functions.

Each is one `convolution_backward` call asking for one of its results; the tensor whose
gradient is wanted is known only by its size, so a one-element tensor expanded to that
size stands in for it (its values are never read).
"""
from __future__ import annotations

import glasstorch as torch

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input",
           "conv3d_weight"]


def _each(value, dims: int) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value] * dims


def _gradient(which: int, grad_output, input, weight, dims: int, stride, padding, dilation,
              groups: int):
    mask = [which == 0, which == 1, False]
    results = torch.ops.aten.convolution_backward(
        grad_output, input, weight, None, _each(stride, dims), _each(padding, dims),
        _each(dilation, dims), False, [0], groups, mask)
    return results[which]


def _input_function(dims: int):
    def gradient(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
        stand_in = grad_output.new_empty(1).expand(input_size)
        return _gradient(0, grad_output, stand_in, weight, dims, stride, padding, dilation,
                         groups)
    gradient.__name__ = gradient.__qualname__ = f"conv{dims}d_input"
    gradient.__doc__ = f"""The gradient of conv{dims}d with respect to its input: a transposed
    convolution of `grad_output` by `weight`, sized `input_size`.

    Args:
        input_size: the shape of the input (and of the gradient returned)
        weight: the convolution's weight
        grad_output: the gradient of the convolution's output
        stride, padding, dilation, groups: the convolution's arguments

    Example::

        >>> weight = torch.ones(1, 1, *[2] * {dims})
        >>> grad = torch.ones(1, 1, *[2] * {dims})
        >>> torch.nn.grad.conv{dims}d_input((1, 1) + (3,) * {dims}, weight, grad).shape[2:]
        torch.Size({[3] * dims})
    """
    return gradient


def _weight_function(dims: int):
    def gradient(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
        stand_in = grad_output.new_empty(1).expand(weight_size)
        return _gradient(1, grad_output, input, stand_in, dims, stride, padding, dilation,
                         groups)
    gradient.__name__ = gradient.__qualname__ = f"conv{dims}d_weight"
    gradient.__doc__ = f"""The gradient of conv{dims}d with respect to its weight, sized
    `weight_size`: the input correlated with `grad_output`.

    Args:
        input: the convolution's input
        weight_size: the shape of the weight (and of the gradient returned)
        grad_output: the gradient of the convolution's output
        stride, padding, dilation, groups: the convolution's arguments

    Example::

        >>> x = torch.ones(1, 1, *[3] * {dims})
        >>> grad = torch.ones(1, 1, *[2] * {dims})
        >>> torch.nn.grad.conv{dims}d_weight(x, (1, 1) + (2,) * {dims}, grad).flatten()[0]
        tensor({2.0 ** dims})
    """
    return gradient


conv1d_input, conv1d_weight = _input_function(1), _weight_function(1)
conv2d_input, conv2d_weight = _input_function(2), _weight_function(2)
conv3d_input, conv3d_weight = _input_function(3), _weight_function(3)
