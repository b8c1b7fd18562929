"""How a call is recorded: what it saves, where its gradients go, and its node.

`Recording` holds what the Autograd kernels of one operator overload share (its
differentiable inputs, a `Plan` per combination of inputs requiring grad); `attach`
makes a node the `grad_fn` of a call's results. The kernels that use them are in
`recording.py`.
"""
from __future__ import annotations

import numpy as np

from ..aten.derivatives import INPUT_FACTS, REFUSES_GRAD
from ..c10.dispatch_key import AUTOGRAD, INFERENCE
from ..c10 import dtype as dtypes
from ..c10.promotion import scalar_dtype
from ..c10.tensor_impl import AutogradMeta, TensorBase, wrap_array
from .anomaly_mode import _state, record_stack
from .formulas import named_for_call, node_type
from .graph import InputMetadata, grad_accumulator, gradient_edge
from .saved import SavedTensor


def requires_grad(value) -> bool:
    """Whether `value` (a tensor, or a list or tuple of them) requires grad."""
    if isinstance(value, TensorBase):
        meta = value._autograd
        return meta is not None and meta.requires_grad
    if isinstance(value, (list, tuple)):
        return any(requires_grad(v) for v in value)
    return False


class Recording:
    """What one operator's kernels share: where its differentiable inputs are, and a
    plan per combination of inputs that require grad (Note [Recording plans])."""

    def __init__(self, declaration, overload) -> None:
        self.declaration = declaration
        self.schema = overload._schema
        self.node_class = None
        names = [a.name for a in self.schema.arguments]
        self.positions = {name: i for i, name in enumerate(names)}
        self.tensor_positions = [i for i, a in enumerate(self.schema.arguments)
                                 if a.type.base == "Tensor" and not a.type.is_list]
        self.inputs: tuple = ()         # the differentiable inputs' positions
        self.lists = False              # whether one of them is a Tensor[]
        self.numbers: tuple = ()        # Tensor positions that may hold Python numbers
        self.spans: tuple = ()          # FormulaNode spans when no input is a list
        self.refused: tuple = ()        # (position, name) of inputs that may not require grad
        self.simple = False             # Note [One frame to record a call]
        self._plans: dict = {}

    def cls(self):
        if self.node_class is None:            # compiled on first use, not at import
            cls = node_type(self.declaration, self.schema)
            arguments = self.schema.arguments
            self.inputs = tuple(self.positions[name] for name in cls.input_names)
            self.lists = any(arguments[i].type.is_list for i in self.inputs)
            self.numbers = tuple(self.tensor_positions) if self.declaration.numbers else ()
            self.spans = (None,) * len(self.inputs)
            self.refused = tuple((i, a.name) for i, a in enumerate(arguments)
                                 if self.declaration.grad.get(a.name) == REFUSES_GRAD)
            self.simple = not self.lists and cls.differentiable_outputs is None
            self.node_class = cls
        return self.node_class

    def differentiable_positions(self) -> tuple:
        self.cls()
        return self.inputs

    def grad_mask(self, args: tuple) -> int:
        """Bit k set when differentiable input k requires grad; 0 when none does."""
        mask, bit = 0, 1
        for index in self.inputs:
            value = args[index]
            if isinstance(value, TensorBase):
                meta = value._autograd
                if meta is not None and meta.requires_grad:
                    mask |= bit
            elif isinstance(value, (list, tuple)) and requires_grad(value):
                mask |= bit
            bit <<= 1
        return mask

    # Note [Recording plans]
    #     What a call saves depends only on which of its differentiable inputs require
    #     grad: the formulas of those inputs name what they read (saving more would
    #     keep tensors alive, and fail on their later in-place writes). So the names
    #     are sorted out once per operator and combination (`plan`): which arguments
    #     to save, which input facts (`self_sym_sizes`) to read, which outputs to keep.
    #     A call then only walks its plan.
    def plan(self, mask: int) -> "Plan":
        found = self._plans.get(mask)
        if found is None:
            cls = self.cls()
            needed = set()
            for k, formula in enumerate(cls.formulas):
                if mask >> k & 1:
                    needed.update(formula.names)
            found = self._plans[mask] = Plan(self, frozenset(needed & cls.saved_names))
        return found

    def renamed(self, args: tuple) -> type:
        """The node type of a call with number operands (`AddBackward1` for ``x + 2``)."""
        numbers = tuple(self.schema.arguments[i].name for i in self.numbers
                        if isinstance(args[i], (bool, int, float, complex)))
        return named_for_call(self.node_class, self.declaration, numbers)

    def make_node(self, args: tuple, saved: dict, edges: tuple):
        cls = self.node_class
        for i in self.numbers:                 # a number operand may rename the node
            if isinstance(args[i], (bool, int, float, complex)):
                cls = self.renamed(args)
                break
        if not self.lists:
            return cls(edges, saved, self.spans)
        spans = tuple(len(args[i]) if isinstance(args[i], (list, tuple)) else None
                      for i in self.inputs)
        return cls(edges, saved, spans)

    def edges(self, args: tuple) -> tuple:
        if not self.lists:
            return tuple([edge_of(args[index]) for index in self.inputs])
        found = []
        for index in self.inputs:
            value = args[index]
            if isinstance(value, (list, tuple)):
                found.extend(edge_of(v) for v in value)
            else:
                found.append(edge_of(value))
        return tuple(found)

    # Note [One frame to record a call]
    #     Most recorded calls take plain tensors (no Tensor[] input) and give one
    #     result: `prepare` then finds the grad mask and the edges in one walk over the
    #     inputs and saves by the plan, and `finish` makes the node and attaches it,
    #     each in one frame. Whatever else (lists, several results, an integer result,
    #     an operator naming which outputs are differentiable) goes the general way:
    #     `grad_mask`, `plan`, `edges`, `make_node` and `attach`.
    def prepare(self, args: tuple):
        """(plan, saved values, edges) when a differentiable input requires grad, else
        None; the edges are read now, before the call can change any history."""
        if not self.simple:
            mask = self.grad_mask(args)
            if not mask:
                return None
            plan = self.plan(mask)
            return plan, plan.save(args), self.edges(args)
        mask, bit, edges = 0, 1, []
        for index in self.inputs:
            value = args[index]
            meta = value._autograd if isinstance(value, TensorBase) else None
            if meta is None or not meta.requires_grad:
                edges.append(_NO_EDGE)
            elif value._base is not None:
                mask |= bit
                edges.append(_view_edge(value, meta))
            elif meta.grad_fn is not None:
                mask |= bit
                edges.append((meta.grad_fn, meta.output_nr))
            else:               # a leaf: the accumulator it keeps, while made for it as
                mask |= bit     # it is (Note [A leaf keeps its accumulator])
                node = meta.kept_accumulator
                if node is None or node._leaf_size is not value._size \
                        or node._leaf_dtype is not value._dtype \
                        or node._leaf_device is not value._device or meta.post_accumulate_hooks:
                    node = grad_accumulator(value)
                edges.append((node, 0))
            bit <<= 1
        if not mask:
            return None
        plan = self._plans.get(mask) or self.plan(mask)
        return plan, plan.save(args) if plan.saves else {}, tuple(edges)

    def finish(self, prepared: tuple, args: tuple, result) -> None:
        """Make the node of a call `prepare`d and make it the grad_fn of `result`."""
        plan, saved, edges = prepared
        if not self.simple or not isinstance(result, TensorBase) \
                or not (result._dtype.is_floating_point or result._dtype.is_complex):
            check_differentiable_dtype(self.declaration, result)
            attach(self.make_node(args, saved, edges), result, saved, plan.outputs)
            return
        cls = self.node_class
        for i in self.numbers:                   # a number operand may rename the node
            if isinstance(args[i], (bool, int, float, complex)):
                cls = self.renamed(args)
                break
        node = cls(edges, saved, self.spans)
        node._input_metadata = [InputMetadata((result._size, result._dtype, result._device))]
        if _state.enabled:                       # anomaly mode
            record_stack(node)
        meta = result._autograd
        if meta is None:
            meta = result._autograd = AutogradMeta()
        meta.grad_fn = node
        meta.output_nr = 0
        meta.requires_grad = True
        result._keys |= AUTOGRAD
        if result._base is not None:             # a view: its grad_fn holds for this version
            vc = result._vc                      # (read without a frame; an inference
            plain = vc is not None and not result._keys & INFERENCE   # tensor's refuses)
            meta.attr_version = vc.value if plain else result._version
        for name, _ in plan.outputs:
            saved[name] = SavedTensor(result, is_output=True, output_nr=0)


class Plan:
    """What a call saves, for one combination of inputs requiring grad (Note [Recording
    plans]): (name, position, schema argument, whether it is of a type other than
    Tensor) of the arguments, (name, position,
    reader) of the input facts, (name, output index) of the outputs, and the names of
    all of them."""

    __slots__ = ("needed", "arguments", "facts", "outputs", "saves")

    def __init__(self, recording: Recording, needed: frozenset) -> None:
        self.needed = needed
        names = recording.node_class.output_names
        self.outputs = tuple((name, output_index(names, name)) for name in sorted(needed)
                             if name in names)
        arguments, facts = [], []
        for name in sorted(needed):
            index = recording.positions.get(name)
            if index is not None:
                argument = recording.schema.arguments[index]
                arguments.append((name, index, argument, argument.type.base != "Tensor"))
                continue
            for fact, read in INPUT_FACTS.items():
                owner = recording.positions.get(name[:-len(fact) - 1]) \
                    if name.endswith("_" + fact) else None
                if owner is not None:
                    facts.append((name, owner, read))
                    break
        self.arguments = tuple(arguments)
        self.facts = tuple(facts)
        self.saves = bool(arguments or facts)     # whether a call saves anything before it runs

    def save(self, args: tuple, skip: tuple = ()) -> dict:
        saved = {}
        for name, index, argument, plain in self.arguments:
            if name not in skip:
                value = args[index]
                if isinstance(value, TensorBase):
                    saved[name] = SavedTensor(value)
                elif plain and not isinstance(value, (list, tuple)):
                    saved[name] = value          # a number, a dtype: kept as it is
                else:
                    saved[name] = _save(value, argument)
        for name, owner, read in self.facts:
            saved[name] = read(args[owner])
        return saved


_NO_EDGE = (None, 0)


def edge_of(value) -> tuple:
    if isinstance(value, TensorBase):
        meta = value._autograd
        if meta is None:
            return _NO_EDGE
        if value._base is not None:
            return _view_edge(value, meta)
        if meta.grad_fn is not None:                             # the common case, inline
            return (meta.grad_fn, meta.output_nr)
        return gradient_edge(value)
    return _NO_EDGE


def _view_edge(view, meta) -> tuple:
    """A view's edge: its grad_fn read directly while no in-place write has moved the
    version it was recorded at (`F.linear`'s ``weight.t()``), else `gradient_edge`,
    which regenerates it."""
    grad_fn, vc = meta.grad_fn, view._vc
    if grad_fn is not None and meta.attr_version == (0 if vc is None else vc.value):
        return (grad_fn, meta.output_nr)
    return gradient_edge(view)


def _save(value, argument):
    """A tensor as a SavedTensor; a number standing for a tensor as a saved 0-dim tensor
    (torch's wrapped number is a SavedVariable too: released after backward, so a second
    backward through ``x * 2`` raises); anything else as it is."""
    if isinstance(value, TensorBase):
        return SavedTensor(value)
    if is_wrapped_number(value, argument):
        return SavedTensor(wrapped_number(value))
    if isinstance(value, (list, tuple)) and any(isinstance(v, TensorBase) for v in value):
        return [None if v is None else SavedTensor(v) for v in value]    # Tensor?[] has Nones
    return value


def is_wrapped_number(value, argument) -> bool:
    return argument.type.base == "Tensor" and isinstance(value, (bool, int, float, complex))


def wrapped_number(value) -> TensorBase:
    """A number standing for a tensor, as the 0-dim tensor torch makes of it: int64 (bools
    too: formulas do arithmetic on it, which bool tensors refuse), or of double precision,
    as torch's wrapped numbers (a float32 0.8 would put a 1e-8 error into every float64
    gradient; 0-dim, it does not promote the gradient); an int beyond int64 is uint64, as
    in torch's Scalar, and one beyond that is refused with torch's OverflowError. Made
    directly over a NumPy scalar array: this runs for every recorded call with a number
    operand (``x ** 2``)."""
    if isinstance(value, complex):
        dtype = dtypes.complex128
    elif isinstance(value, float):
        dtype = dtypes.float64
    else:
        value = int(value)
        dtype = dtypes.int64
        if not -2 ** 63 <= value < 2 ** 63:
            scalar_dtype(value)                 # beyond uint64: torch's OverflowError
            dtype = dtypes.uint64
    return _flagged(wrap_array(np.array(value, dtype._np), dtype))


def _flagged(wrapped: TensorBase) -> TensorBase:
    wrapped._wrapped_number = True           # torch's flag: a number, not a tensor
    return wrapped


def attach(node, result, saved: dict, outputs_read: tuple = ()) -> None:
    """Make `node` the grad_fn of the differentiable outputs; save the outputs its
    formulas read (`outputs_read`: (name, output index), a plan's `outputs`)."""
    if isinstance(result, (tuple, list)):   # (return_types are tuples too)
        outputs = list(result)
        node._input_metadata = [None if t is None else InputMetadata((t._size, t._dtype, t._device))
                                for t in outputs]
    else:                                     # one result (never None): no list comprehension
        outputs = [result]
        node._input_metadata = [InputMetadata((result._size, result._dtype, result._device))]
    if _state.enabled:                        # anomaly mode
        record_stack(node)
    differentiable = getattr(node, "differentiable_outputs", None)
    for index, tensor in enumerate(outputs):
        if tensor is None:                    # an undefined result (output_mask)
            continue
        if differentiable is not None and not differentiable[index]:
            continue
        if not (tensor._dtype.is_floating_point or tensor._dtype.is_complex):
            continue
        meta = tensor._autograd_meta()
        meta.grad_fn = node
        meta.output_nr = index
        meta.requires_grad = True
        tensor._keys |= AUTOGRAD
        if tensor._base is not None:          # a view: its grad_fn holds for this version
            meta.attr_version = tensor._version
    for name, index in outputs_read:
        saved[name] = SavedTensor(outputs[index], is_output=True, output_nr=index)


def output_index(names: tuple, name: str) -> int:
    """Outputs are named ('result', its schema name) or ('result0', name0, 'result1', ...)."""
    if names[0] == "result":
        return 0
    position = names.index(name)        # an output may itself be named "result"
    return sum(1 for n in names[:position + 1] if n[6:].isdigit() and n[:6] == "result") - 1


# Operators with formulas whose result may legitimately leave the differentiable
# dtypes: casts, whose integer results simply do not require grad.
_CASTS = frozenset({"_to_copy"})


def check_differentiable_dtype(declaration, result) -> None:
    """A formula's single result must be floating point or complex (torch refuses
    `x.sum(dtype=torch.long)` on an `x` that requires grad)."""
    if isinstance(result, TensorBase) and declaration.name not in _CASTS \
            and not (result._dtype.is_floating_point or result._dtype.is_complex):
        from ..c10.dtype import scalar_type_name
        raise RuntimeError(f"Autograd not support dtype: {scalar_type_name(result._dtype)}")
