"""Derivatives of the scans (cumsum, cumprod, cummax/cummin, logcumsumexp), too long for
one formula line: torch's FunctionsManual for them, re-exported by `manual.py` where
formulas look names up. Written in torch operators, so they are differentiable again.
"""
from __future__ import annotations

import glasstorch as torch


def reversed_cumsum(t, dim: int):
    """``t[i] + t[i + 1] + ... + t[-1]`` along `dim`: the adjoint of cumsum."""
    return t.flip(dim).cumsum(dim).flip(dim)


def cumsum_backward(grad, dim: int):
    """The gradient of cumsum: each input reaches every later output."""
    if grad.numel() <= 1 or grad.size(dim) == 1:
        return grad
    return reversed_cumsum(grad, dim)


def cumprod_backward(grad, self, dim: int, result):
    """The gradient of cumprod, zeros included.

    d result[j] / d self[k] is the product of self[:j + 1] without self[k], for j >= k.
    Before the first zero of a lane (at z) that is ``result[j] / self[k]``; at z it is
    the product of self[:z] times that of self[z + 1:j + 1]; after z it is 0 (the
    product keeps self[z]). Complex inputs take conjugates, as torch's convention.
    """
    if self.dim() == 0 or self.numel() <= 1:
        return grad
    zeros_seen = (self == 0).cumsum(dim)
    before = zeros_seen == 0
    first_zero = (zeros_seen == 1) & (self == 0)
    safe = self.where(before, 1)
    # products past the first zero are zero whatever follows (NaN or inf included)
    early = reversed_cumsum((grad * result.conj()).where(before, 0), dim) / safe.conj()
    prefix = safe.cumprod(dim)                      # at z: the product of self[:z]
    after = self.where(~(before | first_zero), 1).cumprod(dim)
    # ...and so are those past a second zero
    before_second = zeros_seen <= 1
    at_zero = prefix.conj() * reversed_cumsum((grad * after.conj()).where(before_second, 0), dim)
    return early.where(before, 0) + at_zero.where(first_zero, 0)


def cummaxmin_backward(grad, self, indices, dim: int):
    """The gradient of cummax / cummin: each output's gradient goes to the input it
    copied (`indices`), summed where several outputs copied one input."""
    if self.dim() == 0:
        return grad
    return self.new_zeros(self.shape).scatter_add(dim, indices, grad)


def logcumsumexp_backward(grad, self, result, dim: int):
    """The gradient of logcumsumexp: ``exp(self[k]) * sum_{j >= k} grad[j] /
    exp(result[j])``, summed in log space (positive and negative parts of a real
    `grad` apart) so that nothing overflows."""
    if grad.dim() == 0 or grad.numel() == 0:
        return grad

    def reversed_logcumsumexp(t):
        return t.flip(dim).logcumsumexp(dim).flip(dim)

    if grad.is_complex():
        return (reversed_logcumsumexp(grad.conj().log() - result) + self).exp().conj()
    lowest = torch.finfo(grad.dtype).min
    log_grad = grad.abs().log()
    positive = log_grad.where(grad > 0, lowest)
    negative = log_grad.where(grad < 0, lowest)
    return ((reversed_logcumsumexp(positive - result) + self).exp() -
            (reversed_logcumsumexp(negative - result) + self).exp())
