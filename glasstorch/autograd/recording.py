"""The Autograd dispatch key's kernels: record the graph, then run the operator below.

For every declared operator with derivative formulas, each overload gets an Autograd
kernel (installed when the declaration is made; `install`). A call reaches it only when
a tensor argument requires grad and grad mode is on (otherwise the key is absent or
excluded and the call goes straight to the backend). The kernel:

1. checks what torch refuses (an in-place write to a leaf that requires grad, `out=`
   with inputs that require grad);
2. saves what the formulas will read (with version counters);
3. runs the operator below autograd (`op.redispatch`);
4. makes the node, with one edge per differentiable input, and makes it the `grad_fn`
   of the differentiable results (floating point or complex ones).
"""
from __future__ import annotations

from ..aten.derivatives import INPUT_FACTS
from ..aten.schema import SchemaKind
from ..c10.dispatch_key import AUTOGRAD, BATCHED, FORWARD_AD, DispatchKey, local_keys
from ..c10.tensor_impl import TensorBase
from . import forward_ad
from .grad_mode import no_grad
from .forward_ad import _levels as _dual_levels
from .graph import Node, gradient_edge
from .recording_plan import (Recording, attach, edge_of, is_wrapped_number, output_index,
                             requires_grad, wrapped_number)
from .saved import SavedTensor
from .views import (check_view_of_leaf, is_tracked_view, leaf_refusal, move_retained_grad,
                    rebase_history, refuse_inplace_on_view)


# Operators without formulas whose results never require grad (torch's
# DONT_REQUIRE_DERIVATIVE): other results of formula-less operators record a
# `NotImplemented` node, so backward through them fails by name, as in torch.
DONT_REQUIRE_DERIVATIVE = frozenset({"detach", "view.dtype", "_local_scalar_dense"})


def install(declaration) -> None:
    """Give each overload of a declaration its Autograd kernel: recording from the
    formulas, or a `NotImplemented` node for an operator without any."""
    if declaration.grad is None and declaration.kind == "composite":
        out = declaration.overloads.get(SchemaKind.out)   # its parts are recorded, but
        if out is not None:                               # out= refuses by its own name
            out.register(DispatchKey.Autograd, _out_kernel(out))
        return
    if declaration.grad is None and declaration.name in DONT_REQUIRE_DERIVATIVE:
        return
    missing = declaration.grad is None
    for kind, overload in declaration.overloads.items():
        if missing and kind is not SchemaKind.out:
            kernel = _not_implemented_kernel(declaration, overload)
        elif kind is SchemaKind.functional:
            kernel = _functional_kernel(declaration, overload)
            overload.register(DispatchKey.ForwardAD, _forward_ad_kernel(declaration, overload))
        elif kind is SchemaKind.inplace:
            kernel = _inplace_kernel(declaration, overload)
            overload.register(DispatchKey.ForwardAD, _forward_ad_kernel(declaration, overload))
        elif kind is SchemaKind.out:
            kernel = _out_kernel(overload)
        else:
            continue
        overload.register(DispatchKey.Autograd, kernel)


# ----------------------------------------------------------------------------------
# Forward AD: tangents of dual inputs give the result's tangent (forward_ad.py)
# ----------------------------------------------------------------------------------
def _dual_inputs(recording, args: tuple):
    """name -> tangent of the differentiable inputs that carry one; None if none do."""
    if not forward_ad.is_active():
        return None
    found = {}
    for name, index in zip(recording.cls().input_names, recording.differentiable_positions()):
        tangent = forward_ad.tangents_of(args[index])
        if tangent is not None:
            found[name] = tangent
    return found or None


def _jvp_values(recording, args: tuple, replaced: dict = None) -> dict:
    """Every argument (tensors detached) and input fact, as the formulas read them."""
    values = dict(replaced or {})
    for index, argument in enumerate(recording.schema.arguments):
        value = args[index]
        if argument.name not in values:
            values[argument.name] = _detached(value, argument)
        if isinstance(value, TensorBase):
            for fact, read in INPUT_FACTS.items():
                values[f"{argument.name}_{fact}"] = read(value)
    return values


def _detached(value, argument):
    if isinstance(value, TensorBase):
        return value.detach()
    if isinstance(value, (list, tuple)) and any(isinstance(v, TensorBase) for v in value):
        return [None if v is None else v.detach() for v in value]
    return wrapped_number(value) if is_wrapped_number(value, argument) else value


def _output_tangents(recording, args: tuple, tangents: dict, result) -> None:
    """Tangents of a functional operator's results: a view's is the same view of its
    source's tangent (forward_ad.py), any other's comes from the formulas (a view of a
    vmap's batched tensor too: a batched tensor's geometry is not its memory's)."""
    source = forward_ad.tangent_of(args[0])
    if recording.declaration.kind != "view" or (
            source is not None and (source._keys | args[0]._keys) & BATCHED):
        _set_output_tangent(recording, _jvp_values(recording, args), tangents, result)
        return
    if source is not None:
        forward_ad.set_view_tangents(args[0], result if type(result) is list else [result])


def _forward_ad_kernel(declaration, overload):
    """The ForwardAD key's kernel: with grad mode on, the Autograd kernel below computes
    tangents as it records; under no_grad (Autograd excluded) this one does."""
    recording = Recording(declaration, overload)
    inplace = overload._schema.kind is SchemaKind.inplace

    def run_forward_ad(op, keys_below, args):
        tangents = None if keys_below & AUTOGRAD else _dual_inputs(recording, args)
        if tangents is None:
            return op.redispatch(keys_below, args)
        if inplace:                                  # self's old value first
            values = _jvp_values(recording, args, {"self": _clone_below_autograd(args[0])})
        result = op.redispatch(keys_below, args)
        if inplace:
            _set_output_tangent(recording, values, tangents, result)
        else:
            _output_tangents(recording, args, tangents, result)
        return result
    run_forward_ad.__qualname__ = f"{declaration.name} (forward AD without grad mode)"
    return run_forward_ad


def _set_output_tangent(recording, values: dict, tangents: dict, result) -> None:
    if getattr(recording.declaration, "in_place_view", False):     # x.t_(): the tangent
        forward_ad.restride_tangent(result)                       # too takes the geometry
        return
    outputs = list(result) if isinstance(result, (tuple, list)) else [result]
    cls = recording.cls()
    for name in cls.output_names:
        values[name] = outputs[output_index(cls.output_names, name)].detach()
    found = forward_ad.jvp(cls, values, tangents, [o.detach() for o in outputs])
    for output, tangent in zip(outputs, found):
        if not (output._dtype.is_floating_point or output._dtype.is_complex):
            continue
        held = forward_ad.tangent_of(output)
        if held is None:
            forward_ad.set_tangent(output, tangent)
        else:                  # written in place: so is its tangent (shared, as in torch)
            with no_grad():
                held.copy_(tangent)


def _save_output_tangents(saved: dict, outputs_read: tuple, result) -> None:
    """The saved outputs keep their tangents: a backward run under forward mode (a
    Hessian by forward-over-reverse) differentiates the formulas reading them."""
    outputs = list(result) if isinstance(result, (tuple, list)) else [result]
    for name, index in outputs_read:
        saved[name].tangent = forward_ad.tangent_of(outputs[index])


def _functional_kernel(declaration, overload):
    recording = Recording(declaration, overload)

    def run_autograd(op, keys_below, args):
        if recording.node_class is None:
            recording.cls()
        for position, name in recording.refused:
            if requires_grad(args[position]):
                raise RuntimeError(f"The function '{op._schema.name}' is not differentiable "
                                   f"with respect to argument '{name}'. This input cannot have "
                                   f"requires_grad True.")
        prepared = recording.prepare(args)
        tangents = _dual_inputs(recording, args) if _dual_levels else None
        if prepared is None and tangents is None:
            return op.redispatch(keys_below, args)
        result = op.redispatch(keys_below, args)
        for arg in args:
            if result is arg:                    # handed an input back: nothing happened
                return result
        if prepared is not None:
            recording.finish(prepared, args, result)
        if tangents is not None:
            _output_tangents(recording, args, tangents, result)
            if prepared is not None and prepared[0].outputs:
                _save_output_tangents(prepared[1], prepared[0].outputs, result)
        return result
    run_autograd.__qualname__ = f"{declaration.name} (autograd: record, then run below)"
    return run_autograd


def _inplace_kernel(declaration, overload):
    recording = Recording(declaration, overload)

    def run_autograd(op, keys_below, args):
        self = args[0]
        tangents = _dual_inputs(recording, args)
        if tangents is not None:                     # forward AD: self's old value first
            values = _jvp_values(recording, args, {"self": _clone_below_autograd(self)})
        recording.cls()
        mask = recording.grad_mask(args)
        if mask and self._creation_meta:             # Note [Views autograd cannot rebase]
            refuse_inplace_on_view(self)
        if not mask:
            result = op.redispatch(keys_below, args)
            if tangents is not None:
                _set_output_tangent(recording, values, tangents, result)
            return result
        if self._autograd is not None and self._autograd.requires_grad \
                and self._autograd.grad_fn is None:
            raise RuntimeError(leaf_refusal(self))
        through_view = is_tracked_view(self, True, declaration)
        if through_view:
            check_view_of_leaf(self)
            base_edge = gradient_edge(self._base)
        plan = recording.plan(mask)
        saved = plan.save(args, skip=("self",))
        if "self" in plan.needed:                      # the formula needs self's old value
            saved["self"] = SavedTensor(_clone_below_autograd(self))
        edges = recording.edges(args)                  # self's edge: its history so far
        old = self._autograd
        old = (old.grad_fn, old.output_nr) if old is not None and old.retains_grad else None
        result = op.redispatch(keys_below, args)
        node = recording.make_node(args, saved, edges)
        attach(node, result, saved, plan.outputs)
        if through_view:
            rebase_history(self, node, base_edge)
        if old is not None:                            # (a view's moved as it regenerated)
            move_retained_grad(self, *old)
        if tangents is not None:
            _set_output_tangent(recording, values, tangents, result)
        return result
    run_autograd.__qualname__ = f"{declaration.name}_ (autograd: record, then run below)"
    return run_autograd


class NotImplementedNode(Node):
    """Recorded by an operator without derivative formulas: backward through it fails."""

    def __init__(self, edges: tuple, op_name: str) -> None:
        super().__init__(edges)
        self.op_name = op_name

    def name(self) -> str:
        return "torch::autograd::NotImplemented"

    def __repr__(self) -> str:
        return f"<NotImplemented object at {id(self):#x}>"

    def apply(self, grads: list) -> list:
        raise RuntimeError(f"derivative for aten::{self.op_name} is not implemented")


def _not_implemented_kernel(declaration, overload):
    positions = [i for i, a in enumerate(overload._schema.arguments) if a.type.base == "Tensor"]
    name = overload._schema.name

    def run_autograd(op, keys_below, args):
        result = op.redispatch(keys_below, args)
        if not any(requires_grad(args[i]) for i in positions) or not isinstance(
                result, (TensorBase, list, tuple)):
            return result
        record_not_implemented(name, [t for i in positions for t in (
            args[i] if isinstance(args[i], (list, tuple)) else [args[i]])], result)
        return result
    run_autograd.__qualname__ = f"{declaration.name} (autograd: no formula, NotImplemented)"
    return run_autograd


def record_not_implemented(name: str, inputs: list, result) -> None:
    """Make `result` the output of a NotImplemented node with an edge per input: it
    requires grad as torch's would, and backward through it raises torch's error."""
    attach(NotImplementedNode(tuple(edge_of(t) for t in inputs), name), result, {})


def _clone_below_autograd(tensor):
    excluded = local_keys.excluded
    local_keys.set(local_keys.included, excluded | AUTOGRAD | FORWARD_AD)
    try:
        return tensor.clone()
    finally:
        local_keys.set(local_keys.included, excluded)


def _out_kernel(overload):
    name = overload._schema.name

    def run_autograd(op, keys_below, args):
        if requires_grad(args):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                               f"automatic differentiation, but one of the arguments requires "
                               f"grad.")
        return op.redispatch(keys_below, args)
    run_autograd.__qualname__ = f"{name}.out (autograd: refuses inputs that require grad)"
    return run_autograd
