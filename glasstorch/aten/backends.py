"""Backends as data: kernels are registered per dispatch key, built from a table of the
backends (Note [Backends as data]), and what torch's Meta key does differently is the
Meta registration (Note [Meta registrations]).

Note [Backends as data]
    A backend is a dispatch key plus two facts: how it allocates a tensor the meta rule
    described (its row of `allocation.ALLOCATORS`), and whether it runs kernels at all.
    CPU allocates NumPy memory and runs the kernels; Meta allocates storage with a size
    and no bytes, and runs no kernel, so on meta tensors an operator is its meta rule
    and nothing else (as PyTorch's structured kernels on the Meta key). The registry
    builds every structured operator's kernel for each row of `BACKENDS`
    (`structured.backend_kernel`), with the key's own meta rule where it has one. A
    kernel reads and writes its tensors' arrays (`tensor._np`), never asks which device
    it is on, and so serves every backend that runs kernels. Adding a device is adding
    a row: its dispatch key (with the key set of its tensors in `c10/dispatch_key.py`),
    its allocator, and `runs_kernels`; a backend whose arrays are not NumPy's (CuPy for
    `cuda`) also brings its own kernels for those that call NumPy by name, registered
    per key like a Meta registration.

Note [Meta registrations]
    A declaration's meta rule checks and describes a call for every backend key: it is
    torch's structured meta function, shared by the CPU kernel and the Meta one. But
    torch's Meta key often runs something else: a Python meta function or reference
    (torch/_meta_registrations.py, torch._refs) with its own words and exception types,
    without the checks torch's CPU kernel makes (dtype refusals, values), and refusing
    what it cannot describe without data. That is the operator's Meta registration:

        @register_meta(trace)
        def _trace_python_meta(self, out=None): ...

    gives the Meta key of every variant of `trace` (functional, in place, out=) its own
    rule; the other keys keep the declared one. For a `pointwise` operator the rule
    stands for its `check` (the elementwise description is the same on every backend),
    and `pointwise(kernel_check=...)` is the shorthand for "checks torch's kernels make,
    its Meta key does not". For a `view` it is the geometry rule. Checks that read
    values are no rule's: they belong to the kernels, which alone have data, and run
    before anything is written. So no rule and no kernel asks which device it runs on:
    the dispatcher chose the key. A test (tests/aten/test_backends.py) holds aten/native
    and aten/meta to that.
"""

from __future__ import annotations

from collections import namedtuple

from ..c10.dispatch_key import DispatchKey
from .allocation import ALLOCATORS
from .dispatcher import OpOverload

META = DispatchKey.Meta


class Backend(namedtuple("Backend", "key device_type runs_kernels allocate")):
    """One backend: its dispatch key, its device type, and what it does with results.

    Attributes:
        key (DispatchKey): the key its kernels are registered under.
        device_type (str): the device type of the tensors it makes.
        runs_kernels (bool): False: results are allocated and described, never computed.
        allocate: ``(shape, stride or None, dtype) -> uninitialised tensor``.
    """

    __slots__ = ()


BACKENDS = (Backend(DispatchKey.CPU, "cpu", True, ALLOCATORS["cpu"]),
            Backend(META, "meta", False, ALLOCATORS["meta"]))
BACKEND_OF_KEY = {backend.key: backend for backend in BACKENDS}

_AS_DECORATOR = object()       # register_meta's rule when it is used as a decorator


def register_meta(operator: OpOverload, rule=_AS_DECORATOR):
    """Give `operator`'s Meta key its own meta rule (Note [Meta registrations]).

    Use as ``@register_meta(op)`` over the rule, or call ``register_meta(op, rule)``
    (a pointwise operator's rule may be None: no check). `operator` is any overload
    of the declaration; the rule takes the declared rule's arguments.
    """
    def register(rule):
        decl = operator.declaration
        form = decl.form
        if not form.rules_per_key:
            raise TypeError(f"{decl.name} is an implicit composite: it runs on every backend "
                            f"as written")
        form.meta_rules[META] = rule
        for overload in decl.overloads.values():    # the Meta kernels of every variant,
            form.register_key(overload, BACKEND_OF_KEY[META])   # made anew, fast paths dropped
        return rule
    return register if rule is _AS_DECORATOR else register(rule)


def no_meta_kernel(operator: OpOverload) -> None:
    """The Meta registration of an operator whose result's size depends on the data
    (`nonzero`, `unique`, `bincount`): torch has no meta kernel for it, and refuses."""
    name = operator.declaration.name

    def refuse_meta(*arguments):
        raise NotImplementedError(missing_meta_message(f"aten::{name}"))
    register_meta(operator, refuse_meta)


def missing_meta_message(qualified_name: str) -> str:
    """torch's words for an operator (``aten::name.overload``) without a Meta kernel."""
    return (f"{qualified_name}: attempted to run this operator with Meta tensors, but there "
            f"was no fake impl or Meta kernel registered. You may have run into this message "
            f"while using an operator with PT2 compilation APIs (torch.compile/torch.export); "
            f"in order to use this operator with those APIs you'll need to add a fake impl. "
            f"Please see the following for next steps:  "
            f"https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")
