"""Derivatives too long for one formula line (torch's FunctionsManual).

Formulas in declarations call these by name (`clamp_backward(grad, self, min, max)`).
They are written in torch operators, so they are differentiable themselves and double
backward flows through them. Complex gradients follow torch's convention: for
``y = f(z)`` the gradient of `z` is ``conj(dy/dz) * g + (dy/dz̄) * conj(g)``.
"""
from __future__ import annotations

import math

import glasstorch as torch

from .manual_indexing import (  # noqa: F401  (looked up by name from formulas)
    index_reduce_backward, masked_scatter_backward, masked_select_backward,
    scatter_reduce_backward, take_along_dim_backward)
from .manual_reduction import (  # noqa: F401  (looked up by name from formulas)
    amax_amin_backward, aminmax_backward, evenly_distribute_backward, logsumexp_backward,
    mean_backward, moment_mean_backward, nanmean_backward, nansum_backward, norm_backward,
    prod_backward, std_backward, sum_backward, value_selecting_reduction_backward,
    var_backward)


def not_implemented(name: str):
    """The formula of an operator whose derivative torch does not implement either."""
    raise RuntimeError(f"the derivative for '{name}' is not implemented.")


def _zero(like):
    return torch.zeros((), dtype=like.dtype)


def angle_backward(grad, self):
    """angle(z) = atan2(imag, real): zero for real inputs (their angle is piecewise flat)."""
    if not self.is_complex():
        return torch.zeros_like(self)
    safe = torch.where(self == 0, torch.ones_like(self), self)
    return torch.where(self == 0, _zero(self), grad * safe / safe.abs().pow(2) * 1j)


def sgn_backward(self, grad, result):
    """sgn(z) = z / |z|: only the component of `grad` tangent to the unit circle counts."""
    if not self.is_complex():
        return torch.zeros_like(self)
    magnitude = self.abs()
    safe = torch.where(magnitude == 0, torch.ones_like(magnitude), magnitude)
    tangent = (grad - result * (grad * result.conj()).real) / safe
    return torch.where(magnitude == 0, _zero(tangent), tangent)


def sinc_backward(grad, self):
    """sinc(x) = sin(pi x) / (pi x): derivative (cos(pi x) - sinc(x)) / x, 0 at x = 0."""
    safe = torch.where(self == 0, torch.ones_like(self), self)
    slope = ((safe * math.pi).cos() - safe.sinc()) / safe
    return grad * torch.where(self == 0, _zero(slope), slope).conj()


def clamp_backward(grad, self, min=None, max=None):
    """Pass `grad` where `self` was inside [min, max] (bounds numbers or tensors)."""
    if min is not None and max is not None:
        inside = (self >= min).logical_and(self <= max)
    elif min is not None:
        inside = self >= min
    elif max is not None:
        inside = self <= max
    else:
        return grad
    return torch.where(inside, grad, _zero(grad))


def clamp_backward_min_max(grad, self, min, max, mask):
    """The gradients of tensor bounds: `min` gets `grad` where it clamped, `max` too (and
    `max` wins where the bounds cross, as clamp itself lets it)."""
    zero = _zero(grad)
    grad_min = grad_max = None
    if min is not None and max is not None:
        if mask[0]:
            grad_min = torch.where((self < min).logical_and(min < max), grad, zero)
        if mask[1]:
            grad_max = torch.where((self > max).logical_or(max < min), grad, zero)
    elif min is not None and mask[0]:
        grad_min = torch.where(self < min, grad, zero)
    elif max is not None and mask[1]:
        grad_max = torch.where(self > max, grad, zero)
    return grad_min, grad_max


def logit_backward(grad, self, eps=None):
    """logit(x) = log(x / (1 - x)): 1 / (x (1 - x)) inside the domain (or [eps, 1-eps]);
    NaN outside [0, 1] without eps, 0 outside the clamped range with it."""
    if eps is None:
        outside = (self < 0).logical_or(self > 1)
        fill = torch.full((), math.nan, dtype=grad.dtype)
    else:
        outside = (self < eps).logical_or(self > 1 - eps)
        fill = _zero(grad)
    return torch.where(outside, fill, grad / (self * (1 - self)))


def mvlgamma_backward(grad, self, p: int):
    """The multivariate log-gamma's derivative: a sum of digammas at shifted points."""
    shifts = torch.arange(-p / 2 + 0.5, 0.5, 0.5, dtype=self.dtype)
    return grad * (self.unsqueeze(-1) + shifts).digamma().sum(-1)


def special_i1(self):
    """The modified Bessel function I1 (i0's derivative), computed by SciPy."""
    from scipy import special
    return torch.from_numpy(special.i1(self.detach().numpy()).astype(self.numpy().dtype))


# ----- views: the gradient lands in the positions the view showed -------------------
def sum_to(grad, sizes):
    """`grad` summed over the dimensions that broadcasting `sizes` added (expand's
    backward)."""
    from .engine import sum_to as reduce_to
    return reduce_to(grad, tuple(sizes))


def permute_backwards(grad, dims):
    """permute's inverse: dimension `dims[i]` of the input is dimension `i` of the view."""
    inverse = [0] * len(dims)
    for position, dim in enumerate(dims):
        inverse[dim % len(dims)] = position
    return grad.permute(inverse)


def select_backward(grad, sizes, dim: int, index: int):
    return torch.select_scatter(grad.new_zeros(sizes), grad, dim, index)


def slice_backward(grad, sizes, dim: int, start, end, step: int):
    return torch.slice_scatter(grad.new_zeros(sizes), grad, dim, start, end, step)


def diagonal_backward(grad, sizes, offset: int, dim1: int, dim2: int):
    return torch.diagonal_scatter(grad.new_zeros(sizes), grad, offset, dim1, dim2)


def unfold_backward(grad, sizes, dimension: int, size: int, step: int):
    """Each window's gradient added back at the positions it covered (windows overlap
    when step < size, so their contributions sum)."""
    dimension = dimension % max(len(sizes), 1)
    windows = grad.shape[dimension] if len(sizes) else 1
    positions = (torch.arange(windows) * step).unsqueeze(1) + torch.arange(size)
    spread = grad.movedim(-1, dimension + 1).flatten(dimension, dimension + 1) \
        if len(sizes) else grad
    return grad.new_zeros(sizes).index_add(dimension, positions.flatten(), spread)
