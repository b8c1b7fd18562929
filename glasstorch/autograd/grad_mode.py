"""Grad mode: whether operators record the graph, as a thread-local switch.

Recording is the `Autograd` dispatch key's job, so turning it off is excluding that key
from every call on this thread (`local_keys.excluded`): under `no_grad` a call on a
tensor that requires grad goes straight to the backend, at no cost. Each mode is a
context manager and a decorator, like torch's.
"""
from __future__ import annotations

import functools
import inspect
import threading

from ..c10.dispatch_key import AUTOGRAD, local_keys


def is_grad_enabled() -> bool:
    """Whether operators on this thread record the autograd graph."""
    return not local_keys.excluded & AUTOGRAD


def _set_enabled(mode: bool) -> None:
    excluded = local_keys.excluded
    local_keys.set(local_keys.included, excluded & ~AUTOGRAD if mode else excluded | AUTOGRAD)


class _DecoratorContextManager:
    """A context manager usable as a decorator: the mode holds during each call."""

    def __call__(self, function):
        if inspect.isclass(function):
            raise RuntimeError(f"{type(self).__name__} cannot decorate a class")
        if inspect.isgeneratorfunction(function):
            return self._wrap_generator(function)

        @functools.wraps(function)
        def decorated(*args, **kwargs):
            with self.clone():
                return function(*args, **kwargs)
        return decorated

    def _wrap_generator(self, function):
        @functools.wraps(function)
        def decorated(*args, **kwargs):
            generator = function(*args, **kwargs)
            with self.clone():
                response = generator.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with self.clone():
                        generator.close()
                    raise
                except BaseException as error:
                    with self.clone():
                        response = generator.throw(error)
                else:
                    with self.clone():
                        try:
                            response = generator.send(request)
                        except StopIteration as stop:
                            return stop.value
        return decorated

    def clone(self):
        return type(self)()


class no_grad(_DecoratorContextManager):
    """Turn off graph recording: results of operators inside do not require grad.

    Example::

        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.no_grad():
        ...     y = x * 2
        >>> y.requires_grad
        False
    """

    def __init__(self) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = is_grad_enabled()
        _set_enabled(False)

    def __exit__(self, *exc) -> None:
        _set_enabled(self.prev)


class enable_grad(_DecoratorContextManager):
    """Turn graph recording back on inside a `no_grad` region."""

    def __enter__(self) -> None:
        self.prev = is_grad_enabled()
        _set_enabled(True)

    def __exit__(self, *exc) -> None:
        _set_enabled(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode to `mode`: at once when called, and back when used as a context.

    Args:
        mode (bool): record the graph (True) or not (False).
    """

    def __init__(self, mode: bool) -> None:
        self.prev = is_grad_enabled()
        self.mode = mode
        _set_enabled(mode)

    def __call__(self, function):
        _set_enabled(self.prev)              # as a decorator it acts only during calls
        return super().__call__(function)

    def __enter__(self) -> None:
        _set_enabled(self.mode)

    def __exit__(self, *exc) -> None:
        _set_enabled(self.prev)

    def clone(self):
        return type(self)(self.mode)


class _EngineSettings(threading.local):
    multithreading = True
    grad_layout_policy = True


_engine_settings = _EngineSettings()


def is_multithreading_enabled() -> bool:
    """Whether backward may run on device worker threads (this thread's setting; the
    engine here always runs on the calling thread, as torch's does for CPU tensors)."""
    return _engine_settings.multithreading


def is_view_replay_enabled() -> bool:
    """Whether views made in backward are replayed as views (torch's default: no)."""
    return False


class set_multithreading_enabled(_DecoratorContextManager):
    """Allow (True) or forbid (False) multithreaded backward: at once when called, and
    back to the previous setting when a ``with`` block ends.

    Args:
        mode (bool): whether backward may use device worker threads.
    """

    def __init__(self, mode: bool) -> None:
        self.prev = _engine_settings.multithreading
        _engine_settings.multithreading = mode
        self.mode = mode

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _engine_settings.multithreading = self.prev

    def clone(self):
        return type(self)(self.mode)


class enforce_grad_layout_policy(_DecoratorContextManager):
    """Require accumulated gradients to have their parameter's strides (True, the
    default) or let them keep the layout backward made (False): at once when called,
    and back to the previous setting when a ``with`` block ends.

    Args:
        enable (bool): enforce the layout contract.
    """

    def __init__(self, enable: bool = True) -> None:
        self.prev = _engine_settings.grad_layout_policy
        _engine_settings.grad_layout_policy = enable
        self.mode = enable

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _engine_settings.grad_layout_policy = self.prev

    def clone(self):
        return type(self)(self.mode)
