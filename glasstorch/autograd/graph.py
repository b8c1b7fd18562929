"""The recorded graph: nodes (one per differentiable operator call) and their edges.

A result of a recorded call holds `grad_fn`, the `Node` that turns the gradient of that
result into gradients of the call's inputs. The node's `next_functions` are its edges,
one per input: the node that produced that input (with which of its outputs it was), an
`AccumulateGrad` for a leaf that requires grad, or `None` for an input that needs no
gradient. The engine (`engine.py`) walks these edges backwards.

Nodes are named as torch names them (`MulBackward0`): each operator's node type is a
subclass made for it (`formulas.py`), so `type(y.grad_fn).__name__` is that name.
"""
from __future__ import annotations

import itertools
import sys
import weakref
from operator import itemgetter
from typing import NamedTuple

import numpy as np

from ..aten.dispatcher import operator_entry, ops
from ..aten.meta.shape import is_non_overlapping_and_dense
from ..aten.allocation import empty_strided_on
from ..c10.dispatch_key import AUTOGRAD, INFERENCE, MATH_BITS, PYTHON, local_keys
from ..c10.dtype import float32, float64
from ..c10.layout import contiguous_format
from ..c10.strides import _STRIDES_CACHE
from ..c10.tensor_impl import (SAME_DTYPE, TensorBase, contiguous_strides,
                                is_contiguous_strides, make_view, share_storage)
from . import graph_task
from .creation_meta import NO_GRAD_MODE
from .saved import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks  # noqa: F401
from .saved_mutation import allow_mutation_on_saved_tensors  # noqa: F401

next_sequence_nr = itertools.count().__next__     # creation order: later nodes run first


class InputMetadata(tuple):
    """What a gradient flowing into a node's input `i` must look like: (shape, dtype,
    device) of the forward output it is the gradient of (a leaf's accumulator: its
    `grad_dtype`, None taking any dtype). A tuple, made as
    ``InputMetadata((t._size, t._dtype, t._device))``: tuple's own constructor, no
    Python frame per recorded call."""

    __slots__ = ()
    shape = property(itemgetter(0))
    dtype = property(itemgetter(1))
    device = property(itemgetter(2))

    def with_dtype(self, dtype) -> "InputMetadata":
        return InputMetadata((self[0], dtype, self[2]))


class Node:
    """One step of the backward graph.

    `apply(grads)` gets one gradient per forward output (None where no gradient
    arrived) and returns one per edge in `next_functions`.
    """

    # Hook tables are made on first registration (Note [Nodes are cheap to make]): until
    # then every node reads these shared empty ones, which nothing ever writes.
    _pre_hooks: dict = {}
    _post_hooks: dict = {}
    _tensor_pre_hooks: dict = {}         # output number -> {id: Tensor.register_hook}
    _retains_grad_hooks: dict = {}       # output number -> Tensor.retain_grad's hook

    def __init__(self, next_functions: tuple = ()) -> None:
        self.next_functions = next_functions
        self._sequence_nr = next_sequence_nr()
        self._input_metadata: list = []

    # Note [Nodes are cheap to make]
    #     A training step records a node per operator call, and almost none of them
    #     ever gets a hook or metadata. So a node is born with its edges, sequence
    #     number and input metadata only; its hook tables and `metadata` dict are made
    #     when first written (`_own_table`, the `metadata` property).
    def _own_table(self, name: str) -> dict:
        """This node's own hook table `name`, made (replacing the shared empty one) on
        first use."""
        table = self.__dict__.get(name)
        if table is None:
            table = {}
            setattr(self, name, table)
        return table

    @property
    def metadata(self) -> dict:
        """A dict for the user's (and anomaly mode's) notes about this node."""
        found = self.__dict__.get("_metadata")
        if found is None:
            found = self._metadata = {}
        return found

    # Nodes torch writes by hand (not generated from formulas) name themselves with
    # their C++ namespace: ``'torch::autograd::AccumulateGrad'``.
    hand_written = False

    def name(self) -> str:
        """The node's name, e.g. ``'MulBackward0'``."""
        name = type(self).__name__
        return f"torch::autograd::{name}" if self.hand_written else name

    def apply(self, grads: list) -> list:
        raise NotImplementedError

    def tensor_pre_hooks(self) -> dict:
        """{output number: {id: hook}} of the tensors this node made (register_hook)."""
        return self._tensor_pre_hooks

    holds_saved = True           # whether `release` has anything to free

    def release(self) -> None:
        """Free what backward needed (saved tensors) once it has run without retain_graph."""

    # ----- hooks ----------------------------------------------------------------------
    def register_hook(self, hook):
        """`hook(grad_inputs, grad_outputs)` runs after the node; a returned tuple
        replaces `grad_inputs` (the gradients this node passes on)."""
        return self._add_hook(self._own_table("_post_hooks"), hook)

    def register_prehook(self, hook):
        """`hook(grad_outputs)` runs before the node; a returned tuple replaces them."""
        return self._add_hook(self._own_table("_pre_hooks"), hook)

    def _add_hook(self, table: dict, hook):
        key = next_hook_id()
        table[key] = hook
        return RemovableHandle(table, key)

    def __call__(self, *grads):
        return self.apply(list(grads))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"


class RemovableHandle:
    """What registering a hook returns: `remove()` unregisters it."""

    def __init__(self, table: dict, key) -> None:
        self._table = table
        self.id = key

    def remove(self) -> None:
        self._table.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


_LAST = 2 ** 64 - 1


class AccumulateGrad(Node):
    """The end of the graph at a leaf: adds the arriving gradient into `variable.grad`.

    One per leaf, made on first use by `grad_accumulator`, so every use of the leaf in a
    graph meets at the same node; how long it lives: Note [A leaf keeps its accumulator].
    """

    hand_written = True
    holds_saved = False

    def __init__(self, variable) -> None:
        self.next_functions = ()
        self._sequence_nr = _LAST            # runs as soon as it is ready, as in torch
        meta = variable._autograd
        meta.grad_accumulator = weakref.ref(self)
        wanted = meta.grad_dtype                                    # Tensor.grad_dtype
        dtype = variable._dtype if wanted is SAME_DTYPE else wanted
        self._input_metadata = [InputMetadata((variable._size, dtype, variable._device))]
        self._leaf = weakref.ref(variable)
        # what the leaf was when this was made: a kept accumulator serves it while these
        # are still the leaf's own (`p.data = p.data.double()` replaces them)
        self._leaf_size, self._leaf_dtype = variable._size, variable._dtype
        self._leaf_device = variable._device
        hooks = meta.hooks
        if hooks is not None:                # A leaf's tensor hooks live on the leaf (its
            self._tensor_pre_hooks = {0: hooks}      # accumulator may be remade): shared
        if meta.post_accumulate_hooks:
            self._hold_leaf()
        else:
            meta.kept_accumulator = self

    # Note [A leaf keeps its accumulator]
    #     torch's leaf holds its AccumulateGrad weakly and the node holds the leaf, so
    #     the node lives as long as a graph does and each new graph makes a new one. Made
    #     in Python that costs about half a microsecond per leaf and recorded call
    #     (`ga + gb`, a parameter per layer), so here a leaf holds its accumulator
    #     (`kept_accumulator`) and the node holds the leaf weakly: no cycle, and no one
    #     can tell the kept node from torch's new one while nothing was done to it. It
    #     goes torch's way (`_hold_leaf`: the node holds the leaf, the leaf forgets the
    #     node) as soon as something could tell: a hook or metadata on the node itself,
    #     which torch drops with the graph, or a post-accumulate hook on the leaf, which
    #     must see the leaf even if the program dropped it. A leaf whose size, dtype or
    #     device changed (`.data = ...`) gets a node made for what it is now.
    def _hold_leaf(self) -> None:
        """Hold the leaf and let it forget this node: from now on the node lives while
        a graph or the program holds it, as torch's does."""
        variable = self._leaf()
        if variable is None:
            return
        self._held = variable
        meta = variable._autograd
        if meta is not None and meta.kept_accumulator is self:
            meta.kept_accumulator = None

    def _fits(self, variable) -> bool:
        """Whether this node was made for the leaf as it is (sizes, dtype, device)."""
        return self._leaf_size == variable._size and self._leaf_dtype is variable._dtype \
            and self._leaf_device == variable._device

    @property
    def variable(self):
        """The leaf (None once the program dropped a leaf this node did not hold)."""
        return self._leaf()

    def _own_table(self, name: str) -> dict:
        self._hold_leaf()                    # a hook of its own: torch's lifetime
        return super()._own_table(name)

    @property
    def metadata(self) -> dict:
        self._hold_leaf()
        return Node.metadata.fget(self)

    def apply(self, grads: list) -> list:
        grad = grads[0]
        if grad is not None:
            owned = sys.getrefcount(grad) <= _ENGINE_REFS
            variable = self._leaf()
            if variable is not None:         # (else dropped: its gradient goes nowhere)
                accumulate_into_grad(variable, grad, owned)
        return []


# Note [The engine owns gradients]
#     A leaf's first gradient becomes its `.grad`. torch copies it only when someone
#     else could see it change (AccumulateGrad's "steal" rule): otherwise the tensor
#     the last formula made is kept as it is, which saves a copy per parameter and
#     step. Here that is: no reference to the tensor outside the engine's input buffer
#     (CPython's reference count, which is why the engine hands a node's outputs to
#     the buffers without keeping them in a variable), no alias of its memory ever made
#     (no view, no `detach`: it has no version counter yet), no autograd record, and
#     the leaf's layout (torch's gradient layout contract, `_obeys_layout`). Anything
#     else is copied into that layout (`_copy_in_layout`).
def _count_refs(buffer: list) -> int:
    """The references a value held only by an input buffer shows in `AccumulateGrad.apply`
    (the buffer, the local variable, getrefcount's argument, as the interpreter counts)."""
    grad = buffer[0]
    return sys.getrefcount(grad)


_ENGINE_REFS = _count_refs([object()])


class _Holder:
    __slots__ = ("value",)


def _count_held_once() -> int:
    """The references a value held by one attribute shows once read into a variable
    (the attribute, the variable, getrefcount's argument, as the interpreter counts)."""
    holder = _Holder()
    holder.value = object()
    value = holder.value
    return sys.getrefcount(value)


_HELD_ONCE = _count_held_once()


def _stealable(grad, variable) -> bool:
    """Whether the engine's gradient may become `.grad` itself (Note [The engine owns
    gradients]): a fresh tensor, or a view of one that nothing else holds (sum_to's
    keepdim sum viewed to the leaf's shape), in the contract's layout."""
    if grad._autograd is not None or not _obeys_layout(grad, variable):
        return False
    base = grad._base
    if base is None:
        return grad._vc is None
    return base._base is None and base._autograd is None \
        and sys.getrefcount(base) <= _HELD_ONCE


def _obeys_layout(grad, variable) -> bool:
    """torch's gradient layout contract: a dense leaf's gradient has the leaf's strides
    (size-1 dims aside, unless stride 0); any other leaf's is row-major. (A row-major
    leaf, most parameters, is dense at the cost of one cached lookup.)"""
    if variable._stride != contiguous_strides(variable._size) \
            and not is_non_overlapping_and_dense(variable._size, variable._stride):
        return is_contiguous_strides(grad._size, grad._stride)
    for size, stride, wanted in zip(grad._size, grad._stride, variable._stride):
        if (stride != wanted) if size != 1 else (stride == 0):
            return False
    return True


def _copy_in_layout(grad, variable):
    """A copy of `grad` laid out by the contract (torch's clone_obey_contract): in the
    leaf's strides when the leaf is dense, else row-major. Recorded under create_graph
    (`.grad` then has CopyBackwards as its grad_fn, as in torch)."""
    if is_non_overlapping_and_dense(variable._size, variable._stride):
        if grad._device.type == "cpu" and local_keys.excluded & AUTOGRAD \
                and not (grad._keys & PYTHON or local_keys.included):
            # what the two calls below do, when nothing records or intercepts them
            copy = empty_strided_on(variable._size, variable._stride, grad._dtype, "cpu")
            np.copyto(copy._np, grad._np)
            copy._version_counter().value += 1          # copy_'s write
            return copy
        copy = ops.aten.empty_strided.default.call(variable._size, variable._stride,
                                                   grad._dtype, None, grad._device, None)
        return ops.aten.copy_.default.call(copy, grad, False)
    return ops.aten.clone.default.call(grad, contiguous_format)


def accumulate_into_grad(variable, grad, owned: bool = False) -> None:
    """Add `grad` into `variable.grad` (AccumulateGrad's job), then run the
    post-accumulate hooks. Without grad mode the sum is done in place; with it
    (create_graph) `.grad` becomes a new tensor that carries the graph. `owned`: no
    one but the engine holds `grad` (Note [The engine owns gradients])."""
    meta = variable._autograd            # (a leaf requiring grad: it has its record)
    if meta is None:
        meta = variable._autograd_meta()
    recording = not local_keys.excluded & AUTOGRAD
    if meta.grad is None:
        if not recording and owned and _stealable(grad, variable):
            # a view is kept as an alias that is not a view (torch keeps `grad.detach()`)
            meta.grad = grad if grad._base is None else make_view(
                grad, (grad._size, grad._stride, grad._offset), None)
        else:
            meta.grad = _copy_in_layout(grad, variable)
    elif recording:
        meta.grad = meta.grad + grad
    else:
        _add_in_place(meta.grad, grad)
    if meta.post_accumulate_hooks:
        for hook in list(meta.post_accumulate_hooks.values()):
            hook(variable)


_SUMMED_DIRECTLY = (float32, float64)
_NOT_PLAIN = PYTHON | INFERENCE | MATH_BITS


def _add_in_place(held, grad) -> None:
    """``held.add_(grad)``, a later gradient summed into `.grad`. When nothing could see
    the call (float32 or float64 CPU tensors of one dtype and shape, in distinct
    storages, `held` dense; no dispatch mode, observer, inference or math-bit flag), it
    is what the add_ kernel does, NumPy's in-place add, without the dispatcher."""
    size = held._size
    if held._dtype is grad._dtype and held._dtype in _SUMMED_DIRECTLY \
            and size == grad._size and not share_storage(held, grad) \
            and held._device.type == "cpu" and grad._device.type == "cpu" \
            and not ((held._keys | grad._keys) & _NOT_PLAIN or local_keys.included
                     or local_keys.observed) \
            and (held._stride == (_STRIDES_CACHE.get(size) or contiguous_strides(size))
                 or is_non_overlapping_and_dense(size, held._stride)):
        total = held._arr if held._arr is not None else held._np      # (read without a
        np.add(total, grad._arr if grad._arr is not None else grad._np, out=total)  # frame)
        (held._vc or held._version_counter()).value += 1                # add_'s write
        return
    operator_entry("add_", "Tensor")(held, grad, 1)     # the operator: no binding


def grad_accumulator(tensor) -> AccumulateGrad:
    """The leaf's `AccumulateGrad` (torch's `grad_accumulator()`): the one it keeps or a
    graph still holds, made anew when there is none or the leaf changed since (Note [A
    leaf keeps its accumulator])."""
    meta = tensor._autograd
    if meta is None:
        meta = tensor._autograd_meta()
    node = meta.grad_accumulator() if meta.grad_accumulator is not None else None
    if node is None or not node._fits(tensor):
        return AccumulateGrad(tensor)                 # (after `meta` exists: it reads it)
    node._leaf_size, node._leaf_device = tensor._size, tensor._device   # equal: now the
    if meta.post_accumulate_hooks:                    # same objects, for the quick check
        node._hold_leaf()
    return node


def gradient_edge(tensor) -> tuple:
    """Where a gradient for `tensor` goes: (its grad_fn, output number), the leaf's
    accumulator, or (None, 0) when it needs none."""
    meta = tensor._autograd
    if meta is None:
        return (None, 0)
    grad_fn = tensor.grad_fn if tensor._base is not None else meta.grad_fn
    if grad_fn is not None:
        return (grad_fn, meta.output_nr)
    if meta.requires_grad and tensor._creation_meta < NO_GRAD_MODE:
        return (grad_accumulator(tensor), 0)
    return (None, 0)     # a view made with grad mode off requires grad for its base's sake


class GradientEdge(NamedTuple):
    """Where the gradient of a tensor enters the graph: a node and its input number."""

    node: Node
    output_nr: int
    ownership_token: Node | None = None


def get_gradient_edge(tensor) -> GradientEdge:
    """The `GradientEdge` of `tensor`: its grad_fn's, or its accumulator's for a leaf.

    Raises:
        RuntimeError: when `tensor` does not require grad.
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that "
                           "does not require gradients")
    node, output_nr = gradient_edge(tensor)
    return GradientEdge(node, output_nr)


def increment_version(tensor) -> None:
    """Bump the version counter of `tensor` (or of each tensor of an iterable), as an
    in-place write would: for writes autograd could not see."""
    for value in (tensor,) if isinstance(tensor, TensorBase) else tensor:
        value._bump_version()


class _MultiHandle:
    """The handle of several hooks registered together: `remove()` removes them all."""

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode: str = "all") -> _MultiHandle:
    """Call `fn` once per backward pass over the gradients of several tensors.

    Args:
        tensors: the tensors watched.
        fn: with ``mode="all"``, ``fn(grads)`` once every gradient this backward computes
            for `tensors` is known (None for those it does not compute); with
            ``mode="any"``, ``fn(grad)`` with the first of them.
        mode: ``'all'`` or ``'any'``.

    Returns:
        A handle whose `remove()` takes the hooks away.
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    if mode == "any":
        return _register_any_grad_hook(tensors, fn)
    nodes = [gradient_edge(t)[0] for t in tensors]
    pending: dict = {}             # backward pass id -> [gradients, calls still to come]

    def hook_for(index: int):
        def hook(grad) -> None:
            task = graph_task.current_graph_task_id()
            if task not in pending:
                expected = sum(graph_task.will_engine_execute_node(n) for n in nodes)
                pending[task] = [[None] * len(nodes), expected]
            entry = pending[task]
            entry[0][index] = grad
            entry[1] -= 1
            if entry[1] == 0:
                del pending[task]
                fn(entry[0])
        return hook
    return _MultiHandle(tuple(register_tensor_hook(t, hook_for(i))
                              for i, t in enumerate(tensors)))


def _register_any_grad_hook(tensors, fn) -> _MultiHandle:
    """`register_multi_grad_hook`'s "any" mode: `fn` sees the first gradient of each
    backward pass."""
    fired: set = set()

    def first(grad) -> None:
        task = graph_task.current_graph_task_id()
        if task not in fired:
            fired.add(task)
            fn(grad)
    return _MultiHandle(tuple(register_tensor_hook(t, first) for t in tensors
                              if t.requires_grad))


def set_warn_on_accumulate_grad_stream_mismatch(enabled: bool) -> None:
    """Warn when a gradient is accumulated on another device stream than its leaf's:
    a CPU build has no streams, so there is nothing to warn about."""


def set_override_stale_capture_stream(enabled: bool) -> None:
    """Replace a stale CUDA-graph capture stream in backward: a CPU build has none."""


def region_activation_memory_budget(budget: float):
    """The activation-memory budget of a region compiled by torch.compile; in eager mode
    (always, here) the budget is checked and refused, as torch refuses it."""
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise TypeError(f"torch.autograd.graph.region_activation_memory_budget: expects a "
                        f"float, got {type(budget).__name__}")
    if not 0.0 <= budget <= 1.0:
        raise ValueError(f"torch.autograd.graph.region_activation_memory_budget: must be in "
                         f"[0, 1], got {budget}")
    raise RuntimeError("torch.autograd.graph.region_activation_memory_budget can only be used "
                       "inside a torch.compile region; it has no effect in eager mode.")


def register_tensor_hook(tensor, hook) -> RemovableHandle:
    """`Tensor.register_hook`: `hook(grad)` sees (and may replace) the tensor's gradient."""
    if not tensor.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    meta = tensor._autograd
    if meta.grad_fn is not None:
        table = meta.grad_fn._own_table("_tensor_pre_hooks").setdefault(meta.output_nr, {})
    else:
        if meta.hooks is None:
            meta.hooks = {}
            held = meta.grad_accumulator() if meta.grad_accumulator is not None else None
            if held is not None:                 # its accumulator reads the leaf's table
                held._tensor_pre_hooks = {0: meta.hooks}
        table = meta.hooks
    key = next_hook_id()
    table[key] = hook
    return RemovableHandle(table, key)


def tensor_hooks(tensor) -> dict:
    """The hooks `Tensor.register_hook` put on `tensor` ({id: hook}; empty if none):
    torch's ``tensor._backward_hooks``."""
    meta = tensor._autograd
    if meta is None:
        return {}
    if meta.grad_fn is not None:
        return meta.grad_fn.tensor_pre_hooks().get(meta.output_nr, {})
    return meta.hooks or {}


next_hook_id = itertools.count().__next__


def retain_grad(tensor) -> None:
    """Keep a non-leaf's gradient in its `.grad` during backward."""
    if not tensor.requires_grad:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    meta = tensor._autograd
    if meta.grad_fn is None or meta.retains_grad:
        return
    meta.retains_grad = True
    target = weakref.ref(tensor)

    def keep(grad) -> None:
        owner = target()
        if owner is None:
            return
        held = owner._autograd
        held.grad = grad.detach().clone() if held.grad is None else held.grad + grad
    meta.grad_fn._own_table("_retains_grad_hooks")[meta.output_nr] = keep


def __getattr__(name: str):
    """`format_graph` and `to_dot`, the teaching view (graph_text.py), loaded on first use."""
    if name in ("format_graph", "to_dot"):
        from . import graph_text
        return getattr(graph_text, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
