"""Dispatch observers: code that watches every operator call without changing it.

Note [Dispatch observers]
The dispatcher sees every operator call, so it is the one place that can tell what a
program computed: `dispatch_trace()` prints the route of each call (keys, kernels, fast
paths), and `torch.profiler` times each call and notes its input shapes. Both are
*observers*, objects with three methods:

- ``enter(op, name, args, keyset)``: a call (or a named region) begins; what it
  returns is handed back to ``exit``. `op` is the `OpOverload` of an operator call
  (`name` its torch name, ``'aten::add'``; `args` in schema order; `keyset` its keys),
  or, for a region, its kind (a `Region`): a `record_function` block, a node the
  autograd engine runs backward, or the engine's work around that node.
- ``exit(token)``: that call or region is over.
- ``step(op, keyset, keys, kernel)``: the call reached a kernel; called only for an
  observer whose `wants_steps` is True, because naming kernels costs time a profiler
  must not spend.

Observers are per thread, as the thread-local dispatch keys are. While none is on,
`local_keys.observed` is False and a call costs nothing more than before: the
dispatcher's entry already checks `local_keys.plain`, which is False while an observer
is on, and only then looks at `observed` (see `OpOverload._make_entry`). A shortcut
that skips a dispatch torch would make (backward's implicit gradient, made without
calling `ones_like`) is taken only while no observer is on, so observers see the calls
torch's profiler sees.
"""
from __future__ import annotations

import enum
import threading

from ..c10.dispatch_key import keys_text, local_keys


class Region(enum.IntEnum):
    """The kinds of named region, numbered as torch's record scopes."""

    FUNCTION = 0               # the engine's work around a backward node
    BACKWARD_FUNCTION = 1      # a backward node's own call
    USER_SCOPE = 7             # a `record_function` block


class DispatchObserver:
    """What an observer of operator calls implements (Note [Dispatch observers]).

    The base methods do nothing; override what you need. ``wants_steps`` asks for a
    `step` at each kernel reached; with it, ``fast_paths=False`` asks the calls to run
    their general kernels only (Note [Fast paths] in fast_paths.py).
    """

    wants_steps = False
    fast_paths = True

    def enter(self, op, name: str, args: tuple, keyset: int = 0):
        """A call of `op` (a `Region` for a region) named `name` begins; returns a
        token."""
        return None

    def exit(self, token) -> None:
        """The call or region `enter` returned `token` for is over."""

    def step(self, op, keyset: int, keys: str, kernel: str) -> None:
        """The call reached the kernel labelled `kernel` at `keys`."""


class _Observers(threading.local):
    active: tuple = ()          # the observers on in this thread, first added first


_state = _Observers()


def active_observers() -> tuple:
    """The observers on in this thread."""
    return _state.active


def add_observer(observer: DispatchObserver) -> None:
    """Start telling `observer` about every call this thread makes."""
    _state.active = _state.active + (observer,)
    local_keys.set_observed(True)


def remove_observer(observer: DispatchObserver) -> None:
    """Stop telling `observer` (a no-op when it was not on)."""
    _state.active = tuple(o for o in _state.active if o is not observer)
    local_keys.set_observed(bool(_state.active))


def enter_region(name: str, args: tuple = (), kind: Region = Region.FUNCTION) -> tuple:
    """Tell every observer that the region `name` (of `kind`) begins; hand the result
    to `exit_region`. Returns () at once when no observer is on."""
    if not _state.active:
        return ()
    return tuple((o, o.enter(kind, name, args, 0)) for o in _state.active)


def exit_region(tokens: tuple) -> None:
    """Tell the observers `enter_region` told that the region is over (innermost first)."""
    for observer, token in reversed(tokens):
        observer.exit(token)


class DispatchTrace(DispatchObserver):
    """Records every dispatcher step inside a ``with`` block; `print` it to see the route.

    With ``fast_paths=False`` the calls inside run (and show) their general kernels
    only, never a fast path: the route every case could take (Note [Fast paths]).

    Example::

        >>> with torch.dispatch_trace() as route:
        ...     y = torch.ones(2, 3).t()
        >>> print(route)
    """

    wants_steps = True

    def __init__(self, fast_paths: bool = True) -> None:
        self.steps: list = []
        self.fast_paths = fast_paths
        self._depth = 0

    def __enter__(self) -> "DispatchTrace":
        add_observer(self)
        return self

    def __exit__(self, *exc) -> None:
        remove_observer(self)

    def enter(self, op, name: str, args: tuple, keyset: int = 0):
        if isinstance(op, Region):         # the trace shows operator calls only
            return None
        self.steps.append((self._depth, op.name, keyset, None, None))
        self._depth += 1
        return op

    def exit(self, token) -> None:
        if token is not None:
            self._depth -= 1

    def step(self, op, keyset: int, keys: str, kernel: str) -> None:
        self.steps.append((self._depth - 1, op.name, keyset, keys, kernel))

    def __str__(self) -> str:
        lines = []
        for depth, op_name, keyset, key, kernel in self.steps:
            pad = "  " * depth
            if key is None:
                lines.append(f"{pad}aten::{op_name}  [{keys_text(keyset)}]")
            else:
                lines.append(f"{pad}  {key:<16} -> {kernel}")
        return "\n".join(lines)

    __repr__ = __str__


def dispatch_trace(fast_paths: bool = True) -> DispatchTrace:
    """A context manager recording the keys and kernels each operator call visits;
    ``fast_paths=False`` runs the general kernels only (Note [Fast paths])."""
    return DispatchTrace(fast_paths)
