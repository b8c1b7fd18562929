"""`TorchDispatchMode`: intercept every operator call below the Python bindings."""
from __future__ import annotations

from ..aten.python_dispatch import pop_mode, push_mode


class TorchDispatchMode:
    """Base class of dispatch modes; override `__torch_dispatch__` and use it with ``with``.

    Example::

        >>> class Log(TorchDispatchMode):
        ...     def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        ...         print(func.name)
        ...         return func(*args, **(kwargs or {}))
        >>> with Log():
        ...     torch.ones(2).t()
    """

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self) -> "TorchDispatchMode":
        push_mode(self)
        return self

    def __exit__(self, *exc) -> None:
        pop_mode()
