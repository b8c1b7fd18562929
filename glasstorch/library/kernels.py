"""Python functions as dispatcher kernels, for the operators torch.library defines.

A dispatcher kernel is ``kernel(op, keyset, args)`` with `args` in schema order; a
library's function takes the schema's arguments as Python does, keyword-only ones by
name. `python_kernel` adapts one to the other; `autograd_kernel` makes the Autograd-key
kernel of a custom op from its backward and setup_context.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..aten.dispatcher import OpOverload
from ..autograd.function import Function

# torch.library's dispatch key names -> the glasstorch keys they serve. The composite
# keys serve every backend; keys of devices glasstorch lacks are accepted and never run.
KEYS_BY_NAME = {"CPU": ("CPU",), "Meta": ("Meta",), "": ("CPU", "Meta"),
                "CompositeImplicitAutograd": ("CPU", "Meta"),
                "CompositeExplicitAutograd": ("CPU", "Meta"),
                "Autograd": ("Autograd",), "AutogradCPU": ("Autograd",)}
ABSENT_DEVICE_KEYS = frozenset({"CUDA", "XPU", "MPS", "HIP", "PrivateUse1", "AutogradCUDA",
                                "AutogradXPU", "AutogradMPS", "AutogradPrivateUse1"})
# torch.library's device types (register_kernel, custom_op) -> key names. "Every device"
# is the CPU: a custom op's meta kernel is its fake implementation, registered apart.
KEY_OF_DEVICE = {"cpu": "CPU", "meta": "Meta", None: "CPU"}


def python_kernel(op: OpOverload, fn: Callable, label: str) -> Callable:
    """The dispatcher kernel calling `fn` with `op`'s arguments, keyword-only ones by name."""
    arguments = op._schema.arguments
    n_positional = sum(1 for a in arguments if not a.kwarg_only)
    names = tuple(a.name for a in arguments[n_positional:])

    def kernel(op, keyset, args):
        if not names:
            return fn(*args)
        return fn(*args[:n_positional], **dict(zip(names, args[n_positional:])))
    kernel.__qualname__ = label
    kernel.__module__ = getattr(fn, "__module__", None) or "torch.library"
    return kernel


def autograd_kernel(op: OpOverload, backward: Optional[Callable],
                    setup_context: Optional[Callable]) -> Callable:
    """The Autograd-key kernel of a custom op: an autograd.Function whose forward runs
    the op below autograd and whose backward is the registered one (or one refusing,
    in torch's words, when none is registered)."""
    qualified = f"{op.namespace}.{op.overloadpacket._name}.{op._schema.overload_name or 'default'}"

    def forward(*args):                 # Function.apply runs this with Autograd excluded
        return op.call(*args)

    def setup(ctx, inputs, output):
        if setup_context is not None:
            setup_context(ctx=ctx, inputs=inputs, output=output)    # by name, as torch

    def missing_backward(ctx, *grads):
        raise RuntimeError(f"Trying to backward through {qualified} but no autograd formula "
                           f"was registered. Please use register_autograd to add one.")

    function = type(f"GeneratedBackwardFor_{qualified.replace('.', '_')}", (Function,), {
        "forward": staticmethod(forward), "setup_context": staticmethod(setup),
        "backward": staticmethod(backward or missing_backward)})

    def kernel(op, keyset, args):
        return function.apply(*args)
    kernel.__qualname__ = f"{qualified} autograd"
    kernel.__module__ = "torch.library"
    return kernel


def missing_fake_kernel(description: str, name: str) -> Callable:
    """The Meta kernel of a custom op with no fake implementation: it says so, as torch."""
    def kernel(op, keyset, args):
        raise RuntimeError(f"There was no fake impl registered for {description}. This is "
                           f"necessary for torch.compile/export/fx tracing to work. Please use "
                           f"`{name}.register_fake` to add an fake impl.")
    return kernel


def missing_meta_kernel(op, keyset, args):
    """The Meta kernel of an operator a library defined with no Meta kernel or fake impl."""
    raise NotImplementedError(
        f"{op.namespace}::{op.name}: attempted to run this operator with Meta tensors, but "
        f"there was no fake impl or Meta kernel registered. You may have run into this "
        f"message while using an operator with PT2 compilation APIs "
        f"(torch.compile/torch.export); in order to use this operator with those APIs "
        f"you'll need to add a fake impl. Please see the following for next steps:  "
        f"https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")
