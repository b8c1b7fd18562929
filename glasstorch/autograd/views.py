"""Views and in-place writes: keeping a base and its views' histories consistent.

A view shares its base's memory, so an in-place write through one changes the other:

- Writing a view in place (``b[0].mul_(2)``) changes part of the base. The base's new
  `grad_fn` is a `CopySlices` node: in backward it takes the base's gradient, lets the
  in-place op's node transform the part the view covers, and passes the rest through
  unchanged to the base's previous history.
- Then, or after the base itself is written in place, a view's recorded `grad_fn` is
  stale: it describes the view before the write. So a view remembers the version it was
  recorded at, and when the version moved its `grad_fn` is made anew from the base's
  (an `AsStridedBackward0` over the base's current history), as torch does.
"""
from __future__ import annotations

from ..c10.dispatch_key import AUTOGRAD
from .graph import InputMetadata, Node, gradient_edge

_VIEW_OF_LEAF = ("a view of a leaf Variable that requires grad is being used in an in-place "
                 "operation.")


def is_tracked_view(tensor, inputs_require_grad: bool) -> bool:
    """Whether an in-place write to `tensor` must rewrite its base's history."""
    base = tensor._base
    if base is None:
        return False
    meta = base._autograd
    return inputs_require_grad or (meta is not None and meta.requires_grad)


def check_view_of_leaf(tensor) -> None:
    meta = tensor._base._autograd
    if meta is not None and meta.requires_grad and meta.grad_fn is None:
        raise RuntimeError(_VIEW_OF_LEAF)


class CopySlices(Node):
    """The history of a base after an in-place write through one of its views."""

    hand_written = True

    def __init__(self, base, view, fn: Node, base_edge: tuple) -> None:
        super().__init__((base_edge,) + tuple(fn.next_functions[1:]))
        self.fn = fn
        self._base_geometry = (base._size, base._stride, base._offset, base._dtype)
        self._view_geometry = (view._size, view._stride, view._offset - base._offset)
        self._input_metadata = [InputMetadata(base)]

    def apply(self, grads: list) -> list:
        import glasstorch
        from .engine import validate_outputs
        grad = grads[0]
        if grad is None:
            return [None] * len(self.next_functions)
        size, stride, _, dtype = self._base_geometry
        with glasstorch.no_grad():
            result = glasstorch.empty_strided(size, stride, dtype=grad.dtype)
            result.copy_(grad)
            part = result.as_strided(*self._view_geometry)
            found = validate_outputs(self.fn, self.fn.apply([part.clone()]))
            if found[0] is None:
                part.zero_()
            else:
                part.copy_(found[0])
        return [result] + list(found[1:])

    def release(self) -> None:
        self.fn.release()


def rebase_history(view, fn: Node, base_edge: tuple) -> None:
    """After `fn` wrote `view` in place: the base's history becomes a CopySlices over
    `fn`, and the view's is read from the base's."""
    base = view._base
    node = CopySlices(base, view, fn, base_edge)
    meta = base._autograd_meta()
    meta.grad_fn, meta.output_nr, meta.requires_grad = node, 0, True
    base._keys |= AUTOGRAD
    view_meta = view._autograd_meta()
    view_meta.requires_grad = True
    view._keys |= AUTOGRAD
    _regenerate(view)


def _regenerate(view) -> None:
    """The view's grad_fn made from its base's current history (AsStridedBackward0)."""
    from ..aten.registry import DECLARATIONS
    from .formulas import node_type
    base = view._base
    declaration = DECLARATIONS["as_strided"]
    cls = node_type(declaration, declaration.overloads[next(iter(declaration.overloads))]._schema)
    saved = {"self_sym_sizes": base._size, "self_sym_strides": base._stride,
             "self_sym_storage_offset": base._offset, "size": view._size,
             "stride": view._stride, "storage_offset": view._offset}
    node = cls((gradient_edge(base),), saved, (None,))
    node._input_metadata = [InputMetadata(view)]
    meta = view._autograd_meta()
    meta.grad_fn, meta.output_nr = node, 0
    meta.attr_version = view._version


def view_grad_fn(view):
    """A view's grad_fn, made anew when an in-place write moved its version."""
    meta = view._autograd
    if meta is None or meta.attr_version is None or meta.attr_version == view._version:
        return None if meta is None else meta.grad_fn
    base_meta = view._base._autograd
    if base_meta is not None and base_meta.requires_grad:
        _regenerate(view)
    return meta.grad_fn
