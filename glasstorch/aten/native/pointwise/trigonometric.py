"""Trigonometric and hyperbolic functions, sinc, and degree/radian conversion.

Elementwise (aten/pointwise.py): integers and bool compute in the default float dtype,
float16/bfloat16 in float32, complex inputs where torch takes them. `arcsin` and the
other NumPy-style names are torch's aliases (see `unary` in unary.py).
"""
from __future__ import annotations

import numpy as np

from ....c10.tensor_impl import TensorBase
from ... import libm
from ...derivatives import derivative_helper
from .unary import FLOAT_RESULT, unary


@unary("sin(Tensor self) -> Tensor", **FLOAT_RESULT, ufunc=np.sin,
       grad={"self": "grad * self.cos().conj()"})
def sin(self, *, out):
    """The sine of each element (in radians).

    Example::

        >>> torch.sin(torch.tensor([0.0, 1.5707963]))
        tensor([0., 1.])
    """
    np.sin(self, out=out)


@unary("cos(Tensor self) -> Tensor", **FLOAT_RESULT, ufunc=np.cos,
       grad={"self": "grad * -self.sin().conj()"})
def cos(self, *, out):
    """The cosine of each element (in radians).

    Example::

        >>> torch.cos(torch.tensor([0.0, 3.1415927]))
        tensor([ 1., -1.])
    """
    np.cos(self, out=out)


@unary("tan(Tensor self) -> Tensor", **FLOAT_RESULT,
       grad={"self": "grad * (1 + result * result).conj()"})
def tan(self, *, out):
    """The tangent of each element (in radians).

    Example::

        >>> torch.tan(torch.tensor([0.0, 0.7853982]))
        tensor([0., 1.])
    """
    np.tan(self, out=out)


@unary("asin(Tensor self) -> Tensor", aliases=("arcsin",), **FLOAT_RESULT,
       grad={"self": "grad * (1 - self * self).rsqrt().conj()"})
def asin(self, *, out):
    """The inverse sine of each element (NaN outside [-1, 1] for reals).

    Example::

        >>> torch.asin(torch.tensor([0.0, 1.0, 2.0]))
        tensor([0.0000, 1.5708,    nan])
    """
    np.arcsin(self, out=out)


@unary("acos(Tensor self) -> Tensor", aliases=("arccos",), **FLOAT_RESULT,
       grad={"self": "grad * -(1 - self * self).rsqrt().conj()"})
def acos(self, *, out):
    """The inverse cosine of each element (NaN outside [-1, 1] for reals).

    Example::

        >>> torch.acos(torch.tensor([1.0, -1.0]))
        tensor([0.0000, 3.1416])
    """
    np.arccos(self, out=out)


@unary("atan(Tensor self) -> Tensor", aliases=("arctan",), **FLOAT_RESULT,
       grad={"self": "grad / (self * self + 1).conj()"})
def atan(self, *, out):
    """The inverse tangent of each element.

    Example::

        >>> torch.atan(torch.tensor([0.0, float('inf')]))
        tensor([0.0000, 1.5708])
    """
    np.arctan(self, out=out)


@unary("sinh(Tensor self) -> Tensor", **FLOAT_RESULT, grad={"self": "grad * self.cosh().conj()"})
def sinh(self, *, out):
    """The hyperbolic sine of each element.

    Example::

        >>> torch.sinh(torch.tensor([0.0, 1.0]))
        tensor([0.0000, 1.1752])
    """
    libm.sinh(self, out=out)          # Note [The C library's bits]


@unary("cosh(Tensor self) -> Tensor", **FLOAT_RESULT, grad={"self": "grad * self.sinh().conj()"})
def cosh(self, *, out):
    """The hyperbolic cosine of each element.

    Example::

        >>> torch.cosh(torch.tensor([0.0, 1.0]))
        tensor([1.0000, 1.5431])
    """
    libm.cosh(self, out=out)          # Note [The C library's bits]


@unary("tanh(Tensor self) -> Tensor", **FLOAT_RESULT, ufunc=np.tanh,
       grad={"self": "tanh_backward(grad, result)"})
def tanh(self, *, out):
    """The hyperbolic tangent of each element.

    Example::

        >>> torch.tanh(torch.tensor([0.0, 100.0]))
        tensor([0., 1.])
    """
    np.tanh(self, out=out)


@unary("asinh(Tensor self) -> Tensor", aliases=("arcsinh",), **FLOAT_RESULT,
       grad={"self": "grad * (self * self + 1).rsqrt().conj()"})
def asinh(self, *, out):
    """The inverse hyperbolic sine of each element.

    Example::

        >>> torch.asinh(torch.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8814])
    """
    np.arcsinh(self, out=out)


@unary("acosh(Tensor self) -> Tensor", aliases=("arccosh",), **FLOAT_RESULT,
       grad={"self": "grad * (self * self - 1).rsqrt().conj()"})
def acosh(self, *, out):
    """The inverse hyperbolic cosine of each element (NaN below 1 for reals).

    Example::

        >>> torch.acosh(torch.tensor([1.0, 2.0]))
        tensor([0.0000, 1.3170])
    """
    np.arccosh(self, out=out)


@unary("atanh(Tensor self) -> Tensor", aliases=("arctanh",), **FLOAT_RESULT,
       grad={"self": "grad / (1 - self * self).conj()"})
def atanh(self, *, out):
    """The inverse hyperbolic tangent of each element (``inf`` at 1).

    Example::

        >>> torch.atanh(torch.tensor([0.0, 1.0]))
        tensor([0., inf])
    """
    np.arctanh(self, out=out)


@derivative_helper
def sinc_backward(grad, self):
    """d sinc(x)/dx = (cos(pi x) - sinc(x)) / x, zero at x = 0."""
    safe = self.where(self != 0, 1)           # no 0/0 for a double backward to meet
    slope = ((safe * np.pi).cos() - safe.sinc()) / safe
    return grad * slope.where(self != 0, 0).conj()


@unary("sinc(Tensor self) -> Tensor", **FLOAT_RESULT, grad={"self": "sinc_backward(grad, self)"})
def sinc(self, *, out):
    """The normalized sinc function ``sin(pi x) / (pi x)``, 1 at 0.

    Example::

        >>> torch.sinc(torch.tensor([0.0, 0.5]))
        tensor([1.0000, 0.6366])
    """
    zero = self == 0                        # read before `out` (maybe `self`) is written
    scaled = np.multiply(self, out.dtype.type(np.pi))      # pi in the compute dtype, as torch
    np.sin(scaled, out=out)
    np.divide(out, scaled, out=out)
    np.copyto(out, 1, where=zero)


def _refuse_complex(name: str):
    def check(self):
        if isinstance(self, TensorBase) and self._dtype.is_complex:
            raise RuntimeError(f"{name} is not supported for complex tensors.")
    return check


_DEGREES_TO_RADIANS = 0.017453292519943295
_RADIANS_TO_DEGREES = 57.29577951308232


@unary("deg2rad(Tensor self) -> Tensor", **FLOAT_RESULT, check=_refuse_complex("deg2rad"),
       grad={"self": f"grad * {_DEGREES_TO_RADIANS}"})
def deg2rad(self, *, out):
    """Angles in degrees converted to radians (``input * pi / 180``).

    Example::

        >>> torch.deg2rad(torch.tensor([180, 90]))
        tensor([3.1416, 1.5708])
    """
    np.multiply(self, out.dtype.type(_DEGREES_TO_RADIANS), out=out)


@unary("rad2deg(Tensor self) -> Tensor", **FLOAT_RESULT, check=_refuse_complex("rad2deg"),
       grad={"self": f"grad * {_RADIANS_TO_DEGREES}"})
def rad2deg(self, *, out):
    """Angles in radians converted to degrees (``input * 180 / pi``).

    Example::

        >>> torch.rad2deg(torch.tensor([3.1415927, -1.5707964]))
        tensor([180., -90.])
    """
    np.multiply(self, out.dtype.type(_RADIANS_TO_DEGREES), out=out)
