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
    records nothing again. With no mode active, the key came with a tensor subclass's
    instance (Note [Subclass dispatch]).
    """
    if not _stack.modes:
        return _subclass_dispatch(op, args)
    mode = pop_mode()
    excluded = local_keys.excluded
    local_keys.set(local_keys.included, excluded | AUTOGRAD)
    try:
        types = tuple({type(a) for a in args if hasattr(a, "_keys")})
        return mode.__torch_dispatch__(op, types, args, {})
    finally:
        local_keys.set(local_keys.included, excluded)
        push_mode(mode)


# Note [Subclass dispatch]
# ~~~~~~~~~~~~~~~~~~~~~~~~
# A tensor subclass defining a classmethod ``__torch_dispatch__`` may put the Python key
# in its instances' key sets (torch.masked.MaskedTensor does): every operator call with
# such an instance among its arguments then reaches the class's method, with `func` the
# `OpOverload` and the arguments in schema order, as a mode's does. The method unwraps
# its instances and calls operators on what they hold; it returns NotImplemented for an
# operator it does not handle, and when every class does, the call fails with torch's
# TypeError. Autograd stays as it was: such a class records its graph on the tensors it
# holds.

def _subclass_dispatch(op, args: tuple):
    classes = []
    for value in _flat(args):
        kind = type(value)
        if value._keys & PYTHON and kind not in classes \
                and getattr(kind, "__torch_dispatch__", None) is not None:
            classes.append(kind)
    for kind in classes:
        result = kind.__torch_dispatch__(op, tuple(classes), args, {})
        if result is not NotImplemented:
            return result
    listed = "".join(f"  - tensor subclass {kind}\n" for kind in classes)
    raise TypeError(f"Multiple dispatch failed for 'torch._ops.{op.namespace}.{op.name}"
                    f"{'' if '.' in op.name else '.default'}'; all __torch_dispatch__ "
                    f"handlers returned NotImplemented:\n\n{listed}\nFor more information, "
                    f"try re-running with TORCH_LOGS=not_implemented")


def _flat(args):
    """The tensors among `args`, lists of tensors included."""
    for value in args:
        if hasattr(value, "_keys"):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if hasattr(v, "_keys"))
