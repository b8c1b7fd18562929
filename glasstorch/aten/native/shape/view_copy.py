"""The `*_copy` operators: every view, returning fresh memory instead of an alias.

``torch.t_copy(x)`` is ``torch.t(x)`` copied into a new row-major tensor; torch has one
for each view operator (its functionalization pass needs view-free twins). They are
derived here, not written: `declare_copy_variant` reads a view's declaration and
declares ``<name>_copy`` with the view's schema minus its alias annotations, the
view's derivative formulas (so the backward node is the view's, named
``<ViewNode>_copy`` as in torch), and an out= overload that resizes and writes `out`.
"""
from __future__ import annotations

import re

from ....c10.layout import contiguous_format
from ...derivatives import derivative_helper
from ...dispatcher import OpOverload, ops
from ...meta.shape import compute_view_stride, infer_size
from ...registry import TensorMeta, composite, prepare_out
from ..creation.copy import clone, copy_
from . import shape, split_views, view  # noqa: F401  (the views are declared there)
from .triangular import exact_out_dtype

_ALIAS_ANNOTATION = re.compile(r"\((?:[a-z]!?)(?: -> \*)?\)")

# The views given copies, as torch's native_functions.yaml lists them (dense ones).
_VIEWS = ("alias", "as_strided", "detach", "diagonal", "expand", "permute", "select.int",
          "slice.Tensor", "split.Tensor", "split_with_sizes", "squeeze", "squeeze.dim",
          "squeeze.dims", "t", "transpose.int", "unbind.int", "unfold", "unsqueeze", "view",
          "view.dtype", "view_as_real", "view_as_complex")




@derivative_helper
def detach_copy_backward(grad):
    """torch records `detach_copy` (detach itself records nothing) with no derivative."""
    raise RuntimeError("derivative for aten::detach_copy is not implemented")


_GRADS = {"detach": {"self": "detach_copy_backward(grad)"}}


def copy_schema(view: OpOverload) -> str:
    """The view's schema renamed ``<name>_copy``, its results no longer aliases."""
    text = _ALIAS_ANNOTATION.sub("", str(view._schema))
    name, rest = text.split("(", 1)
    base, dot, overload = name.partition(".")
    return f"{base}_copy{dot}{overload}({rest}"


def _view_or_reshape(self, size):
    """`view_copy`'s source: torch reshapes where no view of the input has the size."""
    shape = infer_size(size, self.numel())
    if compute_view_stride(self._size, self._stride, shape) is None:
        return ops.aten.reshape.default.call(self, size)
    return ops.aten.view.default.call(self, size)


def _copy_body(view: OpOverload, n_args: int):
    """The composite's body: the view, then a row-major copy (into `out` when given)."""
    many = view._schema.returns[0].type.is_list
    source = _view_or_reshape if view._schema.qualified_name == "view" else view.call

    def body(*args):
        result = source(*args[:n_args])
        out = args[n_args] if len(args) > n_args else None
        if many:
            return [clone.call(piece, contiguous_format) for piece in result]
        if out is None:
            return clone.call(result, contiguous_format)
        exact_out_dtype(result._dtype, out)
        prepare_out(view, out, TensorMeta(result._size, result._dtype))
        return copy_.call(out, result, False)
    return body


def declare_copy_variant(view: OpOverload) -> OpOverload:
    """Declare ``<view>_copy`` (and its out= overload, for single results)."""
    decl = view.declaration
    body = _copy_body(view, len(view._schema.arguments))
    body.__name__ = f"{view._schema.name}_copy"
    body.__module__ = __name__
    body.__doc__ = (f"Performs the same operation as ``torch.{decl.python_name}``, but the "
                    "result is\n    freshly created instead of aliasing the input.")
    many = view._schema.returns[0].type.is_list
    grad = _GRADS.get(view._schema.qualified_name, decl.grad)
    return composite(copy_schema(view), grad=grad, out=not many)(body)


def _overload(name: str) -> OpOverload:
    base, _, overload = name.partition(".")
    return getattr(getattr(ops.aten, base), overload or "default")


COPIES = {name: declare_copy_variant(_overload(name)) for name in _VIEWS}
