"""torch.library: operators defined from Python, dispatched as the built-in ones are.

Note [Operators from torch.library]
    An operator a library defines is the same object as ``aten::add``: an `OpOverload`
    in the dispatcher, in its own namespace (``torch.ops.mylib.myop.default``), with a
    kernel per dispatch key. Defining parses the schema (aten/schema.py) and creates the
    overload; `Library.impl` wraps a Python function as the kernel of the keys its
    dispatch-key name serves (`kernels.KEYS_BY_NAME`: CPU, Meta, or both for the
    composite keys). Everything else follows from the dispatcher: the Python binding
    of the schema (``torch.ops.mylib.myop(x, alpha=2.0)``), dispatch modes and the
    profiler seeing the call, meta tensors reaching the Meta kernel (a fake
    implementation is a Meta kernel: a function of meta tensors returning meta tensors),
    and autograd. A kernel registered by `impl` runs with autograd on, so the operators
    it calls record as usual (torch's CPU kernels without an autograd formula do the
    same); `custom_op` and `register_autograd` give the operator an Autograd-key kernel,
    an autograd.Function running the operator below autograd with the registered
    backward. glasstorch operators live as long as the process: a Library does not
    remove what it registered when collected.
"""
from __future__ import annotations

import warnings
from typing import Callable, Optional, Sequence, Union

from ..aten.dispatcher import OpOverload  # noqa: F401  (torch.library exposes it)
from ..aten.torch_names import missing_attribute
from ..c10.dispatch_key import DispatchKey
from . import kernels
from .custom_op import CustomOpDef, custom_op
from .definitions import Library, fallthrough_kernel, resolve_overload, split_qualname
from .infer_schema import infer_schema
from .opcheck import opcheck

__all__ = ["Library", "define", "impl", "register_fake", "register_autograd",
           "register_kernel", "custom_op", "infer_schema", "fallthrough_kernel", "CustomOpDef",
           "impl_abstract", "opcheck"]

def define(qualname: str, schema: str, *, lib: Optional[Library] = None, tags=()) -> None:
    """Define the operator ``qualname`` (``"mylib::name"``) with `schema`, the part from
    the parenthesis on (``"(Tensor x) -> Tensor"``)."""
    namespace, name = split_qualname(qualname)
    (lib or Library(namespace, "FRAGMENT")).define(name + schema, tags=tags)


def impl(qualname: str, types: Union[str, Sequence[str]], func: Optional[Callable] = None,
         *, lib: Optional[Library] = None):
    """Register `func` as the kernel of ``qualname`` for the device type(s) `types`
    (``"cpu"``) or a dispatch key name (``"CompositeExplicitAutograd"``); without `func`,
    a decorator."""
    def register(fn: Callable) -> Callable:
        overload = resolve_overload(qualname)
        for key in _key_names(types):
            (lib or Library(overload.namespace, "FRAGMENT")).impl(overload, fn, key)
        return fn
    return register if func is None else register(func)


def _key_names(types) -> list:
    names = [types] if types is None or isinstance(types, str) else list(types)
    return [kernels.KEY_OF_DEVICE.get(name, name) for name in names]


def register_kernel(op, device_types, func: Optional[Callable] = None, /, *,
                    lib: Optional[Library] = None):
    """Register `func` as `op`'s kernel for `device_types` (``"cpu"``; None: every
    device); without `func`, a decorator."""
    if hasattr(op, "register_kernel"):
        return op.register_kernel(device_types, func)
    return impl(resolve_overload(op), device_types, func, lib=lib)


def register_fake(op, func: Optional[Callable] = None, /, *, lib: Optional[Library] = None,
                  _stacklevel: int = 1, allow_override: bool = False):
    """Register `func` as `op`'s fake implementation: its kernel for meta tensors, which
    returns meta tensors of the results' shapes and dtypes; without `func`, a decorator."""
    if hasattr(op, "register_fake"):
        return op.register_fake(func) if func is not None else op.register_fake

    def register(fn: Callable) -> Callable:
        overload = resolve_overload(op)
        overload.register(DispatchKey.Meta, kernels.python_kernel(overload, fn, "fake"))
        return fn
    return register if func is None else register(func)


def impl_abstract(qualname, func: Optional[Callable] = None, *, lib: Optional[Library] = None,
                  _stacklevel: int = 1):
    """The old name of `register_fake` (warns that it was renamed)."""
    warnings.warn("`torch.library.impl_abstract` was renamed to `torch.library.register_fake`. "
                  "Please use that instead; we will remove `torch.library.impl_abstract` in a "
                  "future version of PyTorch.", FutureWarning, stacklevel=2 + _stacklevel)
    return register_fake(qualname, func, lib=lib)


def register_autograd(op, backward: Callable, /, *, setup_context: Optional[Callable] = None,
                      lib: Optional[Library] = None) -> None:
    """Give `op` a backward: ``backward(ctx, *grads)`` returns a gradient per input,
    after ``setup_context(ctx, inputs, output)`` saved what it needs in the forward."""
    if hasattr(op, "register_autograd"):
        return op.register_autograd(backward, setup_context=setup_context)
    overload = resolve_overload(op)
    overload.register(DispatchKey.Autograd,
                      kernels.autograd_kernel(overload, backward, setup_context))


def __getattr__(name: str):
    raise missing_attribute(__name__, name)

