"""The `.Scalar` overloads of add, sub, mul and div: a tensor and a number.

torch's C++ composites call these (`trapezoid` halves its sums with ``mul.Scalar``,
`cross_entropy`'s mean over probabilities divides with ``div.Scalar``, `rms_norm` adds
its eps with ``add.Scalar``), and derivatives.yaml gives them nodes of their own:
MulBackward1, where Python's ``x * 2`` (``mul.Tensor`` with a wrapped number) records
MulBackward0. So the composites here call them to record torch's nodes.

No Python binding reaches them: ``torch.mul(x, 2)`` and ``x.mul_(2)`` bind to the Tensor
overloads, as in torch; only ``torch.ops.aten.mul.Scalar`` and operators calling
``mul_scalar.call`` do. Each runs its Tensor overload with the number as torch's wrapped
number, as ATen's do, so dtypes, errors and values are the Tensor overload's.
"""
from __future__ import annotations

from ...registry import TensorMeta, prepare_out, composite
from ...schema import SchemaKind
from .binary import add, div, mul, sub
from ..creation.copy import copy_
from ..shape.triangular import exact_out_dtype

# name -> (its Tensor overload, the schema's arguments after `other`, self's formula)
_FAMILY = {
    "add": (add, ", Scalar alpha=1", "grad"),
    "sub": (sub, ", Scalar alpha=1", "grad"),
    "mul": (mul, "", "grad * conj(other)"),
    "div": (div, "", "grad / conj(other)"),
}


def _declare(name: str):
    """Declare ``<name>.Scalar`` (with its ``Scalar_out``) and ``<name>_.Scalar``."""
    tensor_op, rest, formula = _FAMILY[name]
    inplace = tensor_op.declaration.overloads[SchemaKind.inplace]
    n_args = 3 if rest else 2

    def scalar(*args):
        result = tensor_op.call(*args[:n_args])
        out = args[n_args] if len(args) > n_args else None
        if out is None:
            return result
        # Scalar_out is generated in torch: the result, then `out` of exactly its dtype
        # resized (row-major) and written
        exact_out_dtype(result._dtype, out)
        prepare_out(functional.declaration.overloads[SchemaKind.out], out,
                     TensorMeta(result._size, result._dtype))
        return copy_.call(out, result, False)

    def scalar_(*args):
        return inplace.call(*args)
    scalar.__name__, scalar_.__name__ = f"{name}_scalar", f"{name}_scalar_"
    scalar.__doc__ = f"``{name}`` of a tensor and a number (torch.ops.aten only)."
    scalar_.__doc__ = f"In-place ``{name}`` of a tensor and a number (torch.ops.aten only)."
    functional = composite(f"{name}.Scalar(Tensor self, Scalar other{rest}) -> Tensor",
                           function=False, out=True, grad={"self": formula})(scalar)
    in_place = composite(f"{name}_.Scalar(Tensor(a!) self, Scalar other{rest}) -> Tensor(a!)",
                         function=False, grad={"self": formula})(scalar_)
    return functional, in_place


add_scalar, add_scalar_ = _declare("add")
sub_scalar, sub_scalar_ = _declare("sub")
mul_scalar, mul_scalar_ = _declare("mul")
div_scalar, div_scalar_ = _declare("div")
