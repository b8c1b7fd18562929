"""Complex tensors built from real ones: `complex(real, imag)` and `polar(abs, angle)`.

Unlike the arithmetic operators these promote nothing: both parts must already be of
one floating dtype (float16, float32 or float64), and the result is its complex
counterpart, broadcast to both shapes, as torch's `complex` and `polar` are.
"""
from __future__ import annotations

import numpy as np

from ....c10.dtype import scalar_type_name
from ...derivatives import derivative_helper
from ...meta.pointwise import Promotion, elementwise_meta
from ...registry import TensorMeta, op

_PART_DTYPES = ("Half", "Float", "Double")


def _parts_meta(first, second, out=None):
    """Both parts of one floating dtype; the result their complex dtype, broadcast and
    laid out as an elementwise result (TensorIterator's rule)."""
    names = (scalar_type_name(first._dtype), scalar_type_name(second._dtype))
    if names[0] not in _PART_DTYPES or names[1] not in _PART_DTYPES:
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{names[0]} and {names[1]}")
    if first._dtype is not second._dtype:
        raise RuntimeError(f"Expected object of scalar type {names[0]} but got scalar type "
                           f"{names[1]} for second argument")
    dtype = first._dtype.to_complex()
    if out is not None and out._dtype is not dtype:
        raise RuntimeError(f"Expected object of scalar type {scalar_type_name(dtype)} but got "
                           f"scalar type {scalar_type_name(out._dtype)} for argument 'out'")
    layout = elementwise_meta([first, second], Promotion.DEFAULT)
    return TensorMeta(layout.shape, dtype, layout.stride)


@op("complex(Tensor real, Tensor imag) -> Tensor", meta=_parts_meta, out=True,
    grad={"real": "grad.real", "imag": "grad.imag"})
def complex_(real, imag, *, out):
    """The complex tensor ``real + imag * 1j``.

    Args:
        real (Tensor): the real parts (float16, float32 or float64).
        imag (Tensor): the imaginary parts, of `real`'s dtype (broadcast against it).

    Example::

        >>> torch.complex(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
        tensor([1.+3.j, 2.+4.j])
    """
    np.copyto(out.real, real)
    np.copyto(out.imag, imag)


@derivative_helper
def polar_backward(grad, result):
    """Gradients of ``polar(abs, angle) = abs * e^(i angle)`` for its two real inputs: the
    real parts of ``conj(grad)`` times the derivatives ``e^(i angle)`` (taken as
    ``sgn(result)``, so none at the origin, as torch's) and ``i * result``."""
    conjugated = grad.conj()
    return (conjugated * result.sgn()).real, (conjugated * (result * 1j)).real


@op("polar(Tensor abs, Tensor angle) -> Tensor", meta=_parts_meta, out=True,
    grad={"abs, angle": "polar_backward(grad, result)"})
def polar(abs, angle, *, out):
    """The complex tensor with absolute values `abs` and arguments `angle` (radians):
    ``abs * cos(angle) + abs * sin(angle) * 1j``.

    Args:
        abs (Tensor): the absolute values (float16, float32 or float64).
        angle (Tensor): the arguments, of `abs`'s dtype (broadcast against it).

    Example::

        >>> torch.polar(torch.tensor([2.]), torch.tensor([0.]))
        tensor([2.+0.j])
    """
    np.multiply(abs, np.cos(angle), out=out.real)      # inf * cos(...): nan, silently
    np.multiply(abs, np.sin(angle), out=out.imag)
