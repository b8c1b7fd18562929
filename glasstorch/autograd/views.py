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

Some views cannot be handled that way, so a view remembers how it was made (torch's
`CreationMeta`, in `_creation_meta`) and in-place writes to it are refused (Note
[Views autograd cannot rebase]).
"""
from __future__ import annotations

from ..aten.binding import get_binding
from ..c10.dispatch_key import AUTOGRAD, CONJUGATE, INFERENCE, MATH_BITS, NEGATIVE, local_keys
from .creation_meta import (DEFAULT, IN_CUSTOM_FUNCTION, INFERENCE_MODE, MULTI_OUTPUT_NODE,
                            NO_GRAD_MODE)
from .grad_mode import no_grad
from .graph import InputMetadata, Node, gradient_edge
from .saved import short_name

_VIEW_OF_LEAF = ("a view of a leaf Variable that requires grad is being used in an in-place "
                 "operation.")


# Note [Views autograd cannot rebase]
#     Rebasing a view's history after an in-place write (CopySlices, then the view's
#     grad_fn made anew from its base's) is wrong or ambiguous for views made
#     - inside a custom Function's forward, or an input it returned as it is: the
#       rebased history would bypass the Function's own backward;
#     - by an operator returning several views (split, unbind, chunk): one node owns all
#       of them, and rewriting it for one output would break the others;
#     - while grad mode or inference mode was off: whether the write should be tracked
#       is unclear.
#     So such views carry a non-default `_creation_meta` (the class default is DEFAULT),
#     inherited by views of them, and torch's errors are raised when they are written in
#     place with grad mode on (directly), or when their grad_fn is read after their base
#     or another view of it was (indirectly).
_REFUSAL_ENDINGS = {
    MULTI_OUTPUT_NODE: " This view is the output of a function that returns multiple views. "
                       "Such functions do not allow the output views to be modified inplace. "
                       "You should replace the inplace operation by an out-of-place one.",
    NO_GRAD_MODE: " Given that this use case is ambiguous and error-prone, it is forbidden. "
                  "You can clarify your code by moving both the view and the inplace either "
                  "both inside the no_grad block (if you don't want the inplace to be "
                  "tracked) or both outside (if you want the inplace to be tracked).",
    INFERENCE_MODE: " Given that this use case is ambiguous and error-prone, it is forbidden. "
                    "You can clarify your code by moving both the view and the inplace either "
                    "both inside the inference_mode block (if you don't want the inplace to be "
                    "tracked) or both outside (if you want the inplace to be tracked).",
    IN_CUSTOM_FUNCTION: " This view was created inside a custom Function (or because an input "
                        "was returned as-is) and the autograd logic to handle view+inplace "
                        "would override the custom backward associated with the custom "
                        "Function, leading to incorrect gradients. This behavior is forbidden. "
                        "You can fix this by cloning the output of the custom Function.",
}


def note_views(source, views: list, multi: bool) -> None:
    """Record how `views` of `source` were made (Note [Views autograd cannot rebase]).

    Views made with grad mode off of a base that requires grad require grad themselves
    (as torch's views do) without a grad_fn; their version is remembered so that a later
    write to the base is noticed when their grad_fn is read.
    """
    if local_keys.included & INFERENCE:
        made = INFERENCE_MODE
    elif local_keys.excluded & AUTOGRAD:
        made = NO_GRAD_MODE
    else:
        made = MULTI_OUTPUT_NODE if multi else DEFAULT
    inherited = source._creation_meta
    if made == DEFAULT or inherited == INFERENCE_MODE:
        made = inherited
    if made == DEFAULT:
        return
    base_meta = (source._base if source._base is not None else source)._autograd
    tracked = made in (NO_GRAD_MODE, INFERENCE_MODE) and base_meta is not None \
        and base_meta.requires_grad
    for view in views:
        view._creation_meta = made
        if tracked and (view._dtype.is_floating_point or view._dtype.is_complex):
            meta = view._autograd_meta()
            meta.requires_grad, meta.attr_version = True, view._version
            view._keys |= AUTOGRAD


def refuse_inplace_on_view(view, indirect: bool = False) -> None:
    """Raise torch's error for an in-place write to a view that cannot be rebased."""
    made = view._creation_meta
    meta = view._autograd
    grad_fn = None if meta is None else meta.grad_fn
    written = "its base or another view of its base has been" if indirect else "is being"
    if grad_fn is not None:
        origin = f"Output {meta.output_nr} of {short_name(grad_fn)}"
    if made in (NO_GRAD_MODE, INFERENCE_MODE) or grad_fn is None:
        prefix = "A view was created in" if grad_fn is None else \
            f"{origin} is a view of a view which was created in"
        message = (f"{prefix} inference mode and {written} modified inplace in normal mode."
                   if made == INFERENCE_MODE else
                   f"{prefix} no_grad mode and {written} modified inplace with grad mode "
                   f"enabled.")
    else:
        message = f"{origin} is a view and {written} modified inplace."
    raise RuntimeError(message + _REFUSAL_ENDINGS[made])


def is_tracked_view(tensor, inputs_require_grad: bool, declaration=None) -> bool:
    """Whether an in-place write to `tensor` must rewrite its base's history: not for
    the in-place views (`t_`, `squeeze_`, ...), which change the view, not the data; their
    node simply extends the view's own history, as in torch."""
    base = tensor._base
    if base is None or getattr(declaration, "in_place_view", False):
        return False
    meta = base._autograd
    return inputs_require_grad or (meta is not None and meta.requires_grad)


def leaf_refusal(tensor) -> str:
    """torch's message for an in-place write to a leaf that requires grad: a view (of a
    leaf, necessarily: it has no history) is named as such."""
    if tensor._base is not None and tensor._base.is_leaf:
        return _VIEW_OF_LEAF
    return "a leaf Variable that requires grad is being used in an in-place operation."


def check_view_of_leaf(tensor) -> None:
    meta = tensor._base._autograd
    if meta is not None and meta.requires_grad and meta.grad_fn is None:
        raise RuntimeError(_VIEW_OF_LEAF)


class CopySlices(Node):
    """The history of a base after an in-place write through one of its views.

    `fn` wrote the view, its input `input_nr` (0 for an in-place operator; a custom
    Function may write, `mark_dirty`, any of its inputs) and its only output.
    """

    hand_written = True

    def __init__(self, base, view, fn: Node, base_edge: tuple, input_nr: int = 0) -> None:
        edges = list(fn.next_functions)
        edges[input_nr] = base_edge
        super().__init__(tuple(edges))
        self.fn, self.input_nr = fn, input_nr
        self._base_geometry = (base._size, base._stride, base._offset, base._dtype)
        self._view_geometry = (view._size, view._stride, view._offset - base._offset)
        self._flipped = (view._keys ^ base._keys) & MATH_BITS     # a conj / neg view's bits
        self._input_metadata = [InputMetadata((base._size, base._dtype, base._device))]

    def apply(self, grads: list) -> list:
        from .engine import validate_outputs
        grad = grads[0]
        if grad is None:
            return [None] * len(self.next_functions)
        size, stride, _, dtype = self._base_geometry
        with no_grad():
            result = get_binding("function", "empty_strided")(size, stride, dtype=grad.dtype)
            result.copy_(grad)
            part = result.as_strided(*self._view_geometry)
            part._keys ^= self._flipped         # the view's gradient, read and written back
            found = list(validate_outputs(self.fn, self.fn.apply([part.clone()])))
            if found[self.input_nr] is None:
                part.zero_()
            else:
                part.copy_(found[self.input_nr])
        found[self.input_nr] = result
        return found

    def release(self) -> None:
        self.fn.release()


def rebase_history(view, fn: Node, base_edge: tuple, input_nr: int = 0) -> None:
    """After `fn` wrote `view` (its input `input_nr`) in place: the base's history
    becomes a CopySlices over `fn`, and the view's is read from the base's."""
    base = view._base
    node = CopySlices(base, view, fn, base_edge, input_nr)
    meta = base._autograd_meta()
    meta.grad_fn, meta.output_nr, meta.requires_grad = node, 0, True
    base._keys |= AUTOGRAD
    view_meta = view._autograd_meta()
    view_meta.requires_grad = True
    view._keys |= AUTOGRAD
    _regenerate(view)


def move_retained_grad(tensor, old_fn, old_nr: int) -> None:
    """`Tensor.retain_grad` keeps the gradient of the tensor's current version: when an
    in-place write gives it a new history, its hook moves from `old_fn` to the new node."""
    meta = tensor._autograd
    hooks = None if old_fn is None else old_fn.__dict__.get("_retains_grad_hooks")
    if meta is None or not meta.retains_grad or not hooks or old_nr not in hooks:
        return
    keep = hooks.pop(old_nr)
    if meta.grad_fn is not None:
        meta.grad_fn._own_table("_retains_grad_hooks")[meta.output_nr] = keep


def _regenerate(view) -> None:
    """The view's grad_fn made from its base's current history (AsStridedBackward0)."""
    from ..aten.registry import DECLARATIONS
    from .formulas import node_type
    base = view._base
    old_fn, old_nr = (view._autograd.grad_fn, view._autograd.output_nr) \
        if view._autograd is not None else (None, 0)
    declaration = DECLARATIONS["as_strided"]
    cls = node_type(declaration, declaration.overloads[next(iter(declaration.overloads))]._schema)
    saved = {"self_sym_sizes": base._size, "self_sym_strides": base._stride,
             "self_sym_storage_offset": base._offset, "size": view._size,
             "stride": view._stride, "storage_offset": view._offset}
    node = cls((gradient_edge(base),), saved, (None,))
    node._input_metadata = [InputMetadata((view._size, view._dtype, view._device))]
    node = _with_math_bits(node, (view._keys ^ base._keys) & MATH_BITS, view)
    meta = view._autograd_meta()
    meta.grad_fn, meta.output_nr = node, 0
    meta.attr_version = view._version
    move_retained_grad(view, old_fn, old_nr)


def _with_math_bits(node: Node, flipped: int, view) -> Node:
    """`node` followed by the views flipping `flipped` (Note [Math bits]): a conjugate
    view of its base regenerates as ConjBackward0 over AsStridedBackward0, as torch's."""
    from ..aten.registry import DECLARATIONS
    from .formulas import node_type
    for bit, name in ((NEGATIVE, "_neg_view"), (CONJUGATE, "_conj")):
        if flipped & bit:
            declaration = DECLARATIONS[name]
            schema = declaration.overloads[next(iter(declaration.overloads))]._schema
            node = node_type(declaration, schema)(((node, 0),), {}, (None,))
            node._input_metadata = [InputMetadata((view._size, view._dtype, view._device))]
    return node


def view_grad_fn(view):
    """A view's grad_fn, made anew when an in-place write moved its version."""
    meta = view._autograd
    if meta is None or meta.attr_version is None or meta.attr_version == view._version:
        return None if meta is None else meta.grad_fn
    base_meta = view._base._autograd
    if base_meta is not None and base_meta.requires_grad:
        if view._creation_meta != DEFAULT:
            refuse_inplace_on_view(view, indirect=True)
        _regenerate(view)
    return meta.grad_fn
