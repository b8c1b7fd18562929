"""Helpers shared by the distributions: broadcasting parameters, probabilities and
logits, lazily computed properties, and triangular matrices as vectors."""
from __future__ import annotations

from functools import update_wrapper
from numbers import Number

import glasstorch as torch
import glasstorch.nn.functional as F

euler_constant = 0.57721566490153286060   # the Euler-Mascheroni constant

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits",
           "lazy_property", "tril_matrix_to_vec", "vec_to_tril_matrix"]


def broadcast_all(*values):
    """Broadcast tensors and numbers to tensors of one shape.

    Numbers become tensors of the first tensor's dtype and device (the default dtype
    when there is none).

    Args:
        values: tensors, numbers, or objects with a ``__torch_function__``.

    Returns:
        tuple of tensors, broadcast together.

    Raises:
        ValueError: an argument is neither a tensor nor a number.
    """
    if not all(isinstance(v, torch.Tensor) or hasattr(v, "__torch_function__")
               or isinstance(v, Number) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    if not all(isinstance(v, torch.Tensor) for v in values):
        options = {"dtype": torch.get_default_dtype()}
        for value in values:
            if isinstance(value, torch.Tensor):
                options = {"dtype": value.dtype, "device": value.device}
                break
        values = [v if isinstance(v, torch.Tensor) else torch.tensor(v, **options)
                  for v in values]
    return torch.broadcast_tensors(*values)


def _standard_normal(shape, dtype, device):
    return torch.empty(shape, dtype=dtype, device=device).normal_()


def _check_one_of(probs, logits) -> None:
    """Refuse both or neither of the two parametrisations."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def _enumerate_values(distribution, count: int, dtype, expand: bool):
    """0 .. count - 1 along a new leading dimension, before the batch dimensions
    (expanded over them, or singletons): a discrete distribution's support."""
    values = torch.arange(count, dtype=dtype, device=distribution._param.device)
    values = values.view((-1,) + (1,) * len(distribution._batch_shape))
    if expand:
        values = values.expand((-1,) + distribution._batch_shape)
    return values


def _sum_rightmost(value, dim: int):
    """Sum over the `dim` rightmost dimensions of `value`."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary: bool = False):
    """Probabilities from logits: a sigmoid for binary events, else a softmax over the
    last dimension."""
    if is_binary:
        return torch.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def clamp_probs(probs):
    """Probabilities kept within [eps, 1 - eps] of their dtype (so logs stay finite)."""
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary: bool = False):
    """Logits from probabilities: log-odds for binary events, else log-probabilities."""
    clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(clamped) - torch.log1p(-clamped)
    return torch.log(clamped)


class lazy_property:
    """A property computed on first access and then stored on the instance (so a
    distribution made from logits computes probs only if asked)."""

    def __init__(self, wrapped) -> None:
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    """What a lazy property looks like on the class: a property, for introspection."""

    def __init__(self, wrapped) -> None:
        property.__init__(self, wrapped)


def tril_matrix_to_vec(mat, diag: int = 0):
    """The lower triangle of (batches of) square matrices, row by row, as vectors;
    `diag` moves the diagonal kept (negative: below the main one)."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    arange = torch.arange(n, device=mat.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    return mat[..., tril_mask]


def vec_to_tril_matrix(vec, diag: int = 0):
    """The inverse of `tril_matrix_to_vec`: square lower-triangular matrices filled
    row by row from vectors."""
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag)
                            * (diag + 1)) ** 0.5) / 2
    eps = torch.finfo(vec.dtype).eps
    if round(n) - n > eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be "
                         "expressed as the lower triangular part of a square D x D matrix.")
    n = round(n.item()) if isinstance(n, torch.Tensor) else round(n)
    mat = vec.new_zeros(vec.shape[:-1] + torch.Size((n, n)))
    arange = torch.arange(n, device=vec.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    mat[..., tril_mask] = vec
    return mat
