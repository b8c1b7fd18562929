"""Complex helpers: angle, conj_physical, and the math bits' operators.

`conj` of a complex tensor is lazy, as torch's: a view carrying the conjugate bit
(`_conj`), which operators resolve when they read it; `_neg_view` is the same for
negation. The bits, their fallback kernel and `copy_` through them are Note [Math bits]
in aten/math_bits.py; this family declares the operators that set, test and resolve
them.
"""
from __future__ import annotations

import numpy as np

from ....c10.dispatch_key import CONJUGATE, NEGATIVE
from ....c10.tensor_impl import TensorBase
from ... import math_bits
from ...fast_paths import FastPath
from ...derivatives import derivative_helper
from ...meta.pointwise import Promotion
from ...registry import CPU, META, _label, composite, view
from ...schema import SchemaKind
from ..creation.copy import clone
from .unary import COMPLEX, exact_dtype_out, real_out_of_complex, unary


@derivative_helper
def angle_backward(grad, self):
    """Zero for real inputs; for complex z, the gradient of atan2(imag, real), which
    is ``grad * z * i / |z|^2`` (zero at z = 0)."""
    if not self.is_complex():
        return grad.new_zeros(grad.shape)
    safe = self.where(self != 0, 1)           # no 0/0 for a double backward to meet
    return (grad * safe / safe.abs().pow(2) * 1j).where(self != 0, 0)


@unary("angle(Tensor self) -> Tensor", promotion=Promotion.INT_TO_FLOAT_COMPLEX_TO_FLOAT,
       out=True, check_out=real_out_of_complex, grad={"self": "angle_backward(grad, self)"})
def angle(self, *, out):
    """The argument of each element, in radians: ``atan2(imag, real)`` for complex
    numbers; pi for negative reals, 0 otherwise (NaN stays NaN).

    Example::

        >>> torch.angle(torch.tensor([-1.0, 2.0, 1j]))
        tensor([3.1416, 0.0000, 1.5708])
    """
    if self.dtype in COMPLEX:
        np.arctan2(self.imag, self.real, out=out)
    else:
        np.multiply(np.less(self, 0), out.dtype.type(np.pi), out=out)
        np.copyto(out, self, where=np.isnan(self))


@unary("conj_physical(Tensor self) -> Tensor", inplace=True, out=True,
       check_out=exact_dtype_out, grad={"self": "grad.conj_physical()"})
def conj_physical(self, *, out):
    """The complex conjugate of each element, always computed into memory.

    A real tensor is returned as it is (no copy); ``out=`` and the in-place form
    write in any case.

    Example::

        >>> torch.conj_physical(torch.tensor([1 + 2j, 3 - 1j]))
        tensor([1.-2.j, 3.+1.j])
    """
    if self.dtype in COMPLEX:
        np.conjugate(self, out=out)
    else:
        np.copyto(out, self)


def _real_input_returned(overload) -> None:
    """torch's `conj_physical` and `conj_physical_` hand a real tensor back as it is,
    unchecked (`conj_physical_` still counts as a write): wrap the generated kernels
    so only complex tensors reach the conjugating ones."""
    for key in (CPU, META):
        conjugating = overload.kernels[key]

        def run(op, keyset, args, conjugating=conjugating):
            self = args[0]
            if isinstance(self, TensorBase) and not self._dtype.is_complex:
                return self
            return conjugating(op, keyset, args)
        _label(run, f"conj_physical (real: the input itself; complex: "
                    f"{conjugating.__qualname__})", overload.declaration.kernel)
        overload.register(key, run)


for _kind in (SchemaKind.functional, SchemaKind.inplace):
    _real_input_returned(conj_physical.declaration.overloads[_kind])


def _toggles(overload, bit: int) -> None:
    """Make the view `overload` flip `bit` in its result's key set (a math bit's view):
    its backend kernels and their fused fast paths, wrapped."""
    def flipping(make):
        def flip(op, keyset, args):
            result = make(op, keyset, args)
            result._keys ^= bit
            return result
        return flip
    for key in (CPU, META):
        fast = overload.fast_paths.get(int(key))
        made = overload.kernels[key]
        kernel = flipping(made)
        _label(kernel, f"{made.__qualname__}, its math bit flipped", flipping)
        overload.register(key, kernel)
        overload.register_fast_path(key, FastPath(flipping(fast.kernel), fast.label,
                                                  fast.module, fused=True, always=True))


@view("_conj(Tensor(a) self) -> Tensor(a)", grad={"self": "grad.conj()"})
def _conj(self):
    """A view of the same memory with the conjugate bit flipped (Note [Math bits])."""
    if not self._dtype.is_complex:      # torch's internal assert: real tensors have no bit
        raise RuntimeError("isComplexType(typeMetaToScalarType(dtype())) INTERNAL ASSERT "
                           "FAILED: _conj takes complex tensors")
    return self._size, self._stride, self._offset


@view("_neg_view(Tensor(a) self) -> Tensor(a)", grad={"self": "grad.neg()"})
def _neg_view(self):
    """A view of the same memory with the negative bit flipped (Note [Math bits]).

    Example::

        >>> torch._neg_view(torch.tensor([1.0, -2.0]))
        tensor([-1.,  2.])
    """
    return self._size, self._stride, self._offset


_toggles(_conj, CONJUGATE)
_toggles(_neg_view, NEGATIVE)
math_bits.install()


@composite("conj(Tensor(a) self) -> Tensor(a)", method=True)
def conj(self):
    """The complex conjugate, as a lazy view: for complex tensors, a view of the same
    memory with the conjugate bit set (see `is_conj`, `resolve_conj`); real tensors
    are returned as they are.

    Example::

        >>> x = torch.tensor([1 + 2j])
        >>> y = x.conj()
        >>> y, y.is_conj(), y.data_ptr() == x.data_ptr()
        (tensor([1.-2.j]), True, True)
    """
    return _conj.call(self) if self._dtype.is_complex else self


@composite("resolve_conj(Tensor(a) self) -> Tensor(a)", method=True)
def resolve_conj(self):
    """`input` itself unless its conjugate bit is set; then a new tensor holding the
    conjugated values in memory, the bit clear.

    Example::

        >>> y = torch.tensor([1 + 2j]).conj().resolve_conj()
        >>> y, y.is_conj()
        (tensor([1.-2.j]), False)
    """
    if not self._keys & CONJUGATE:
        return self
    return clone.call(self, None)           # the fallback resolves what clone reads


@composite("resolve_neg(Tensor(a) self) -> Tensor(a)", method=True)
def resolve_neg(self):
    """`input` itself unless its negative bit is set; then a new tensor holding the
    negated values in memory, the bit clear.

    Example::

        >>> y = torch._neg_view(torch.tensor([1.0])).resolve_neg()
        >>> y, y.is_neg()
        (tensor([-1.]), False)
    """
    if not self._keys & NEGATIVE:
        return self
    return clone.call(self, None)


@composite("is_conj(Tensor self) -> bool", method=True)
def is_conj(self):
    """Whether `input`'s conjugate bit is set (a lazy conjugate view, as `conj` makes).

    Example::

        >>> torch.is_conj(torch.tensor([1j]).conj())
        True
    """
    return bool(self._keys & CONJUGATE)


@composite("is_neg(Tensor self) -> bool", method=True)
def is_neg(self):
    """Whether `input`'s negative bit is set (a lazy negated view).

    Example::

        >>> torch.is_neg(torch.tensor([1j]).conj().imag)
        True
    """
    return bool(self._keys & NEGATIVE)
