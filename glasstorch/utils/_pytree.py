"""`torch.utils._pytree`: nested containers taken apart into leaves and put back.

A pytree is a leaf or a container of pytrees. The containers are those torch's pytree
knows without registration: list, tuple, dict, namedtuple, OrderedDict, defaultdict
and deque; anything else (None and tensors included) is a leaf. `tree_flatten` gives
the leaves left to right and a `TreeSpec`, the shape of the nesting, from which
`tree_unflatten` builds the same containers around new leaves; `tree_map` does both
around a function.
"""
from __future__ import annotations

import collections
from typing import Any, Callable

__all__ = ["LeafSpec", "TreeSpec", "tree_flatten", "tree_leaves", "tree_map",
           "tree_structure", "tree_unflatten"]


def _mapping(kind):
    return (lambda tree: (list(tree.values()), list(tree)),
            lambda children, keys: kind(zip(keys, children)))


def _defaultdict_unflatten(children, context):
    factory, keys = context
    return collections.defaultdict(factory, zip(keys, children))


# container type -> (tree -> (children, context), (children, context) -> tree)
_NODES = {
    list: (lambda tree: (list(tree), None), lambda children, _: list(children)),
    tuple: (lambda tree: (list(tree), None), lambda children, _: tuple(children)),
    dict: _mapping(dict),
    collections.OrderedDict: _mapping(collections.OrderedDict),
    collections.defaultdict: (lambda tree: (list(tree.values()),
                                            [tree.default_factory, list(tree)]),
                              _defaultdict_unflatten),
    collections.deque: (lambda tree: (list(tree), tree.maxlen),
                        lambda children, maxlen: collections.deque(children, maxlen)),
    collections.namedtuple: (lambda tree: (list(tree), type(tree)),
                             lambda children, kind: _rebuilt(kind, children)),
}


def _rebuilt(kind, children):
    """A namedtuple of `children`; torch.return_types (structseqs) take one sequence."""
    return kind(children) if hasattr(kind, "n_fields") else kind(*children)


def _node_type(tree) -> Any:
    kind = type(tree)
    if issubclass(kind, tuple) and hasattr(kind, "_fields") and kind is not tuple:
        return collections.namedtuple
    return kind if kind in _NODES else None


class TreeSpec:
    """The shape of a pytree: a container type, its context (keys, namedtuple class,
    deque's maxlen, ...) and the specs of its children."""

    def __init__(self, type: Any, context: Any, children_specs: list) -> None:
        self.type, self.context, self._children = type, context, list(children_specs)
        self.num_leaves = sum(child.num_leaves for child in self._children)
        self.num_nodes = 1 + sum(child.num_nodes for child in self._children)

    @property
    def num_children(self) -> int:
        return len(self._children)

    def children(self) -> list:
        """The specs of this node's children."""
        return list(self._children)

    def is_leaf(self) -> bool:
        return False

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and (self.type, self.context, self._children) == \
            (other.type, other.context, other._children)

    def __repr__(self, indent: int = 0) -> str:
        inner, indent = "", indent + 2
        if self._children:
            inner = ",\n".join([self._children[0].__repr__(indent)] +
                               [" " * indent + child.__repr__(indent)
                                for child in self._children[1:]])
        return f"TreeSpec({self.type.__name__}, {self.context}, [{inner}])"

    def unflatten(self, leaves) -> Any:
        """The pytree of this shape holding `leaves`, left to right."""
        leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} "
                             f"but the spec refers to a pytree that holds {self.num_leaves} "
                             f"items ({self!r}).")
        return self._build(iter(leaves))

    def _build(self, leaves):
        children = [child._build(leaves) for child in self._children]
        return _NODES[self.type][1](children, self.context)

    def flatten_up_to(self, tree) -> list:
        """The subtrees of `tree` where this spec has its leaves (`tree` must have this
        spec's containers down to them)."""
        kind = _node_type(tree)
        if kind is not self.type:
            expected = self.type if self.type is not collections.namedtuple else self.context
            raise ValueError(f"Node type mismatch; expected {expected}, but got {type(tree)}.")
        children, context = _NODES[kind][0](tree)
        if len(children) != len(self._children):
            raise ValueError(f"Node arity mismatch; expected {len(self._children)}, but got "
                             f"{len(children)}.")
        if context != self.context:
            raise ValueError(f"Node context mismatch for custom node type {kind}.")
        return [part for child, sub in zip(self._children, children)
                for part in child.flatten_up_to(sub)]


class LeafSpec(TreeSpec):
    """The spec of a leaf, printed ``*``."""

    def __init__(self) -> None:
        super().__init__(None, None, [])
        self.num_leaves, self.num_nodes = 1, 1

    def is_leaf(self) -> bool:
        return True

    def __repr__(self, indent: int = 0) -> str:
        return "*"

    def _build(self, leaves):
        return next(leaves)

    def flatten_up_to(self, tree) -> list:
        return [tree]


def tree_flatten(tree: Any, is_leaf: Callable | None = None) -> tuple:
    """The leaves of `tree`, left to right, and its `TreeSpec`.

    Args:
        tree: a pytree.
        is_leaf (callable, optional): says of a subtree whether to keep it whole.

    Example::

        >>> tree_flatten({"a": [1, 2], "b": 3})[0]
        [1, 2, 3]
    """
    leaves: list = []
    return leaves, _flatten(tree, is_leaf, leaves)


def _flatten(tree, is_leaf, leaves: list) -> TreeSpec:
    kind = _node_type(tree)
    if kind is None or (is_leaf is not None and is_leaf(tree)):
        leaves.append(tree)
        return LeafSpec()
    children, context = _NODES[kind][0](tree)
    return TreeSpec(kind, context, [_flatten(child, is_leaf, leaves) for child in children])


def tree_unflatten(leaves, treespec: TreeSpec) -> Any:
    """The pytree of shape `treespec` holding `leaves`; see `TreeSpec.unflatten`."""
    if not isinstance(treespec, TreeSpec):
        raise TypeError(f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance "
                        f"of TreeSpec but got item of type {type(treespec)}.")
    return treespec.unflatten(leaves)


def tree_leaves(tree: Any, is_leaf: Callable | None = None) -> list:
    """The leaves of `tree`, left to right."""
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree: Any, is_leaf: Callable | None = None) -> TreeSpec:
    """The `TreeSpec` of `tree`."""
    return tree_flatten(tree, is_leaf)[1]


def tree_map(func: Callable, tree: Any, *rests: Any, is_leaf: Callable | None = None) -> Any:
    """A pytree of `tree`'s shape whose leaves are `func` of the leaves of `tree` (and of
    the matching subtrees of each of `rests`).

    Example::

        >>> tree_map(lambda x: x * 2, (1, {"a": 2}))
        (2, {'a': 4})
    """
    leaves, treespec = tree_flatten(tree, is_leaf)
    flat_args = [leaves] + [treespec.flatten_up_to(rest) for rest in rests]
    return treespec.unflatten(map(func, *flat_args))
