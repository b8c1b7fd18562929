"""Second derivatives of the activations: the formulas of their backward operators
(torch's FunctionsManual), written in torch operators so they differentiate again.

Each takes `grad` (the gradient flowing into the backward operator's result) and the
backward operator's inputs, and returns the gradient of its `self` input: the
activation's second derivative times ``grad * grad_output``.
"""
from __future__ import annotations

import math

import numpy as np

import glasstorch as torch

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TANH_BETA = math.sqrt(2.0 / math.pi)
_TANH_KAPPA = 0.044715


def elu_double_backward(grad, grad_output, alpha, scale, input_scale, is_result: bool,
                        self_or_result):
    """d/dx of elu_backward: only the negative part curves."""
    negative = (self_or_result < 0).to(grad.dtype)
    if is_result:
        return grad * grad_output * input_scale * negative
    inner = torch.ops.aten.elu_backward(grad * grad_output * input_scale, alpha, scale,
                                        input_scale, False, self_or_result)
    return inner * negative


def celu_backward(grad, self, alpha):
    """celu's derivative: elu_backward with input scale ``1 / alpha``, alpha read as a
    float32 first (torch's formula uses ``alpha.toFloat()``)."""
    input_scale = 1.0 / float(np.float32(alpha))
    return torch.ops.aten.elu_backward(grad, alpha, 1, input_scale, False, self)


def gelu_double_backward(grad, grad_output, self, approximate: str):
    """gelu''(x) * grad * grad_output: ``phi(x) (2 - x^2)`` for the exact form; for the
    tanh form, with u = beta (x + kappa x^3) and t = tanh(u),
    ``(1 - t^2) (u' + x (u'' - 2 t u'^2) / 2)``."""
    if approximate == "tanh":
        square = self * self
        t = ((self + _TANH_KAPPA * square * self) * _TANH_BETA).tanh()
        slope = _TANH_BETA * (1 + 3 * _TANH_KAPPA * square)
        curve = _TANH_BETA * 6 * _TANH_KAPPA * self
        second = (1 - t * t) * (slope + 0.5 * self * (curve - 2 * t * slope * slope))
    else:
        density = (self * self * -0.5).exp() * _INV_SQRT_2PI
        second = density * (2 - self * self)
    return grad * grad_output * second


def silu_input_backward(grad, self):
    """silu's derivative: the fused silu_backward, or, when the backward itself is
    recorded (create_graph), the same math in differentiable operators, as torch's
    formula switches on grad mode (silu_backward has no derivative of its own)."""
    if not torch.is_grad_enabled():
        return torch.ops.aten.silu_backward(grad, self)
    s = self.sigmoid()
    return grad * s * (1 + self * (1 - s))


def mish_input_backward(grad, self):
    """mish's derivative ``t + x s (1 - t^2)`` (t = tanh(softplus(x)), s = sigmoid(x)):
    fused, or in differentiable operators under create_graph, as `silu_input_backward`."""
    if not torch.is_grad_enabled():
        return torch.ops.aten.mish_backward(grad, self)
    t = torch.nn.functional.softplus(self).tanh()
    return grad * (t + self * self.sigmoid() * (1 - t * t))


def softplus_double_backward(grad, self, beta, threshold):
    """softplus''(x) = beta s (1 - s) with s = sigmoid(beta x), 0 where it is linear
    (`grad` already holds grad * grad_output)."""
    s = (self * beta).sigmoid()
    return grad * s * (1 - s) * beta * (self * beta < threshold).to(grad.dtype)


def log_sigmoid_double_backward(grad, self):
    """log_sigmoid''(x) = -s (1 - s), s = sigmoid(x) (`grad` holds grad * grad_output)."""
    s = self.sigmoid()
    return grad * (s - 1) * s


def _glu_parts(self, dim: int):
    first, second = self.chunk(2, dim)
    gate = second.sigmoid()
    return first, gate, gate * (1 - gate)


def glu_double_backward_grad_output(grad, self, dim: int):
    """glu_backward is linear in grad_output: apply it to `grad` (split like self)."""
    first, gate, slope = _glu_parts(self, dim)
    into_first, into_second = grad.chunk(2, dim)
    return into_first * gate + into_second * first * slope


def glu_double_backward(grad, grad_output, self, dim: int):
    """glu_backward's derivative in self: the first half through the gate's slope, the
    second through the gate's slope and curvature."""
    first, gate, slope = _glu_parts(self, dim)
    into_first, into_second = grad.chunk(2, dim)
    return torch.cat([into_second * grad_output * slope,
                      grad_output * slope * (into_first + into_second * first * (1 - 2 * gate))],
                     dim)


def prelu_kernel_double_backward(grad_grad_input, grad_grad_weight, grad_output, self, weight):
    """The derivatives of _prelu_kernel_backward's two results (``g`` or ``w g`` for the
    input, 0 or ``x g`` for the weight) in grad_output, self and weight."""
    positive = self > 0
    zero = torch.zeros((), dtype=grad_output.dtype)
    return (torch.where(positive, grad_grad_input,
                        weight * grad_grad_input + self * grad_grad_weight),
            torch.where(positive, zero, grad_grad_weight * grad_output),
            torch.where(positive, zero, grad_grad_input * grad_output))
