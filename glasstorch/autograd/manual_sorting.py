"""Derivatives of quantile and nanquantile, re-exported by `manual.py` where formulas
look names up.

torch computes a quantile as a blend of two elements of the sorted row: ``below +
weight * (above - below)``, where `weight` is the fractional part of the rank
``q * last_index``. So the input's gradient goes to the two elements read, in the
proportions ``1 - weight`` and `weight`, and `q`'s gradient (linear interpolation only:
the other interpolations round the rank, or use a fixed weight) is ``(above - below) *
last_index``. Where the elements were read is worked out by the forward kernel's own
`QuantilePositions`; the gradients themselves are written in torch operators.
"""
from __future__ import annotations

import numpy as np

import glasstorch as torch


class _Rows:
    """The input as rows to sort (the reduced dim last, or all elements in one row),
    the positions each quantile reads in them, and the gradient laid out as rows x q."""

    def __init__(self, grad, values, q, dim, keepdim: bool, interpolation: str,
                 ignore_nan: bool) -> None:
        self.shape = tuple(values.shape)
        self.dim = dim
        whole = dim is None or not self.shape
        self.rows = values.reshape(-1) if whole else values.movedim(dim, -1)
        self.order = self.rows.detach().argsort(dim=-1, stable=True)
        ordered = self.rows.detach().gather(-1, self.order).numpy()
        q_values = q.detach().numpy() if isinstance(q, torch.Tensor) else q
        q_values = np.asarray(q_values, dtype=ordered.dtype).reshape(-1)
        from ..aten.native.reduction.quantile import QuantilePositions   # loaded: quantile ran
        self.at = QuantilePositions(ordered, q_values, interpolation, ignore_nan)
        q_is_vector = isinstance(q, torch.Tensor) and q.dim() == 1
        g = grad.movedim(0, -1) if q_is_vector else grad.unsqueeze(-1)
        if keepdim and self.shape:          # drop the kept size-1 dims
            g = g.reshape(-1, g.shape[-1])[0] if dim is None else g.squeeze(dim)
        self.grad = g

    @staticmethod
    def tensor(array: np.ndarray):
        return torch.from_numpy(np.ascontiguousarray(array))

    def back(self, rows_grad):
        """A gradient laid out as the rows, in the input's shape."""
        if self.dim is None or not self.shape:
            return rows_grad.reshape(self.shape)
        return rows_grad.movedim(-1, self.dim)


def quantile_backward(grad, self, q, dim, keepdim: bool, interpolation: str,
                      ignore_nan: bool):
    """The input's gradient: each quantile's gradient split between the two sorted
    elements it blends (all of it to one element when it reads one)."""
    r = _Rows(grad, self, q, dim, keepdim, interpolation, ignore_nan)
    weight = r.tensor(r.at.weight)
    below = r.order.gather(-1, r.tensor(r.at.below))
    above = r.order.gather(-1, r.tensor(r.at.above))
    rows_grad = torch.zeros_like(r.rows).scatter_add(-1, below, r.grad * (1 - weight))
    rows_grad = rows_grad.scatter_add(-1, above, r.grad * weight)
    return r.back(rows_grad)


def quantile_q_backward(grad, self, q, dim, keepdim: bool, interpolation: str,
                        ignore_nan: bool):
    """`q`'s gradient: the slope of the blend, (above - below) times d(rank)/dq;
    None unless the interpolation is linear (the rank is rounded, or unused)."""
    if interpolation != "linear":
        return None
    r = _Rows(grad, self, q, dim, keepdim, interpolation, ignore_nan)
    ordered = r.rows.gather(-1, r.order)
    step = ordered.gather(-1, r.tensor(r.at.above)) - ordered.gather(-1, r.tensor(r.at.below))
    slope = r.tensor(r.at.slope)
    per_row = torch.where(slope == 0, torch.zeros_like(step), r.grad * step * slope)
    return per_row.reshape(-1, per_row.shape[-1]).sum(0).reshape(q.shape)
