"""Callers: what a generated binding calls once it has bound its arguments.

A bound signature (`binding.Signature`) may stand for a functional overload and its out=
twin, may take `requires_grad=` (a factory), may return a list that Python sees as a
tuple, may name its results (``torch.return_types``) or may have `self` after other
arguments in the schema. `make_caller` builds the one function that does the right thing
for the signature; for the plain case it is the overload's dispatcher entry itself.
"""
from __future__ import annotations

from ..c10.tensor_impl import TensorBase
from .python_arg import apply_requires_grad


def make_caller(sig):
    """The function a binding calls with its bound arguments (schema order, then out=
    or requires_grad=)."""
    special = _special_caller(sig)
    if special is not None:
        return special
    functional = sig.functional
    out_overload = sig.out_overload
    has_out = out_overload is not None
    has_rg = sig.params and sig.params[-1].name == "requires_grad"
    n_schema = len(sig.schema.arguments)
    if not has_out and not has_rg:
        return functional.call

    def call(*bound):
        values = bound[:n_schema]
        if has_out:
            out = bound[n_schema]
            if out is not None:
                outs = (out,) if isinstance(out, TensorBase) else tuple(out)
                result = out_overload.call(*values, *outs)
                return result
        result = functional.call(*values)
        if has_rg and bound[-1]:
            apply_requires_grad(result, True)
        return result
    return call


def out_last(sig) -> bool:
    """Whether the signature's caller is `make_caller`'s plain one choosing between the
    functional and the out= overload by its last parameter, ``out`` (a direct binding
    then calls the functional overload itself when no out= is given)."""
    return (sig.out_overload is not None and sig.params[-1].name == "out"
            and _special_caller(sig) is None)


def _special_caller(sig):
    """The caller of a signature that is not plain, or None: list results as a tuple,
    named results, a `self` that is not the schema's first argument."""
    if sig.schema.returns and sig.schema.returns[0].type.is_list:
        call = sig.functional.call

        def call_returning_tuple(*bound):   # the operator gives a list, Python a tuple
            return tuple(call(*bound))
        return call_returning_tuple
    named = _naming_caller(sig)
    if named is not None:
        return named
    if sig.is_method and sig.schema.arguments[0].name != "self":
        return _self_moving_caller(sig)
    return None


def _self_moving_caller(sig):
    """A method whose schema has `self` after other arguments (``polygamma(int n, Tensor
    self)``): the tensor comes first from Python and goes to its place in the schema."""
    position = [a.name for a in sig.schema.arguments].index("self")
    call = sig.functional.call

    def call_with_self_in_place(self, *bound):
        return call(*bound[:position], self, *bound[position:])
    return call_with_self_in_place


def _naming_caller(sig):
    """For an operator whose schema names its results (``-> (Tensor mantissa, Tensor
    exponent)``): a caller returning them as ``torch.return_types.<name>`` (or
    ``<name>_out`` for out=), as torch's Python API does. None when there is no such type."""
    returns = sig.schema.returns
    if len(returns) < 2 or not all(r.name for r in returns):
        return None
    from . import return_types
    plain = return_types.lookup(sig.schema.name)
    if plain is None:
        return None
    written = return_types.lookup(sig.schema.name + "_out")
    functional, out_overload = sig.functional, sig.out_overload
    n_schema = len(sig.schema.arguments)

    def call_naming_results(*bound):
        out = bound[n_schema] if out_overload is not None else None
        if out is None:
            return plain(functional.call(*bound[:n_schema]))
        return written(out_overload.call(*bound[:n_schema], *out))
    return call_naming_results
