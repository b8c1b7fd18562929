"""The engine: runs the recorded graph backwards, from outputs to leaves.

As torch's engine does, it first counts, for every node reachable from the roots, how
many edges lead into it; a node runs once every gradient it will receive has arrived
(its count reached zero), gradients for the same input are summed in its input buffer,
and among ready nodes the one created last runs first. The walk is a loop over a heap,
never a recursion, so a graph a million nodes long needs no deeper stack.

`torch.autograd.grad` (and `backward(inputs=...)`) only runs the nodes that lie on a
path to the requested inputs and captures the gradient arriving at each of them.

While dispatch observers are on (the profiler: Note [Dispatch observers] in
aten/observers.py), each node runs inside two regions named as torch's profiler names
them: ``autograd::engine::evaluate_function: MulBackward0`` around its hooks, its call and
the fitting of its outputs, and ``MulBackward0`` around the call itself.
"""
from __future__ import annotations

import heapq
import itertools

from ..aten.binding import get_binding
from ..aten.derivatives import sum_to
from ..aten.observers import Region, enter_region, exit_region
from ..c10.dispatch_key import AUTOGRAD, local_keys
from . import anomaly_mode, graph_task
from .graph import InputMetadata, Node


class GraphRoot(Node):
    """The start of a backward pass: its edges lead to the outputs differentiated. It
    never runs: the engine delivers the given gradients along its edges first."""


def execute(edges: list, grads: list, retain_graph: bool, create_graph: bool,
            capture: list | None = None) -> list | None:
    """Run the graph from `edges` (where `grads` enter) to the leaves.

    Args:
        edges: (node, input number) of each output.
        grads: the gradient of each output.
        retain_graph: keep saved tensors for another backward.
        create_graph: record the backward computation (grad mode on while it runs).
        capture: edges whose arriving gradients to return instead of accumulating
            into leaves (autograd.grad); None to accumulate into every leaf.

    Returns:
        The captured gradients (None for an edge nothing reached), or None.
    """
    root = GraphRoot(tuple(edges))
    state = _Pass(root, retain_graph, capture)
    state.deliver(root, validate_outputs(root, list(grads)))
    saved_excluded = local_keys.excluded
    local_keys.set(local_keys.included, saved_excluded & ~AUTOGRAD if create_graph
                   else saved_excluded | AUTOGRAD)
    task = graph_task.begin(state.dependencies if state.reached is None else state.reached,
                            capture is not None)
    try:
        if capture is None and not state.observed:
            _run_every_node(state)
        else:
            while state.ready:
                node = heapq.heappop(state.ready)[2]
                _run_one(state, node, state.buffers.pop(node))
    finally:
        local_keys.set(local_keys.included, saved_excluded)
        graph_task.end(task)
    captured = state.captured
    return None if captured is None else [captured[edge] for edge in capture]


class _Pass:
    """One backward pass's bookkeeping: each node's input buffer and count of gradients
    still to come, the ready queue, and what `capture` asks for."""

    __slots__ = ("retain_graph", "dependencies", "needed", "reached", "captured", "buffers",
                 "ready", "order", "observed")

    def __init__(self, root: Node, retain_graph: bool, capture: list | None) -> None:
        self.retain_graph = retain_graph
        self.dependencies = _count_dependencies(root)
        self.needed = self.reached = self.captured = None
        if capture is not None:               # run what leads to a target; visit targets
            self.needed = _needed_nodes(root, capture)
            self.reached = self.needed | {edge[0] for edge in capture}
            self.captured = {edge: None for edge in capture}
        self.buffers: dict = {}
        self.ready: list = []
        self.order = itertools.count()
        self.observed = local_keys.observed    # read once: a backward never starts one

    def deliver(self, node: Node, outputs: list) -> None:
        """Add `node`'s output gradients into its children's input buffers (summing those
        for the same input) and queue each child whose last gradient has arrived."""
        buffers, dependencies, reached = self.buffers, self.dependencies, self.reached
        for edge, grad in zip(node.next_functions, outputs):
            if edge is None:
                continue
            child = edge[0]
            if child is None or (reached is not None and child not in reached):
                continue
            buffer = buffers.get(child)
            if buffer is None:
                buffer = buffers[child] = [None] * len(child._input_metadata)
            if grad is not None:
                slot = edge[1]
                held = buffer[slot]
                buffer[slot] = grad if held is None else held + grad
            left = dependencies[child] - 1
            dependencies[child] = left
            if left == 0:
                heapq.heappush(self.ready, (-child._sequence_nr, next(self.order), child))


def _run_one(state: _Pass, node: Node, inputs: list) -> None:
    """Run `node` with everything that may concern it: tensor hooks, captured
    gradients, node hooks, anomaly mode, the profiler's regions."""
    if node._retains_grad_hooks or node.tensor_pre_hooks():
        inputs = _run_tensor_pre_hooks(node, inputs)
    captured = state.captured
    if captured is not None:
        for i, grad in enumerate(inputs):
            if (node, i) in captured:
                captured[node, i] = grad
        if node not in state.needed:
            return
    # the outputs go straight to the buffers: see Note [The engine owns gradients]
    state.deliver(node, _run_node(node, inputs, state.retain_graph, state.observed))


# Note [The engine's common path]
#     Most passes capture nothing and run under no profiler, and most nodes have no
#     hook and run outside anomaly mode: for those `_run_every_node` applies the node
#     and hands each gradient to its child's buffer in one loop, fitting it to the
#     child's input as `validate_outputs` would (same checks, same order). A node
#     with anything more goes through `_run_one`.
def _run_every_node(state: _Pass) -> None:
    """Run the pass's nodes in the ready queue's order until none is left."""
    ready, buffers, dependencies, order = state.ready, state.buffers, state.dependencies, \
        state.order
    retain_graph, anomaly, pop = state.retain_graph, anomaly_mode._state, heapq.heappop
    while ready:
        node = pop(ready)[2]
        if node._retains_grad_hooks or node._tensor_pre_hooks or node._pre_hooks \
                or node._post_hooks or anomaly.enabled:
            _run_one(state, node, buffers.pop(node))
            continue
        outputs = node.apply(buffers.pop(node))
        if not retain_graph and node.holds_saved:
            node.release()
        edges = node.next_functions
        if len(outputs) != len(edges):
            validate_outputs(node, outputs)                  # raises torch's error
        for index, edge in enumerate(edges):
            if edge is None or edge[0] is None:
                continue
            child, slot = edge
            grad = outputs[index]
            buffer = buffers.get(child)
            if buffer is None:
                buffer = buffers[child] = [None] * len(child._input_metadata)
            if grad is not None:
                meta = child._input_metadata[slot]           # (shape, dtype, device)
                if grad._size != meta[0] or grad._dtype is not meta[1]:
                    grad = _fit(node, index, grad, meta)
                held = buffer[slot]
                buffer[slot] = grad if held is None else held + grad
            left = dependencies[child] - 1
            dependencies[child] = left
            if left == 0:
                heapq.heappush(ready, (-child._sequence_nr, next(order), child))
        outputs = grad = held = buffer = None    # the buffers alone hold the gradients


def _count_dependencies(root: Node) -> dict:
    """How many edges lead into each node reachable from `root` (iteratively)."""
    dependencies: dict = {}
    seen = {root}
    stack = [root]
    while stack:
        node = stack.pop()
        for edge in node.next_functions:
            child = edge[0] if edge is not None else None
            if child is None:
                continue
            dependencies[child] = dependencies.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return dependencies


def _needed_nodes(root: Node, capture: list) -> set:
    """The nodes on some path from `root` to a captured edge: only they need to run.

    A post-order walk (children settled before their parent, with an explicit stack):
    a node is needed when one of its edges leads to a target or to a needed node.
    """
    targets = {edge[0] for edge in capture}
    needed, visited = {root}, set()
    stack = [(root, False)]
    while stack:
        node, settled = stack.pop()
        children = [e[0] for e in node.next_functions if e is not None and e[0] is not None]
        if settled:
            if any(child in targets or child in needed for child in children):
                needed.add(node)
            continue
        if node in visited:
            continue
        visited.add(node)
        stack.append((node, True))
        stack.extend((child, False) for child in children if child not in visited)
    return needed


def _run_tensor_pre_hooks(node: Node, inputs: list) -> list:
    """`Tensor.register_hook` hooks (each may replace the gradient), then retain_grad."""
    hooks, keeps = node.tensor_pre_hooks(), node._retains_grad_hooks
    if not hooks and not keeps:
        return inputs
    inputs = list(inputs)
    for slot, table in hooks.items():
        for hook in list(table.values()):
            if inputs[slot] is None:
                break
            replaced = hook(inputs[slot])
            if replaced is not None:
                inputs[slot] = replaced
    for slot, keep in keeps.items():
        if inputs[slot] is not None:
            keep(inputs[slot])
    return inputs


def _run_node(node: Node, inputs: list, retain_graph: bool, observed: bool) -> list:
    if not observed:
        return _run_hooked_node(node, inputs, retain_graph, False)
    tokens = enter_region(f"autograd::engine::evaluate_function: {node.name()}")
    try:
        return _run_hooked_node(node, inputs, retain_graph, True)
    finally:
        exit_region(tokens)


def _apply(node: Node, inputs: list, observed: bool) -> list:
    if not observed:
        return node.apply(inputs)
    tokens = enter_region(node.name(), tuple(inputs), Region.BACKWARD_FUNCTION)
    try:
        return node.apply(inputs)
    finally:
        exit_region(tokens)


def _run_hooked_node(node: Node, inputs: list, retain_graph: bool, observed: bool) -> list:
    if node._pre_hooks:
        for hook in list(node._pre_hooks.values()):
            replaced = hook(tuple(inputs))
            if replaced is not None:
                inputs = list(replaced)
    if anomaly_mode.is_anomaly_enabled():
        try:
            outputs = _apply(node, inputs, observed)
        except Exception:
            anomaly_mode.warn_forward_stack(node)
            raise
        if anomaly_mode.is_anomaly_check_nan_enabled():
            anomaly_mode.check_nan(node, outputs)
    else:
        outputs = _apply(node, inputs, observed)
    if not retain_graph:
        node.release()
    outputs = validate_outputs(node, outputs)
    if node._post_hooks:
        for hook in list(node._post_hooks.values()):
            replaced = hook(tuple(outputs), tuple(inputs))
            if replaced is not None:
                outputs = list(replaced)
    return outputs


def validate_outputs(node: Node, outputs: list) -> list:
    """Each gradient a node returns, made to fit the input it is for: summed over the
    dimensions broadcasting added, and cast to that input's dtype. The list itself comes
    back when every gradient fits already (the common case: nothing to copy)."""
    edges = node.next_functions
    if len(outputs) != len(edges):
        raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                           f"(expected {len(edges)}, got {len(outputs)})")
    fitted = None
    for index, grad in enumerate(outputs):
        edge = edges[index]
        if edge is None or edge[0] is None or grad is None:
            # a gradient for an input that needs none is kept unchecked, as torch keeps it:
            # the node's post hooks see it (a Module's full backward hook does), no one else
            continue
        meta = edge[0]._input_metadata[edge[1]]
        if grad._size != meta.shape or grad._dtype is not meta.dtype:
            if fitted is None:
                fitted = list(outputs)
            fitted[index] = _fit(node, index, grad, meta)
    return outputs if fitted is None else fitted


def _fit(node: Node, index: int, grad, meta: InputMetadata):
    """One gradient summed to the input's shape and cast to its dtype."""
    if grad._size != meta.shape:
        if not _expandable(meta.shape, grad._size):
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {index} - "
                f"got {list(grad._size)} but expected shape compatible with "
                f"{list(meta.shape)}")
        grad = sum_to(grad, meta.shape)
    if meta.dtype is not None and grad._dtype is not meta.dtype:
        if grad._dtype.is_complex and not meta.dtype.is_complex:
            grad = grad.real
        grad = grad.to(meta.dtype)
    return grad


def _expandable(shape: tuple, target: tuple) -> bool:
    """Whether `shape` broadcasts to `target`."""
    if len(shape) > len(target):
        return False
    for size, full in zip(reversed(shape), reversed(target)):
        if size != full and size != 1:
            return False
    return True


def zeros_for(meta: InputMetadata):
    """A zero gradient for an output no gradient reached."""
    return get_binding("function", "zeros")(meta.shape, dtype=meta.dtype, device=meta.device)
