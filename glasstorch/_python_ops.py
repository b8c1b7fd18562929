"""Python's operators on tensors (``a + b``, ``a += b``, ``2 * a``, ``-a``, ``a == b``...).

Each operator is a line in a table naming the aten overload it calls, so the
operator costs one dispatcher entry and nothing more. Reflected forms (``2 - a``)
call the operator with the operands swapped, or the operator torch uses for them
(`rsub`, ...). In-place forms (``a += b``) call the in-place overload: the result must
keep `a`'s dtype and shape, with torch's errors otherwise.
"""
from __future__ import annotations

from .aten import ops

_aten = ops.aten

# dunder -> (aten overload name, how the operands are passed)
#   "plain":     op(self, other)
#   "swapped":   op(other, self)
BINARY = {
    "__add__": ("add.Tensor", "plain"), "__radd__": ("add.Tensor", "swapped"),
    "__iadd__": ("add_.Tensor", "plain"),
    "__sub__": ("sub.Tensor", "plain"), "__isub__": ("sub_.Tensor", "plain"),
    "__mul__": ("mul.Tensor", "plain"), "__rmul__": ("mul.Tensor", "swapped"),
    "__imul__": ("mul_.Tensor", "plain"),
    "__truediv__": ("div.Tensor", "plain"), "__itruediv__": ("div_.Tensor", "plain"),
}
UNARY = {"__neg__": "neg.default", "__pos__": "positive.default", "__abs__": "abs.default"}


def _overload(qualified: str):
    name, _, overload = qualified.partition(".")
    return getattr(getattr(_aten, name), overload or "default")


def _binary(qualified: str, order: str, extra: tuple):
    call = _overload(qualified).call

    if order == "swapped":
        def method(self, other):
            return call(other, self, *extra)
    else:
        def method(self, other):
            return call(self, other, *extra)
    return method


def _defaults_after_operands(qualified: str) -> tuple:
    """The schema defaults of the arguments after the two operands (e.g. alpha=1)."""
    schema = _overload(qualified)._schema
    return tuple(a.default for a in schema.arguments[2:])


def _unary(qualified: str):
    call = _overload(qualified).call

    def method(self):
        return call(self)
    return method


def install(cls: type) -> None:
    """Put the Python operators on the Tensor class."""
    for dunder, (qualified, order) in BINARY.items():
        method = _binary(qualified, order, _defaults_after_operands(qualified))
        method.__name__ = method.__qualname__ = dunder
        setattr(cls, dunder, method)
    for dunder, qualified in UNARY.items():
        method = _unary(qualified)
        method.__name__ = method.__qualname__ = dunder
        setattr(cls, dunder, method)
