"""Bitwise and logical operators.

Bitwise operators (and, or, xor, not, shifts) work on the bits of integers and bool;
their kernels refuse floating and complex common dtypes with torch's "not implemented"
error (shifts refuse bool too). Shifting by a negative amount or by the bit width or
more is defined, as in torch: a left shift gives 0, a right shift gives the sign fill
(0 or -1).

Logical operators take any dtype, reading zero as False and anything else (NaN
included) as True, and give bool; like comparisons, they read the operands in their
common dtype (a float32 1e-8 is 0 next to a float16 tensor). Their out= and in-place forms cast the bools into
any dtype.

None of these is differentiable.
"""
from __future__ import annotations

import numpy as np

from ...meta.pointwise import Promotion
from ...pointwise import pointwise
from .binary import refuse, tensor_needed
from .comparison import NOT_DIFFERENTIABLE
from .unary import exact_dtype_out

_NO_GRAD = {"self": NOT_DIFFERENTIABLE, "other": NOT_DIFFERENTIABLE}


def _bitwise(name: str, ufunc, doc: str):
    """Declare ``name.Tensor`` (+ in-place, ``Tensor_out``) for integers and bool."""
    def kernel(self, other, *, out):
        ufunc(self, other, out=out)
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    return pointwise(f"{name}.Tensor(Tensor self, Tensor other) -> Tensor", inplace=True,
                     out=True, out_overload="Tensor_out", grad=_NO_GRAD, ufunc=ufunc,
                     check=tensor_needed(name),
                     kernel_check=refuse(f"{name}_cpu", floating=True, complex_=True))(kernel)


_BITWISE_DOC = """Computes the bitwise {what} of `input` and `other` (logical {what} for bool).

    Args:
        input (Tensor or Number): the first operand, of an integer or bool dtype.
        other (Tensor or Number): the second operand, of an integer or bool dtype.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.bitwise_{name}(torch.tensor([-1, -2, 3], dtype=torch.int8),
        ...                  torch.tensor([1, 0, 3], dtype=torch.int8))
        tensor({example}, dtype=torch.int8)
"""

bitwise_and = _bitwise("bitwise_and", np.bitwise_and,
                       _BITWISE_DOC.format(what="AND", name="and", example="[1, 0, 3]"))
bitwise_or = _bitwise("bitwise_or", np.bitwise_or,
                      _BITWISE_DOC.format(what="OR", name="or", example="[-1, -2,  3]"))
bitwise_xor = _bitwise("bitwise_xor", np.bitwise_xor,
                       _BITWISE_DOC.format(what="XOR", name="xor", example="[-2, -2,  0]"))


@pointwise("bitwise_not(Tensor self) -> Tensor", inplace=True, out=True, numbers=(),
           grad={"self": NOT_DIFFERENTIABLE}, check_out=exact_dtype_out,
           kernel_check=refuse("bitwise_not_cpu", floating=True, complex_=True, operands=1))
def bitwise_not(self, *, out):
    """Computes the bitwise NOT of `input` (logical NOT for bool).

    Args:
        input (Tensor): a tensor of an integer or bool dtype.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.bitwise_not(torch.tensor([-1, 0, 7], dtype=torch.int8))
        tensor([ 0, -1, -8], dtype=torch.int8)
    """
    np.invert(self, out=out)


def _valid_shifts(amount, bits: int):
    """Where a shift amount is in [0, bits): C leaves the other amounts undefined."""
    return (amount >= 0) & (amount < bits)


def _left_shift(self, other, *, out):
    valid = _valid_shifts(other, out.dtype.itemsize * 8)
    np.left_shift(self, np.where(valid, other, 0), out=out)
    np.copyto(out, 0, where=np.logical_not(valid))


def _right_shift(self, other, *, out):
    # an out-of-range amount shifts by bits - 1: every bit becomes the sign bit (0 for
    # unsigned types, whose values have no sign bit to keep)
    bits = out.dtype.itemsize * 8
    valid = _valid_shifts(other, bits)
    np.right_shift(self, np.where(valid, other, bits - 1), out=out)
    if out.dtype.kind == "u":
        np.copyto(out, 0, where=np.logical_not(valid))


_SHIFT_DOC = """Shifts the bits of `input` {direction} by `other` places.

    Amounts below zero, or at or above the bit width, give {overflow}.

    Args:
        input (Tensor or Number): the value to shift, of an integer dtype.
        other (Tensor or Number): the number of places, of an integer dtype.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.bitwise_{name}_shift(torch.tensor([-1, 5], dtype=torch.int8), 2)
        tensor({example}, dtype=torch.int8)
"""


def _shift(name: str, kernel_name: str, kernel, doc: str):
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    return pointwise(f"{name}.Tensor(Tensor self, Tensor other) -> Tensor", inplace=True,
                     out=True, out_overload="Tensor_out", grad=_NO_GRAD,
                     check=tensor_needed(name),
                     kernel_check=refuse(f"{kernel_name}_cpu", bool_=True, floating=True,
                                         complex_=True))(kernel)


bitwise_left_shift = _shift(
    "bitwise_left_shift", "lshift", _left_shift,
    _SHIFT_DOC.format(direction="left (towards the high bits)", overflow="0", name="left",
                      example="[-4, 20]"))
bitwise_right_shift = _shift(
    "bitwise_right_shift", "rshift", _right_shift,
    _SHIFT_DOC.format(direction="right, filling with the sign bit",
                      overflow="the sign fill (0 or -1)", name="right", example="[-1,  1]"))


# ----------------------------------------------------------------------------------
# Logical operators
# ----------------------------------------------------------------------------------
def _logical(name: str, ufunc, doc: str):
    def kernel(self, other, *, out):
        ufunc(self, other, out=out)
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    return pointwise(f"{name}(Tensor self, Tensor other) -> Tensor",
                     promotion=Promotion.COMPARISON, inplace=True, out=True, numbers=(),
                     grad=_NO_GRAD)(kernel)


_LOGICAL_DOC = """Computes the logical {what} of `input` and `other`, elementwise.

    Zero is False and every other value (NaN included) is True, in any dtype.

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand, broadcastable with `input`.

    Keyword args:
        out (Tensor, optional): the output tensor, of any dtype (True is written as 1).

    Returns:
        A bool tensor.

    Example::

        >>> torch.logical_{name}(torch.tensor([0., 1., 2.]), torch.tensor([0, 0, 3]))
        tensor({example})
"""

logical_and = _logical("logical_and", np.logical_and, _LOGICAL_DOC.format(
    what="AND", name="and", example="[False, False,  True]"))
logical_or = _logical("logical_or", np.logical_or, _LOGICAL_DOC.format(
    what="OR", name="or", example="[False,  True,  True]"))
logical_xor = _logical("logical_xor", np.logical_xor, _LOGICAL_DOC.format(
    what="XOR", name="xor", example="[False,  True, False]"))


@pointwise("logical_not(Tensor self) -> Tensor", promotion=Promotion.COMPARISON,
           inplace=True, out=True, numbers=(), grad={"self": NOT_DIFFERENTIABLE})
def logical_not(self, *, out):
    """Computes the logical NOT of `input`: True where it is zero.

    Args:
        input (Tensor): a tensor of any dtype.

    Keyword args:
        out (Tensor, optional): the output tensor, of any dtype.

    Example::

        >>> torch.logical_not(torch.tensor([0., 1.5, float('nan')]))
        tensor([ True, False, False])
    """
    np.logical_not(self, out=out)
