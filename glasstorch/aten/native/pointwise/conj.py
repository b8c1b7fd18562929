"""Complex helpers: angle, conj, conj_physical, resolve_conj, resolve_neg.

Note [No conjugate bit]
    torch's `conj` of a complex tensor is lazy: a view of the same memory carrying a
    "conjugate" bit that later operators honour (and `resolve_conj` materializes;
    `resolve_neg` does the same for the negative bit). glasstorch keeps no such bits:
    a tensor's values are its memory. So `conj` of a complex tensor is a new,
    conjugated tensor (`conj_physical`), not a view, and `resolve_conj` /
    `resolve_neg` have nothing to resolve: they return their input. For real tensors
    everything agrees with torch: all of them return the input itself.
"""
from __future__ import annotations

import numpy as np

from ....c10.tensor_impl import TensorBase
from ...derivatives import derivative_helper
from ...meta.pointwise import Promotion
from ...registry import CPU, META, _label, composite
from ...schema import SchemaKind
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


@composite("conj(Tensor(a) self) -> Tensor(a)", method=True)
def conj(self):
    """The complex conjugate: `input` itself for real tensors; for complex ones a new
    conjugated tensor (torch returns a lazy view instead: Note [No conjugate bit]).

    Example::

        >>> torch.conj(torch.tensor([1 + 2j]))
        tensor([1.-2.j])
    """
    return conj_physical.call(self)


@composite("resolve_conj(Tensor(a) self) -> Tensor(a)", method=True)
def resolve_conj(self):
    """`input` itself: glasstorch never defers a conjugation (Note [No conjugate bit]).

    Example::

        >>> x = torch.tensor([1 + 2j])
        >>> torch.resolve_conj(x) is x
        True
    """
    return self


@composite("resolve_neg(Tensor(a) self) -> Tensor(a)", method=True)
def resolve_neg(self):
    """`input` itself: glasstorch never defers a negation (Note [No conjugate bit]).

    Example::

        >>> x = torch.tensor([1.0, -2.0])
        >>> torch.resolve_neg(x) is x
        True
    """
    return self
