"""Ternary elementwise operators: lerp, addcmul, addcdiv, where (and one-argument where,
the indices of the nonzero elements). See aten/pointwise.py for what a declaration gets.
"""
from __future__ import annotations

import warnings

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype, scalar_type_name, type_meta_name
from ....c10.tensor_impl import TensorBase
from ...pointwise import pointwise
from ...registry import composite
from .binary import computed_dtype, not_implemented, operand_dtype, raise_at_kernel, refuse
from .fused_multiply_add import axpy, fused_multiply_add
from ..creation.copy import cpp_type_name
from ..indexing.masked import nonzero_numpy



def _overflow(dtype: np.dtype) -> RuntimeError:
    return RuntimeError(f"value cannot be converted to type "
                        f"{cpp_type_name(from_numpy_dtype(dtype))} without overflow")


def scalar_in(value, dtype: np.dtype):
    """A Scalar argument converted to the compute dtype as c10's checked ``to<T>()``:
    a complex value for a real type is refused; integer types truncate floats within
    their range and take integers within +-max (unsigned ones wrap -1 to max)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return value
    if isinstance(value, complex) and dtype.kind != "c":
        raise _overflow(dtype)
    if dtype.kind not in "iu":
        return dtype.type(value)
    info = np.iinfo(dtype)
    if isinstance(value, float):
        if not info.min <= value <= info.max:        # nan fails too
            raise _overflow(dtype)
    elif not (-info.max if info.min == 0 else info.min) <= value <= info.max:
        raise _overflow(dtype)
    return np.array(int(value)).astype(dtype)[()]


# ----------------------------------------------------------------------------------
# lerp
# ----------------------------------------------------------------------------------
def _check_lerp(self, end, weight):
    """`end` (and a weight of one dimension or more) must have `input`'s dtype."""
    for name, other in (("end", end), ("weight", weight)):
        if (isinstance(self, TensorBase) and isinstance(other, TensorBase)
                and other._dtype is not self._dtype and (name == "end" or other.dim())):
            raise RuntimeError(f"expected dtype {type_meta_name(self._dtype)} for `{name}` "
                               f"but got dtype {type_meta_name(other._dtype)}")


def _check_lerp_kernel(self, end, weight):
    """torch's lerp kernels: a complex weight for real tensors, no integer loops."""
    tensor_weight = isinstance(weight, TensorBase)
    dtype = computed_dtype(self, end, weight if tensor_weight else None)
    if not tensor_weight and operand_dtype(weight).is_complex and not dtype.is_complex:
        opmath = "double" if dtype is dtypes.float64 else "float"
        raise_at_kernel(RuntimeError(f"value cannot be converted to type {opmath} without "
                                     f"overflow"), (self, end))
    if not (dtype.is_floating_point or dtype.is_complex):
        label = "lerp_kernel_tensor" if tensor_weight else "lerp_kernel_scalar"
        raise_at_kernel(not_implemented(label, dtype), (self, end, weight))


_LERP_GRAD = {"self": "grad * (1 - weight).conj()", "end": "grad * weight.conj()",
              "weight": "grad * (end - self).conj()"}


def _check_lerp_out(target, described, inplace: bool = False) -> None:
    """A tensor weight's lerp writes only an out= of exactly the result dtype."""
    if target._dtype is not described.dtype:
        raise RuntimeError(f"Found dtype {scalar_type_name(target._dtype)} but expected "
                           f"{scalar_type_name(described.dtype)}")


# A number weight binds to lerp.Scalar (declared next), whose out= casts as usual.
@pointwise("lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", inplace=True,
           out=True, out_overload="Tensor_out", check=_check_lerp, kernel_check=_check_lerp_kernel, grad=_LERP_GRAD,
           numbers=(), check_out=_check_lerp_out)
def lerp(self, end, weight, *, out):
    """Linear interpolation: ``input + weight * (end - input)``.

    As torch computes it: for ``|weight| >= 0.5`` from the `end` side,
    ``end - (end - input) * (1 - weight)``, which is exact at ``weight == 1``.

    Args:
        input (Tensor): the start points.
        end (Tensor): the end points (same dtype as `input`).
        weight (float or Tensor): the interpolation weights.

    Example::

        >>> torch.lerp(torch.tensor([0., 10.]), torch.tensor([10., 20.]), 0.5)
        tensor([ 5., 15.])
    """
    weight = scalar_in(weight, out.dtype)
    if out.dtype.kind == "c":
        small = weight.real * weight.real + weight.imag * weight.imag < 0.25
    else:
        small = np.abs(weight) < 0.5
    difference = np.subtract(end, self)
    coefficient = np.where(small, weight, weight - 1)
    start = np.where(small, self, end)
    # torch fuses the multiply-add (one rounding; float32 here, float64 not yet): with
    # one weight, BLAS's saxpy where it applies (Note [Fused multiply-add in float32])
    if not (np.ndim(coefficient) == 0 and out.dtype == np.float32
            and axpy(np.float32(coefficient), difference, start, out)):
        fused_multiply_add(coefficient, difference, start, out)


lerp_scalar = pointwise(
    "lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", inplace=True, out=True,
    check=_check_lerp, kernel_check=_check_lerp_kernel, grad={"self": "grad * (1 - conj(weight))", "end": "grad * conj(weight)"},
    numbers=(),
)(lerp.declaration.kernel)


# ----------------------------------------------------------------------------------
# addcmul, addcdiv
# ----------------------------------------------------------------------------------
@pointwise("addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
           inplace=True, out=True, kernel_check=refuse("addcmul_cpu_out", bool_=True, operands=3),
           numbers=(),
           grad={"self": "grad", "tensor1": "grad * (tensor2 * value).conj()",
                 "tensor2": "grad * (tensor1 * value).conj()"})
def addcmul(self, tensor1, tensor2, value, *, out):
    """``input + value * tensor1 * tensor2``.

    Args:
        input (Tensor): the tensor added to.
        tensor1 (Tensor): the first factor.
        tensor2 (Tensor): the second factor.
        value (Number): the multiplier of the product.

    Example::

        >>> torch.addcmul(torch.tensor([1., 1.]), torch.tensor([2., 3.]),
        ...               torch.tensor([4., 5.]), value=0.5)
        tensor([5.0000, 8.5000])
    """
    scale = scalar_in(value, out.dtype)
    # torch fuses ``scaled * tensor2 + input`` (one rounding; float32 here, float64 not yet)
    fused_multiply_add(np.multiply(scale, tensor1), tensor2, self, out)


def _check_addcdiv(self, tensor1, tensor2, value=1):
    if not any(operand_dtype(t).is_floating_point or operand_dtype(t).is_complex
               for t in (tensor1, tensor2)):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")


def _refuse_complex_half(self, tensor1, tensor2, value=1):
    """torch has no complex32 addcdiv (float16 tensors with a complex 0-dim tensor)."""
    if any(isinstance(t, TensorBase) and t._dtype in (dtypes.float16, dtypes.complex32)
           for t in (self, tensor1, tensor2)):
        dtype = computed_dtype(self, tensor1, tensor2)
        if dtype is dtypes.complex32:
            raise_at_kernel(not_implemented("addcdiv_cpu_out", dtype), (self, tensor1, tensor2))


@pointwise("addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
           inplace=True, out=True, check=_check_addcdiv, kernel_check=_refuse_complex_half,
           numbers=(),
           grad={"self": "grad", "tensor1": "grad * (value / tensor2).conj()",
                 "tensor2": "-grad * (value * tensor1 / (tensor2 * tensor2)).conj()"})
def addcdiv(self, tensor1, tensor2, value, *, out):
    """``input + value * tensor1 / tensor2`` (true division; integer quotients are refused).

    Args:
        input (Tensor): the tensor added to.
        tensor1 (Tensor): the numerator.
        tensor2 (Tensor): the denominator.
        value (Number): the multiplier of the quotient.

    Example::

        >>> torch.addcdiv(torch.tensor([1., 1.]), torch.tensor([2., 3.]),
        ...               torch.tensor([4., 6.]), value=2)
        tensor([2., 2.])
    """
    scale = scalar_in(value, out.dtype)
    np.add(self, np.divide(np.multiply(scale, tensor1), tensor2), out=out)


# ----------------------------------------------------------------------------------
# where
# ----------------------------------------------------------------------------------
def _check_where(condition, self, other):
    if not isinstance(condition, TensorBase) or condition._dtype is dtypes.bool:
        return
    if condition._dtype is dtypes.uint8:
        warnings.warn("where received a uint8 condition tensor. This behavior is deprecated "
                      "and will be removed in a future version of PyTorch. Use a boolean "
                      "condition instead.", UserWarning, stacklevel=2)
        return
    raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                       f"with dtype {scalar_type_name(condition._dtype)}")


def _check_where_out(target, described, inplace: bool = False) -> None:
    """torch's where writes only an out= of exactly the result dtype."""
    if target._dtype is not described.dtype:
        raise RuntimeError(f"Expected out type to be {scalar_type_name(described.dtype)} but "
                           f"got {scalar_type_name(target._dtype)}")


@pointwise("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", out=True,
           check_out=_check_where_out,
           check=_check_where, numbers=("self", "other"), masks=("condition",),
           grad={"self": "where(condition, grad, 0)", "other": "where(condition, 0, grad)"})
def where(condition, self, other, *, out):
    """`input` where `condition` holds, else `other` (broadcast together).

    With `condition` alone, ``torch.where(condition)`` is
    ``torch.nonzero(condition, as_tuple=True)``: the indices of its nonzero elements,
    one tensor per dimension.

    Args:
        condition (Tensor): a bool tensor choosing between the two.
        input (Tensor or Number): the values where `condition` is True.
        other (Tensor or Number): the values where it is False.

    Example::

        >>> torch.where(torch.tensor([True, False]), torch.tensor([1., 2.]), 0.)
        tensor([1., 0.])
        >>> torch.where(torch.tensor([[True, False], [False, True]]))
        (tensor([0, 1]), tensor([0, 1]))
    """
    bits = _UNSIGNED_OF_SIZE.get(out.dtype.itemsize)
    if bits is None:
        np.copyto(out, np.where(condition, self, other))
        return
    # A select without branches, on the elements' bits: other ^ ((self ^ other) & mask),
    # where the mask is all ones where the condition holds. Three passes of integer
    # arithmetic beat np.where's element-by-element choice by about 3x.
    chosen, fallback = _bits(self, bits), _bits(other, bits)
    result = out.view(bits)
    np.bitwise_xor(chosen, fallback, out=result)
    np.bitwise_and(result, np.negative(condition, dtype=bits), out=result)
    np.bitwise_xor(result, fallback, out=result)


_UNSIGNED_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _bits(value, bits):
    """The bits of an array or NumPy scalar, read as unsigned integers of the same size."""
    return value.view(bits)


@composite("where(Tensor condition) -> Tensor[]")
def where_nonzero(condition):
    """The indices of the nonzero elements of `condition`, one int64 tensor per dimension
    (a 0-dim condition counts as one element)."""
    return nonzero_numpy.call(condition)
