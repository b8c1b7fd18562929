"""Looking at a recorded graph, for teaching and debugging (not part of torch's API):
`format_graph` (an indented tree of node names) and `to_dot` (Graphviz text), found
as ``torch.autograd.graph.format_graph`` and ``to_dot``."""
from __future__ import annotations


def _label(node) -> str:
    """A node's name with what it keeps: saved tensors' shapes, a leaf's shape."""
    if node is None:
        return "None"
    if node.name() == "torch::autograd::AccumulateGrad":
        return f"{type(node).__name__} (leaf {list(node._leaf_size)} {node._leaf_dtype})"
    saved = getattr(node, "_saved", None) or {}
    kept = [f"{name} {list(value.data.shape)}" for name, value in saved.items()
            if getattr(value, "data", None) is not None and hasattr(value.data, "shape")]
    return type(node).__name__ + (f" (saved: {', '.join(kept)})" if kept else "")


def format_graph(tensor) -> str:
    """The backward graph behind `tensor`, as an indented tree of node names.

    A node reached a second time (its result was used twice) is named, not expanded.

    Example::

        >>> x = torch.ones(2, requires_grad=True)
        >>> print(torch.autograd.graph.format_graph((x * 2).exp()))
        ExpBackward0 (saved: result [2])
        └── MulBackward0 (saved: other [])
            ├── AccumulateGrad (leaf [2] torch.float32)
            └── None
    """
    root = tensor.grad_fn
    if root is None:
        return "(a leaf: no graph)" if tensor.requires_grad else "(no graph)"
    lines, seen = [_label(root)], {root}
    stack = [(edge[0], "", i == len(root.next_functions) - 1)
             for i, edge in reversed(list(enumerate(root.next_functions)))]
    while stack:
        node, indent, last = stack.pop()
        again = node is not None and node in seen
        lines.append(f"{indent}{'└── ' if last else '├── '}{_label(node)}"
                     f"{' (shown above)' if again else ''}")
        if node is None or again:
            continue
        seen.add(node)
        inner = indent + ("    " if last else "│   ")
        edges = node.next_functions
        stack.extend((edge[0], inner, i == len(edges) - 1)
                     for i, edge in reversed(list(enumerate(edges))))
    return "\n".join(lines)


def to_dot(tensor) -> str:
    """The backward graph behind `tensor` as Graphviz DOT text (``dot -Tsvg``)."""
    root = tensor.grad_fn
    lines = ["digraph backward {", '  node [shape=box, fontname="monospace"];']
    if root is None:
        return "\n".join(lines + ["}"])
    ids, stack = {root: 0}, [root]
    while stack:
        node = stack.pop()
        lines.append(f'  n{ids[node]} [label="{_label(node)}"];')
        for nr, (child, input_nr) in enumerate(e for e in node.next_functions if e is not None):
            if child is None:
                continue
            if child not in ids:
                ids[child] = len(ids)
                stack.append(child)
            lines.append(f'  n{ids[node]} -> n{ids[child]} [label="{input_nr}"];')
    return "\n".join(lines + ["}"])
