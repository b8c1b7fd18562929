"""Derivatives too long for one formula line (torch's FunctionsManual).

Formulas in declarations call these by name (`clamp_backward(grad, self, min, max)`).
They are written in torch operators, so they are differentiable themselves and double
backward flows through them. Complex gradients follow torch's convention: for
``y = f(z)`` the gradient of `z` is ``conj(dy/dz) * g + (dy/dz̄) * conj(g)``.
"""
from __future__ import annotations

import math

import numpy as np

import glasstorch as torch

from .engine import sum_to  # noqa: F401  (looked up by name from formulas)
from .manual_indexing import (  # noqa: F401  (looked up by name from formulas)
    index_reduce_backward, masked_scatter_backward, masked_select_backward,
    scatter_reduce_backward, take_along_dim_backward)
from .manual_diagonal import (  # noqa: F401  (looked up by name from formulas)
    as_strided_scatter_backward, diag_backward, slice_part, trace_backward)
from .manual_distance import (  # noqa: F401  (looked up by name from formulas)
    cdist_backward, cross_dim, euclidean_dist_backward, renorm_backward)
from .manual_sorting import quantile_backward, quantile_q_backward  # noqa: F401
from .manual_activation import (  # noqa: F401  (looked up by name from formulas)
    celu_backward, elu_double_backward, gelu_double_backward, glu_double_backward,
    glu_double_backward_grad_output, log_sigmoid_double_backward, mish_input_backward,
    prelu_kernel_double_backward, silu_input_backward, softplus_double_backward)
from .manual_loss import (  # noqa: F401  (looked up by name from formulas)
    binary_cross_entropy_double_backward, binary_cross_entropy_double_backward_grad_output,
    binary_cross_entropy_double_backward_target, binary_cross_entropy_target_backward,
    binary_cross_entropy_with_logits_backward, binary_cross_entropy_with_logits_target_backward,
    huber_loss_double_backward, huber_loss_double_backward_grad_output, mse_loss_double_backward,
    mse_loss_double_backward_grad_output, smooth_l1_loss_double_backward,
    smooth_l1_loss_double_backward_grad_output)
from .manual_normalization import layer_norm_double_backward  # noqa: F401
from .manual_embedding import embedding_dense_double_backward  # noqa: F401
from .manual_padding import constant_pad_nd_backward  # noqa: F401
from .manual_scan import (  # noqa: F401  (looked up by name from formulas)
    cummaxmin_backward, cumprod_backward, cumsum_backward, logcumsumexp_backward)
from .manual_reduction import (  # noqa: F401  (looked up by name from formulas)
    amax_amin_backward, aminmax_backward, dist_backward, evenly_distribute_backward,
    logsumexp_backward,
    mean_backward, moment_mean_backward, nanmean_backward, nansum_backward, norm_backward,
    prod_backward, std_backward, sum_backward, value_selecting_reduction_backward,
    var_backward)


def not_implemented(name: str):
    """The formula of an operator whose derivative torch does not implement either
    (derivatives.yaml's ``not_implemented``: torch raises NotImplementedError, which is
    a RuntimeError)."""
    raise NotImplementedError(f"the derivative for '{name}' is not implemented.")


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


def polar_backward(grad, result):
    """Gradients of ``polar(abs, angle) = abs * e^(i angle)`` for its two real inputs: the
    real parts of ``conj(grad)`` times the derivatives ``e^(i angle)`` (taken as
    ``sgn(result)``, so none at the origin, as torch's) and ``i * result``."""
    conjugated = grad.conj()
    return (torch.real(conjugated * result.sgn()), torch.real(conjugated * (result * 1j)))


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
    if eps is None or eps < 0:                 # a negative eps clamps nothing
        outside = (self < 0).logical_or(self > 1)
        fill = torch.full((), math.nan, dtype=grad.dtype)
    else:     # NaN propagates (torch's scalar loop; its vectorized loop gives 0)
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
    values = self.detach().numpy()
    return torch.from_numpy(np.asarray(special.i1(values), dtype=values.dtype))


def conj(value):
    """The conjugate of a tensor or of a number (a Scalar argument)."""
    return value.conj() if isinstance(value, torch.Tensor) else value.conjugate()


def maybe_multiply(grad, value):
    """``grad * value``, or `grad` itself when `value` is a real number equal to 1 (torch's
    helper of the same name): the default ``alpha=1`` / ``beta=1`` cost no pass over the
    gradient, and a double backward records no MulBackward0, as in torch."""
    if isinstance(value, (int, float)) and value == 1:
        return grad
    return grad * value


# mm / addmm: a column-major matrix (strides (1, rows): a transposed one, such as the
# weight.t() of linear) gets its gradient as the transpose of a row-major product, as in
# torch, so the gradient has the input's own layout: a leaf behind a `.t()` then receives
# a row-major gradient that AccumulateGrad keeps instead of copying.
def mm_mat1_backward(grad, mat2, sizes, strides, alpha):
    """The gradient of `mat1` in ``alpha * mat1 @ mat2``, laid out as `mat1` was."""
    if strides[0] == 1 and strides[1] == sizes[0]:
        return maybe_multiply(mat2.conj().mm(grad.t()).t(), conj(alpha))
    return maybe_multiply(grad.mm(mat2.t().conj()), conj(alpha))


def mm_mat2_backward(grad, mat1, sizes, strides, alpha):
    """The gradient of `mat2` in ``alpha * mat1 @ mat2``, laid out as `mat2` was."""
    if strides[0] == 1 and strides[1] == sizes[0]:
        return maybe_multiply(grad.t().mm(mat1.conj()).t(), conj(alpha))
    return maybe_multiply(mat1.t().conj().mm(grad), conj(alpha))


# ----- views: the gradient lands in the positions the view showed -------------------
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
    if not sizes:                             # a 0-dim input: one window of itself
        return grad.reshape(sizes)
    dimension = dimension % len(sizes)
    windows = grad.shape[dimension] if len(sizes) else 1
    positions = (torch.arange(windows) * step).unsqueeze(1) + torch.arange(size)
    spread = grad.movedim(-1, dimension + 1).flatten(dimension, dimension + 1)
    return grad.new_zeros(sizes).index_add(dimension, positions.flatten(), spread)


# ----- joining and repeating: each input gets back its part of the result ------------
def _real_like(piece, like):
    """A gradient piece for a real input is real (torch's handle_r_to_c)."""
    return piece.real if piece.is_complex() and not like.is_complex() else piece


def cat_backward(grad, tensors, dim: int):
    """Each input's slice of `grad` along `dim`; torch's skipped (0,) inputs get empties."""
    kept = [t for t in tensors if tuple(t.shape) != (0,)]
    dim = dim % kept[0].dim() if kept else dim
    grads, start = [], 0
    for t in tensors:
        if tuple(t.shape) == (0,):
            grads.append(grad.new_zeros((0,), dtype=t.dtype))
            continue
        grads.append(_real_like(grad.narrow(dim, start, t.shape[dim]), t))
        start += t.shape[dim]
    return grads


def stack_backward(grad, tensors, dim: int):
    """Each input's index of `grad` along the new dim."""
    return [_real_like(piece, t) for piece, t in zip(grad.unbind(dim % grad.dim()), tensors)]


def block_diag_backward(grad, tensors):
    """Each block's part of `grad`, in the block's own shape."""
    grads, row, column = [], 0, 0
    for t in tensors:
        height, width = tuple(t.shape) if t.dim() == 2 else (1, t.numel())
        piece = grad[row:row + height, column:column + width].reshape(t.shape)
        grads.append(_real_like(piece, t))
        row, column = row + height, column + width
    return grads


def repeat_backward(grad, repeats, sizes):
    """Every copy of each element summed: `grad` seen as (r0, s0, r1, s1, ...) summed over
    the r dims (and over the dims `repeat` added in front)."""
    if 0 in repeats:
        return grad.new_zeros(sizes)
    extra = len(repeats) - len(sizes)
    if extra:
        grad = grad.sum(tuple(range(extra)))
    split = []
    for r, s in zip(repeats[extra:], sizes):
        split += [r, s]
    return grad.reshape(split).sum(tuple(range(0, len(split), 2))) if split else grad


def repeat_interleave_backward(grad, self, repeats, dim):
    """Each element's copies (slices along `dim`) summed back into it."""
    source = self.reshape(-1) if dim is None else self
    dim = 0 if dim is None else dim % self.dim()
    counts = repeats.reshape(-1).expand(source.shape[dim]) if repeats.numel() == 1 else repeats
    index = torch.repeat_interleave(counts.contiguous())
    return grad.new_zeros(source.shape).index_add(dim, index, grad).reshape(self.shape)


def roll_backward(grad, shifts, dims):
    """roll undone: the same roll, backwards."""
    return grad.roll([-s for s in shifts], dims)


def kron_backward(grad, self, other):
    """kron's gradients: each factor's elements times the matching parts of the other,
    summed (`grad` seen as (a0, b0, a1, b1, ...))."""
    from ..aten.native.shape.combine import kron_shapes
    left, right, _ = kron_shapes(tuple(self.shape), tuple(other.shape))
    blocks = grad.reshape([a * b for a, b in zip(left, right)])
    grad_self, grad_other = blocks * other.reshape(right).conj(), blocks * self.reshape(left).conj()
    if left:                            # sum over the other factor's interleaved dims
        grad_self = grad_self.sum(tuple(range(1, len(left), 2)))
        grad_other = grad_other.sum(tuple(range(0, len(left), 2)))
    return grad_self.reshape(self.shape), grad_other.reshape(other.shape)


def narrow_copy_backward(grad, sizes, dim: int, start: int, length: int):
    """`grad` in the narrowed positions, zeros elsewhere. torch's formula slices
    ``start:start + length`` without wrapping a negative start, which selects nothing
    (so such a start gets a zero gradient there); done the same here."""
    zeros = grad.new_zeros(sizes)
    if start < 0:
        return zeros
    return torch.slice_scatter(zeros, grad, dim % len(sizes), start, start + length, 1)


def _storage_positions(sizes, strides, offset: int):
    """The storage index of every element of a strided geometry, in row-major order."""
    positions = torch.full((), offset, dtype=torch.int64)
    for size, stride in zip(sizes, strides):
        positions = positions.unsqueeze(-1) + torch.arange(size) * stride
    return positions.reshape(-1)


def as_strided_backward(grad, sizes, strides, offset, size, stride, storage_offset):
    """Each element of the strided view adds its gradient to the storage slot it read
    (slots read twice sum), and the input reads its elements back from those slots."""
    storage_offset = offset if storage_offset is None else storage_offset
    read = _storage_positions(size, stride, storage_offset)
    mine = _storage_positions(sizes, strides, offset)
    extent = 1 + max([0] + [int(p.max()) for p in (read, mine) if p.numel()])
    slots = grad.new_zeros((extent,)).index_add(0, read, grad.reshape(-1))
    return slots.index_select(0, mine).reshape(sizes)


def pow_backward(grad, self, exponent):
    """d(self ** exponent)/d(self): a number exponent (torch's Scalar overload) needs no
    `where` guard; a tensor one guards its zeros (0 ** 0 has slope 0)."""
    if getattr(exponent, "_wrapped_number", False) and not exponent.requires_grad:
        value = exponent.item()
        if value == 0:
            return torch.zeros_like(self)
        return grad * (value * self.pow(value - 1)).conj()
    return torch.where(exponent == 0, torch.zeros_like(grad),
                       grad * (exponent * self.pow(exponent - 1)).conj())
