"""Unary elementwise math: signs, powers, exponentials and logarithms.

Each operator is one `pointwise` declaration (aten/pointwise.py): its kernel does only
the math, on arrays already in the compute dtype. The siblings hold the rest of the
unary family: `trigonometric.py`, `rounding.py`, `predicates.py` (isnan, signbit...)
and `conj.py` (angle, conj). The helpers they share live here.

Note [Kernel-only dtype errors]
    torch refuses some dtypes only inside its CPU kernels, where the dispatch macro
    finds no loop for them (``"abs_cpu" not implemented for 'Bool'``): the same call
    on meta tensors succeeds, and an out= tensor is checked (and resized) first. So
    those refusals are raised by the kernels here (`refuse`), never by meta rules;
    the errors torch raises on meta too are `check=` functions.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.tensor_impl import TensorBase
from ... import libm
from ...derivatives import derivative_helper
from ...meta.pointwise import Promotion
from ...pointwise import pointwise
from ...registry import composite

BOOL = frozenset({np.dtype(np.bool_)})
WIDE_UNSIGNED = frozenset(np.dtype(t) for t in (np.uint16, np.uint32, np.uint64))
INTEGRAL = frozenset(np.dtype(t) for t in (np.uint8, np.int8, np.int16, np.int32,
                                            np.int64)) | WIDE_UNSIGNED
COMPLEX = frozenset({np.dtype(np.complex64), np.dtype(np.complex128)})


def refuse(array, kernel: str, refused: frozenset) -> None:
    """torch's error for a dtype its CPU kernel `kernel` has no loop for.

    See Note [Kernel-only dtype errors]: called from kernels, so meta calls pass.
    """
    if array.dtype in refused:
        name = scalar_type_name(dtypes.from_numpy_dtype(array.dtype))
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


def exact_dtype_out(target: TensorBase, described, inplace: bool) -> None:
    """torch's plain unary ops write only into a tensor of the result's own dtype
    (TensorIterator's all-same-dtype check), where binary ops would cast."""
    if target._dtype is not described.dtype:
        raise RuntimeError(f"Found dtype {scalar_type_name(target._dtype)} but expected "
                           f"{scalar_type_name(described.dtype)}")


def real_out_of_complex(target: TensorBase, described, inplace: bool) -> None:
    """torch computes `abs` / `angle` of complex numbers into a temporary when out= is
    real, then resizes that out row-major: describe the result so (its values are the
    same whatever the layout)."""
    if described.compute.is_complex and not target._dtype.is_complex:
        described.stride = None


def unary(schema: str, *, aliases: tuple = (), **options):
    """`pointwise(schema, **options)` for the unary family, plus torch's other
    spellings of the operator.

    Each alias (`absolute` for `abs`) is declared with the same options over the same
    kernel, so it has every variant the main name has (function, method, in-place,
    out=), as torch's aliases do.
    """
    name = schema.partition("(")[0].partition(".")[0]
    options.setdefault("numbers", ())          # torch.exp(2) is a TypeError, as in torch

    def declare(kernel):
        main = pointwise(schema, **options)(kernel)
        for alias in aliases:
            pointwise(alias + schema[len(name):], **options)(_alias_kernel(kernel, alias, name))
        return main
    return declare


def _alias_kernel(kernel, alias: str, name: str):
    def run(*args, out):
        kernel(*args, out=out)
    run.__name__ = run.__qualname__ = alias
    run.__doc__ = f"Alias for :func:`torch.{name}`."
    run.aliased = kernel                # autograd records the main operator's node
    return run


# ----------------------------------------------------------------------------------
# Signs and magnitudes
# ----------------------------------------------------------------------------------
def _check_abs_out(target: TensorBase, described, inplace: bool) -> None:
    """Complex `abs` writes a real result: torch refuses it in place, and into a
    complex out= of another precision; real inputs want the exact dtype."""
    if not described.compute.is_complex:
        exact_dtype_out(target, described, inplace)
    elif inplace:
        raise RuntimeError("In-place abs is not supported for complex tensors.")
    elif target._dtype.is_complex and target._dtype is not described.compute:
        raise RuntimeError(f"Found dtype {scalar_type_name(target._dtype)} but expected "
                           f"{scalar_type_name(described.compute)}")
    else:
        real_out_of_complex(target, described, inplace)


@unary("abs(Tensor self) -> Tensor", aliases=("absolute",),
       promotion=Promotion.COMPLEX_TO_FLOAT, inplace=True, out=True, check_out=_check_abs_out,
       grad={"self": "grad * self.sgn()"})
def abs(self, *, out):
    """The absolute value of each element; the magnitude (a real number) for complex ones.

    Integers keep their dtype (and wrap: the smallest int8 stays -128).

    Example::

        >>> torch.abs(torch.tensor([-1.5, 0.0, 2.0]))
        tensor([1.5000, 0.0000, 2.0000])
    """
    refuse(self, "abs_cpu", BOOL | WIDE_UNSIGNED)
    np.absolute(self, out=out)


def _check_neg(self):
    if isinstance(self, TensorBase) and self._dtype is dtypes.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


@unary("neg(Tensor self) -> Tensor", aliases=("negative",), inplace=True, out=True,
       check=_check_neg, check_out=exact_dtype_out, grad={"self": "-grad"})
def neg(self, *, out):
    """The negation of each element (unsigned integers wrap around).

    Example::

        >>> torch.neg(torch.tensor([1, -2]))
        tensor([-1,  2])
    """
    refuse(self, "neg_cpu", WIDE_UNSIGNED)
    np.negative(self, out=out)


@composite("positive(Tensor(a) self) -> Tensor(a)", method=True)
def positive(self):
    """`input` itself (no copy): the unary ``+``. Refused for bool tensors.

    Example::

        >>> x = torch.tensor([1, -2])
        >>> torch.positive(x) is x
        True
    """
    if self._dtype is dtypes.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


def _sign_of_real(self, out) -> None:
    """-1, 0 or 1 as ``(0 < x) - (x < 0)``: NaN and -0.0 give 0, as in torch."""
    if self.dtype == np.bool_:
        np.copyto(out, self)
    else:
        np.subtract(np.greater(self, 0), np.less(self, 0), out=out, dtype=out.dtype)


@unary("sign(Tensor self) -> Tensor", inplace=True, out=True, check_out=exact_dtype_out,
       grad={"self": "zeros_like(grad)"})
def sign(self, *, out):
    """The sign of each element: -1, 0 or 1 (0 for NaN). Not for complex numbers.

    Example::

        >>> torch.sign(torch.tensor([-2.5, 0.0, 3.0]))
        tensor([-1.,  0.,  1.])
    """
    if self.dtype in COMPLEX:
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support complex "
                                  "numbers. Please use torch.sgn instead.")
    refuse(self, "sign_cpu", WIDE_UNSIGNED)
    _sign_of_real(self, out)


@derivative_helper
def sgn_backward(self, grad, result):
    """The gradient of `sgn`: zero for real inputs (piecewise constant); for complex
    ones the Wirtinger derivative of z/|z|, zero where z is 0."""
    if not self.is_complex():
        return grad.new_zeros(grad.shape)
    magnitude = self.abs()
    safe = magnitude.where(magnitude != 0, 1)     # no 0/0 for a double backward to meet
    change = (grad - result * (grad * result.conj()).real) / safe
    return change.where(magnitude != 0, 0)


@unary("sgn(Tensor self) -> Tensor", inplace=True, out=True, check_out=exact_dtype_out,
       grad={"self": "sgn_backward(self, grad, result)"})
def sgn(self, *, out):
    """`sign` extended to complex numbers: ``z / abs(z)``, and 0 where z is 0.

    Example::

        >>> torch.sgn(torch.tensor([3+4j, 0j]))
        tensor([0.6000+0.8000j, 0.0000+0.0000j])
    """
    refuse(self, "sign_cpu", WIDE_UNSIGNED)
    if self.dtype not in COMPLEX:
        _sign_of_real(self, out)
        return
    magnitude = np.absolute(self)
    np.divide(self, magnitude, out=out)
    np.copyto(out, 0, where=magnitude == 0)


@unary("square(Tensor self) -> Tensor", promotion=Promotion.BOOL_TO_LONG, inplace=True,
       out=True, grad={"self": "grad * (2 * self).conj()"})
def square(self, *, out):
    """Each element times itself; bool becomes int64, integers wrap around.

    Example::

        >>> torch.square(torch.tensor([-2, 3]))
        tensor([4, 9])
    """
    refuse(self, "pow", WIDE_UNSIGNED)
    np.multiply(self, self, out=out)


# ----------------------------------------------------------------------------------
# Powers, exponentials, logarithms: integers and bool compute in the default float
# ----------------------------------------------------------------------------------
FLOAT_RESULT = {"promotion": Promotion.INT_TO_FLOAT, "inplace": True, "out": True}
_LN2 = 0.6931471805599453
_LN10 = 2.302585092994046


@unary("reciprocal(Tensor self) -> Tensor", **FLOAT_RESULT,
       grad={"self": "-grad * (result * result).conj()"})
def reciprocal(self, *, out):
    """``1 / input``, elementwise (integers divide in the default float dtype).

    Example::

        >>> torch.reciprocal(torch.tensor([2, 0]))
        tensor([0.5000,    inf])
    """
    np.reciprocal(self, out=out)


@unary("sqrt(Tensor self) -> Tensor", **FLOAT_RESULT, ufunc=np.sqrt,
       grad={"self": "grad / (2 * result.conj())"})
def sqrt(self, *, out):
    """The square root of each element (NaN for negative reals).

    Example::

        >>> torch.sqrt(torch.tensor([4.0, 2.0]))
        tensor([2.0000, 1.4142])
    """
    np.sqrt(self, out=out)


@unary("rsqrt(Tensor self) -> Tensor", **FLOAT_RESULT,
       grad={"self": "-0.5 * grad * (result * result * result).conj()"})
def rsqrt(self, *, out):
    """``1 / sqrt(input)``: ``inf`` at 0, ``-inf`` at -0.0.

    Example::

        >>> torch.rsqrt(torch.tensor([4.0, 0.25]))
        tensor([0.5000, 2.0000])
    """
    np.sqrt(self, out=out)
    np.divide(1, out, out=out)


@unary("exp(Tensor self) -> Tensor", **FLOAT_RESULT, ufunc=np.exp,
       grad={"self": "grad * result.conj()"})
def exp(self, *, out):
    """The exponential of each element; integers compute in the default float dtype.

    Example::

        >>> torch.exp(torch.tensor([0., 1.]))
        tensor([1.0000, 2.7183])
    """
    np.exp(self, out=out)


@unary("exp2(Tensor self) -> Tensor", **FLOAT_RESULT,
       grad={"self": f"grad * result.conj() * {_LN2}"})
def exp2(self, *, out):
    """``2 ** input``, elementwise.

    Example::

        >>> torch.exp2(torch.tensor([0, 3]))
        tensor([1., 8.])
    """
    libm.exp2(self, out=out)          # Note [The C library's bits]


@unary("expm1(Tensor self) -> Tensor", **FLOAT_RESULT,
       grad={"self": "grad * (result.conj() + 1)"})
def expm1(self, *, out):
    """``exp(input) - 1``, accurate near 0.

    Example::

        >>> torch.expm1(torch.tensor([0.0, 1e-10], dtype=torch.float64))
        tensor([0.0000e+00, 1.0000e-10], dtype=torch.float64)
    """
    np.expm1(self, out=out)


@unary("log(Tensor self) -> Tensor", **FLOAT_RESULT, ufunc=np.log,
       grad={"self": "grad / self.conj()"})
def log(self, *, out):
    """The natural logarithm of each element (``-inf`` at 0, NaN for negative reals).

    Example::

        >>> torch.log(torch.tensor([1.0, 0.0]))
        tensor([0., -inf])
    """
    np.log(self, out=out)


@unary("log2(Tensor self) -> Tensor", **FLOAT_RESULT,
       grad={"self": f"grad / (self.conj() * {_LN2})"})
def log2(self, *, out):
    """The base-2 logarithm of each element.

    Example::

        >>> torch.log2(torch.tensor([8, 1]))
        tensor([3., 0.])
    """
    if self.dtype in COMPLEX:       # torch divides each part of log(z) by ln 2
        np.log(self, out=out)
        np.divide(out.real, out.real.dtype.type(_LN2), out=out.real)
        np.divide(out.imag, out.imag.dtype.type(_LN2), out=out.imag)
    else:
        np.log2(self, out=out)


@unary("log10(Tensor self) -> Tensor", **FLOAT_RESULT,
       grad={"self": f"grad / (self.conj() * {_LN10})"})
def log10(self, *, out):
    """The base-10 logarithm of each element.

    Example::

        >>> torch.log10(torch.tensor([100.0, 1.0]))
        tensor([2., 0.])
    """
    np.log10(self, out=out)


@unary("log1p(Tensor self) -> Tensor", **FLOAT_RESULT,
       grad={"self": "grad / (self + 1).conj()"})
def log1p(self, *, out):
    """``log(1 + input)``, accurate near 0.

    Example::

        >>> torch.log1p(torch.tensor([0.0, -1.0]))
        tensor([0., -inf])
    """
    np.log1p(self, out=out)
