"""Padding: constant_pad_nd (a constant border, or cropping for negative amounts) and
`pad`, torch.nn.functional.pad's operator, which also reflects, replicates or wraps.

`pad` lists amounts from the last dim backwards: ``(left, right)`` for the last dim,
then ``(top, bottom)`` for the one before, and so on.

The other modes are `padding_modes.py`'s operators (Note [Non-constant padding]).
"""
from __future__ import annotations

import numpy as np

from ... import functions as at
from ...derivatives import derivative_helper
from ...registry import TensorMeta, composite, op
from .padding_modes import PADS, _pad_circular


def _padded_shape(self, pad) -> tuple:
    """The result's sizes, with constant_pad_nd's checks."""
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    ndim = self.dim()
    if len(pad) // 2 > ndim:
        # torch's message, missing spaces included
        raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions "
                           f"of the input. Pad length is {len(pad)}while the input has {ndim}"
                           f"dimensions.")
    shape = list(self._size)
    for i in range(len(pad) // 2):
        dim = ndim - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        kept = shape[dim] - max(-left, 0) - max(-right, 0)
        if kept < 0:          # torch crops with narrow first, whose check speaks
            raise RuntimeError("narrow(): length must be non-negative.")
        shape[dim] = kept + max(left, 0) + max(right, 0)
    return tuple(shape)


@derivative_helper
def constant_pad_nd_backward(grad, pad):
    """Padding's gradient crops the border back off: the same operator with every amount
    negated (the cropped parts of a negative pad get zeros)."""
    return at.constant_pad_nd(grad, [-amount for amount in pad], 0)


@op("constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor",
    meta=lambda self, pad, value=0: TensorMeta(_padded_shape(self, pad), self._dtype),
    grad={"self": "constant_pad_nd_backward(grad, pad)"})
def constant_pad_nd(self, pad, value, *, out):
    """Pad `input` with `value` (crop where an amount is negative).

    Args:
        input (Tensor): any shape.
        pad (list of ints): ``(left, right)`` amounts from the last dim backwards.
        value (Number): the fill. Default: 0.

    Example::

        >>> torch.constant_pad_nd(torch.tensor([[1, 2]]), [1, 0, 0, 1], 9)
        tensor([[9, 1, 2],
                [9, 9, 9]])
    """
    out.fill(np.array(value).astype(out.dtype) if out.dtype.kind != "b" else bool(value))
    source, target = [slice(None)] * self.ndim, [slice(None)] * self.ndim
    for i in range(len(pad) // 2):
        dim = self.ndim - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        size = self.shape[dim]
        source[dim] = slice(max(-left, 0), size - max(-right, 0))
        target[dim] = slice(max(left, 0), max(left, 0) + max(size - max(-left, 0) -
                                                           max(-right, 0), 0))
    out[tuple(target)] = self[tuple(source)]


_MODES = {"constant": 0, "reflect": 1, "replicate": 2, "circular": 3}


def _check_dims(self, pad) -> None:
    """Non-constant modes pad the last 1 to 3 dims of a tensor with one or two more."""
    ndim = self.dim()
    if not (len(pad) in (2, 4, 6) and len(pad) // 2 + 1 <= ndim <= len(pad) // 2 + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {ndim}D input tensor.\n"
            f"Supported combinations for non-constant padding:\n"
            f"  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            f"  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            f"  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


@composite("pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor",
           python_module="nn")
def pad(self, pad, mode="constant", value=None):
    """Pad `input`: with a constant, or by reflecting, replicating or wrapping its edges.

    Args:
        input (Tensor): for non-constant modes, 2-D to 5-D with 1 to 3 padded dims.
        pad (list of ints): ``(left, right)`` amounts from the last dim backwards.
        mode (str): ``'constant'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
        value (float, optional): the constant mode's fill (0 by default).

    Example::

        >>> torch.nn.functional.pad(torch.tensor([[1., 2., 3.]]), (2, 1), mode="reflect")
        tensor([[3., 2., 1., 2., 3., 2.]])
    """
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode == "constant":
        if len(pad) % 2:
            raise RuntimeError("Padding length must be divisible by 2")
        if len(pad) // 2 > self.dim():
            raise RuntimeError(f"Padding length should be less than or equal to two times the "
                               f"input dimension but got padding length {len(pad)} and input of "
                               f"dimension {self.dim()}")
        return constant_pad_nd.call(self, pad, 0 if value is None else value)
    if value is not None:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    _check_dims(self, pad)
    if mode == "circular":
        return _pad_circular.call(self, pad)
    return PADS[mode, len(pad) // 2].call(self, pad)
