"""The Python dispatch key: hands operator calls to user code (dispatch modes).

While a `TorchDispatchMode` is active, the Python key is in every call's key set
(thread-locally), so the dispatcher's first stop is `python_fallback`: it pops the
innermost mode and calls its ``__torch_dispatch__(func, types, args, kwargs)`` with
`func` the `OpOverload`. Calling `func` again inside that method dispatches below
the mode, as in torch: a mode sees each operator once, after the Python binding
has turned the call into schema-ordered arguments and before autograd.
"""
from __future__ import annotations

import threading

from ..c10.dispatch_key import AUTOGRAD, PYTHON, local_keys


class _ModeStack(threading.local):
    def __init__(self) -> None:
        self.modes = []


_stack = _ModeStack()


def push_mode(mode) -> None:
    """Make `mode` the innermost active dispatch mode."""
    _stack.modes.append(mode)
    local_keys.set(local_keys.included | PYTHON, local_keys.excluded)


def pop_mode():
    """Deactivate and return the innermost mode."""
    mode = _stack.modes.pop()
    if not _stack.modes:
        local_keys.set(local_keys.included & ~PYTHON, local_keys.excluded)
    return mode


def python_fallback(op, keyset: int, args: tuple):
    """Python-key kernel of every operator: run the innermost mode's ``__torch_dispatch__``.

    The call was recorded already (Autograd is above Python), so inside the mode
    Autograd is excluded, as torch's below-autograd guard does: `func` called there
    records nothing again.
    """
    mode = pop_mode()
    excluded = local_keys.excluded
    local_keys.set(local_keys.included, excluded | AUTOGRAD)
    try:
        types = tuple({type(a) for a in args if hasattr(a, "_keys")})
        return mode.__torch_dispatch__(op, types, args, {})
    finally:
        local_keys.set(local_keys.included, excluded)
        push_mode(mode)
