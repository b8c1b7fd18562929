"""Derivative of constant padding, re-exported by `manual.py` where formulas look names
up."""
from __future__ import annotations

import glasstorch as torch


def constant_pad_nd_backward(grad, pad):
    """Padding's gradient crops the border back off: the same operator with every amount
    negated (the cropped parts of a negative pad get zeros)."""
    return torch.constant_pad_nd(grad, [-amount for amount in pad], 0)
