"""torch.library.custom_op: a Python function made an operator, and its CustomOpDef."""
from __future__ import annotations

from typing import Callable, Iterable, Optional, Union

from ..aten.dispatcher import OpOverload
from ..c10.dispatch_key import DispatchKey
from . import kernels
from .definitions import Library
from .infer_schema import infer_schema


class CustomOpDef:
    """The operator `custom_op` made: calling it calls ``torch.ops.<ns>.<name>``; its
    ``register_*`` methods add a fake implementation, a backward, device kernels."""

    def __init__(self, namespace: str, name: str, schema: str, fn: Callable) -> None:
        self._namespace, self._name = namespace, name
        self._qualname = f"{namespace}::{name}"
        self._schema = schema
        self._init_fn = fn
        self._lib = Library(namespace, "FRAGMENT")
        self._lib.define(name + schema)
        self._opoverload: OpOverload = self._lib._overload(name)
        self._backward_fn = self._setup_context_fn = None
        self._opoverload.register(DispatchKey.Meta, kernels.missing_fake_kernel(repr(self), name))
        self._install_autograd()

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._qualname})>"

    def __call__(self, *args, **kwargs):
        return self._opoverload(*args, **kwargs)

    def register_kernel(self, device_types: Union[str, Iterable[str], None],
                        fn: Optional[Callable] = None, /) -> Callable:
        """Run `fn` for `device_types` (``"cpu"``) instead of the function decorated;
        without `fn`, a decorator."""
        def register(func: Callable) -> Callable:
            names = [device_types] if device_types is None or isinstance(device_types, str) \
                else list(device_types)
            for device_type in names:
                self._lib.impl(self._opoverload, func, kernels.KEY_OF_DEVICE.get(device_type,
                                                                                device_type))
            return func
        return register if fn is None else register(fn)

    def register_fake(self, fn: Callable, /) -> Callable:
        """`fn` computes the results' metadata: it is the kernel for meta tensors."""
        self._lib.impl(self._opoverload, fn, "Meta")
        return fn

    def register_autograd(self, backward: Callable, /, *,
                          setup_context: Optional[Callable] = None) -> None:
        """``backward(ctx, *grads)`` gives the inputs' gradients, after
        ``setup_context(ctx, inputs, output)`` kept what it needs."""
        self._backward_fn, self._setup_context_fn = backward, setup_context
        self._install_autograd()

    def _install_autograd(self) -> None:
        self._opoverload.register(DispatchKey.Autograd, kernels.autograd_kernel(
            self._opoverload, self._backward_fn, self._setup_context_fn))


def custom_op(name: str, fn: Optional[Callable] = None, /, *,
              mutates_args: Union[str, Iterable[str]], device_types=None,
              schema: Optional[str] = None, tags=None) -> Union[CustomOpDef, Callable]:
    """Make a Python function an operator, ``torch.ops.<ns>.<name>``.

    Args:
        name: ``"mylib::name"``.
        fn: the function (its type hints give the schema); without it, a decorator.
        mutates_args: the names of the Tensor arguments it writes (``()``: none).
        device_types: the device type(s) `fn` is the kernel of (None: every device).
        schema: the schema (``"(Tensor x) -> Tensor"``), when not read from the hints.

    Returns:
        The CustomOpDef (or a decorator making one).

    Example::

        >>> @torch.library.custom_op("mylib::square", mutates_args=())
        ... def square(x: torch.Tensor) -> torch.Tensor:
        ...     return torch.from_numpy(x.numpy() ** 2)
        >>> square(torch.tensor([3.]))
        tensor([9.])
    """
    def make(func: Callable) -> CustomOpDef:
        namespace, opname = name.split("::")
        text = schema if schema is not None else infer_schema(func, mutates_args=mutates_args)
        op = CustomOpDef(namespace, opname, text, func)
        op.register_kernel(device_types, func)
        return op
    return make if fn is None else make(fn)
