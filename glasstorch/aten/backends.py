"""Backends as data: kernels are registered per dispatch key, and what torch's Meta key
does differently is the Meta registration.

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

from .dispatcher import OpOverload
from .registry import META

_AS_DECORATOR = object()       # register_meta's rule when it is used as a decorator


def register_meta(operator: OpOverload, rule=_AS_DECORATOR):
    """Give `operator`'s Meta key its own meta rule (Note [Meta registrations]).

    Use as ``@register_meta(op)`` over the rule, or call ``register_meta(op, rule)``
    (a pointwise operator's rule may be None: no check). `operator` is any overload
    of the declaration; the rule takes the declared rule's arguments.
    """
    def register(rule):
        decl = operator.declaration
        if decl.register_backend is None:
            raise TypeError(f"{decl.name} is an implicit composite: it runs on every backend "
                            f"as written")
        decl.meta_rules[META] = rule
        decl.register_backend(META, rule)
        return rule
    return register if rule is _AS_DECORATOR else register(rule)


def no_meta_kernel(operator: OpOverload) -> None:
    """The Meta registration of an operator whose result's size depends on the data
    (`nonzero`, `unique`, `bincount`): torch has no meta kernel for it, and refuses."""
    name = operator.declaration.name

    def refuse_meta(*arguments):
        raise NotImplementedError(
            f"aten::{name}: attempted to run this operator with Meta tensors, but there was "
            f"no fake impl or Meta kernel registered. You may have run into this message "
            f"while using an operator with PT2 compilation APIs (torch.compile/torch.export); "
            f"in order to use this operator with those APIs you'll need to add a fake impl. "
            f"Please see the following for next steps:  "
            f"https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")
    register_meta(operator, refuse_meta)
