"""The backward pass running on this thread (torch's GraphTask), as code outside the
engine may ask about it: its id, whether it will run a given node, and whether it
reaches every leaf. The engine opens and closes it (`begin`, `end`); nothing here
imports the engine or the graph, so both can use it."""
from __future__ import annotations

import itertools
import threading


class _Current(threading.local):
    # (id, nodes, capturing): the pass's id (-1: no backward is running), the nodes it
    # runs or reaches to capture a gradient, and whether it is autograd.grad or
    # backward(inputs=...) (leaves not all reached). One field: a pass sets it once.
    task = (-1, frozenset(), False)


_current = _Current()
_ids = itertools.count()


def begin(nodes, capturing: bool) -> tuple:
    """Make a new backward pass over `nodes` current; returns what `end` restores."""
    saved = _current.task
    _current.task = (next(_ids), nodes, capturing)
    return saved


def end(saved: tuple) -> None:
    """Make the backward pass current before `begin` current again."""
    _current.task = saved


def current_graph_task_id() -> int:
    """The id of the backward pass running on this thread, -1 outside one."""
    return _current.task[0]


def will_engine_execute_node(node) -> bool:
    """Whether the running backward pass runs `node` (or reaches it to capture its
    gradient)."""
    return node in _current.task[1]


def is_checkpoint_valid() -> bool:
    """Whether the running backward reaches every leaf: false inside `autograd.grad` or
    ``backward(inputs=...)``, where a reentrant checkpoint cannot deliver its gradients
    (torch's ``_is_checkpoint_valid``)."""
    return not _current.task[2]
