"""Double backward of layer normalization (torch's ``layer_norm_double_backward``),
re-exported by `manual.py` where formulas look names up.

Note [Layer norm double backward]
    Per row of N elements, with ``x̂ = (x - mean) * r`` (r = rstd), ``g = grad_out * w``
    and first-order gradients ``gI = r (g - mean(g) - x̂ mean(g x̂))``,
    ``gW = Σrows grad_out x̂``, ``gB = Σrows grad_out``, the cotangents (a, bW, bB) of
    (gI, gW, gB) give:

    * grad_out: ``w r (a - mean(a) - x̂ mean(a x̂)) + bW x̂ + bB`` (the projection in gI
      is symmetric, so it is its own adjoint);
    * weight: ``Σrows grad_out r (a - mean(a) - x̂ mean(a x̂))``;
    * input: through x̂, whose Jacobian is ``r (δ - 1/N - x̂ x̂ᵀ / N)`` once the
      dependence of mean and r on x is counted, plus the explicit r in gI
      (``dr/dx = -r² x̂ / N``): with ``v = -(r / N)(a Σ(g x̂) + g Σ(a x̂)) + bW grad_out``,
      ``r (v - mean(v) - x̂ mean(v x̂)) - r x̂ Σ(a gI) / N``.

    Written in torch operators, so it is differentiable again.
"""
from __future__ import annotations

import math

import glasstorch as torch


def _project(values, normalized, rstd):
    """``r (v - mean(v) - x̂ mean(v x̂))`` per row: the adjoint-free part of gI."""
    return rstd * (values - values.mean(1, keepdim=True)
                   - normalized * (values * normalized).mean(1, keepdim=True))


def layer_norm_double_backward(input, weight, grad_input_grad, grad_weight_grad,
                               grad_bias_grad, grad_out, mean, rstd, normalized_shape, mask):
    """The gradients of grad_out, input and weight of `native_layer_norm_backward`'s
    results (see Note [Layer norm double backward]); None where `mask` says no."""
    length = math.prod(normalized_shape)
    rows = input.numel() // length if length else 0
    shape = input.shape
    x, grad = input.reshape(rows, length), grad_out.reshape(rows, length)
    normalized = (x - mean.reshape(rows, 1)) * rstd.reshape(rows, 1)
    r = rstd.reshape(rows, 1)
    w = None if weight is None else weight.reshape(length)
    a = None if grad_input_grad is None else grad_input_grad.reshape(rows, length)
    b_weight = None if grad_weight_grad is None else grad_weight_grad.reshape(length)
    projected = None if a is None else _project(a, normalized, r)
    found_grad = found_input = found_weight = None
    if mask[0]:
        found_grad = torch.zeros_like(grad)
        if projected is not None:
            found_grad = found_grad + (projected if w is None else projected * w)
        if b_weight is not None:
            found_grad = found_grad + b_weight * normalized
        if grad_bias_grad is not None:
            found_grad = found_grad + grad_bias_grad.reshape(length)
        found_grad = found_grad.reshape(shape)
    if mask[1]:
        found_input = _input_part(grad if w is None else grad * w, grad, normalized, r, a,
                                  b_weight, length).reshape(shape)
    if mask[2] and weight is not None:
        found_weight = torch.zeros_like(weight) if projected is None else \
            (grad * projected).sum(0).reshape(weight.shape)
    return found_grad, found_input, found_weight


def _input_part(scaled, grad, normalized, r, a, b_weight, length):
    """The input's gradient: `v` through x̂'s Jacobian, plus the explicit r of gI."""
    v = torch.zeros_like(normalized)
    if b_weight is not None:
        v = v + b_weight * grad
    if a is None:
        return _project(v, normalized, r)
    scaled_dot = (scaled * normalized).sum(1, keepdim=True)
    a_dot = (a * normalized).sum(1, keepdim=True)
    v = v - (r / length) * (a * scaled_dot + scaled * a_dot)
    first_order = _project(scaled, normalized, r)
    return _project(v, normalized, r) - r * normalized * (a * first_order).sum(1, keepdim=True) \
        / length
