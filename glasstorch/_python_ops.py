"""Python's operators on tensors (``a + b``, ``a += b``, ``2 * a``, ``-a``, ``a == b``...).

Each operator is a line in a table naming the aten overload it calls, so the
operator costs one dispatcher entry and nothing more. Reflected forms (``2 - a``)
call the operator with the operands swapped (``2 - a`` is torch's ``rsub(a, 2)``, which
is ``sub(2, a)``), or the operators torch uses for them (``2 / a`` is
``a.reciprocal() * 2``, as torch computes it). In-place forms
(``a += b``) call the in-place overload: the result must keep `a`'s dtype and shape,
with torch's errors otherwise.

As in torch, an operand the operator cannot take (a string, None, a list) makes the
method return NotImplemented, so Python goes on to the other operand's method and
finally raises its own TypeError; ``t == None`` is then False by identity. NumPy
scalars on the left (``numpy.float64(2) * t``) reach the reflected methods because
`Tensor.__array_priority__` tells NumPy to defer.

Each method is built on its first call (and then replaces itself): building looks its
overload up, which loads the operator's family (Note [Families load on first use] in
aten/native/__init__.py), so installing the table loads none.
"""
from __future__ import annotations

import numbers

from .aten import ops
from .c10.tensor_impl import TensorBase

_aten = ops.aten

# dunder -> (aten overload, how the operands are passed):
#   "plain":      op(self, other, *defaults)
#   "swapped":    op(other, self, *defaults)          reflected forms
#   "commuted":   op(self, other, *defaults)          reflected forms of commutative
#                 operators, which torch computes with the tensor first (`2 * a` is
#                 `a.mul(2)`: its node's edges are a's, then the number's)
#   "reciprocal": mul(reciprocal(self), other)        `2 / a`, as torch computes it
BINARY = {
    "__add__": ("add.Tensor", "plain"), "__radd__": ("add.Tensor", "commuted"),
    "__iadd__": ("add_.Tensor", "plain"),
    "__sub__": ("sub.Tensor", "plain"), "__rsub__": ("sub.Tensor", "swapped"),
    "__isub__": ("sub_.Tensor", "plain"),
    "__mul__": ("mul.Tensor", "plain"), "__rmul__": ("mul.Tensor", "commuted"),
    "__imul__": ("mul_.Tensor", "plain"),
    "__truediv__": ("div.Tensor", "plain"), "__rtruediv__": ("reciprocal", "reciprocal"),
    "__itruediv__": ("div_.Tensor", "plain"),
    "__div__": ("div.Tensor", "plain"), "__rdiv__": ("reciprocal", "reciprocal"),
    "__idiv__": ("div_.Tensor", "plain"),
    "__floordiv__": ("floor_divide", "plain"), "__rfloordiv__": ("floor_divide", "swapped"),
    "__ifloordiv__": ("floor_divide_", "plain"),
    "__mod__": ("remainder.Tensor", "plain"), "__rmod__": ("remainder.Tensor", "swapped"),
    "__imod__": ("remainder_.Tensor", "plain"),
    "__pow__": ("pow.Tensor_Tensor", "plain"), "__rpow__": ("pow.Tensor_Tensor", "swapped"),
    "__ipow__": ("pow_.Tensor_Tensor", "plain"),
    "__and__": ("bitwise_and.Tensor", "plain"), "__rand__": ("bitwise_and.Tensor", "commuted"),
    "__iand__": ("bitwise_and_.Tensor", "plain"),
    "__or__": ("bitwise_or.Tensor", "plain"), "__ror__": ("bitwise_or.Tensor", "commuted"),
    "__ior__": ("bitwise_or_.Tensor", "plain"),
    "__xor__": ("bitwise_xor.Tensor", "plain"), "__rxor__": ("bitwise_xor.Tensor", "commuted"),
    "__ixor__": ("bitwise_xor_.Tensor", "plain"),
    "__lshift__": ("bitwise_left_shift.Tensor", "plain"),
    "__rlshift__": ("bitwise_left_shift.Tensor", "swapped"),
    "__ilshift__": ("bitwise_left_shift_.Tensor", "plain"),
    "__rshift__": ("bitwise_right_shift.Tensor", "plain"),
    "__rrshift__": ("bitwise_right_shift.Tensor", "swapped"),
    "__irshift__": ("bitwise_right_shift_.Tensor", "plain"),
    "__eq__": ("eq.Tensor", "plain"), "__ne__": ("ne.Tensor", "plain"),
    "__lt__": ("lt.Tensor", "plain"), "__le__": ("le.Tensor", "plain"),
    "__gt__": ("gt.Tensor", "plain"), "__ge__": ("ge.Tensor", "plain"),
    "__matmul__": ("matmul", "plain"), "__rmatmul__": ("matmul", "swapped"),
}
# forms whose number operand torch passes to a Scalar overload, a node with one edge (the
# tensor's): dunder -> (overload, whether the number comes first); `2 - a` is
# rsub.Scalar(a, 2), `2 ** a` is pow.Scalar(2, a), `a ** 2` is pow.Tensor_Scalar(a, 2)
NUMBER_FORMS = {"__rsub__": ("rsub.Scalar", False), "__rpow__": ("pow.Scalar", True),
                "__pow__": ("pow.Tensor_Scalar", False), "__ipow__": ("pow_.Scalar", False)}
_NUMBERS = (bool, int, float, complex, numbers.Number)
UNARY = {"__neg__": "neg", "__pos__": "positive", "__abs__": "abs",
         "__invert__": "bitwise_not"}


def _overload(qualified: str):
    """The OpOverload named ``name.overload`` (``name`` alone: the default overload);
    AttributeError while it is not declared."""
    name, _, overload = qualified.partition(".")
    return getattr(getattr(_aten, name), overload or "default")


def _defaults_after_operands(overload) -> tuple:
    """The schema defaults of the arguments after the two operands (e.g. alpha=1)."""
    return tuple(a.default for a in overload._schema.arguments[2:])


# Reflected operators torch defines in C on TensorBase: called unbound with a non-tensor
# `self` (``Tensor.__radd__(2, t)``) they refuse it as any C method does. The others are
# Python methods of torch's Tensor: `__rsub__` answers NotImplemented, `__rdiv__` fails
# on ``self.reciprocal()``.
_C_REFLECTED = {"__radd__", "__rmul__", "__rand__", "__ror__", "__rxor__"}


def _refuse_foreign_self(dunder: str, self):
    """torch's outcome of a reflected operator called with a non-tensor `self`."""
    if dunder in _C_REFLECTED:
        raise TypeError(f"descriptor '{dunder}' for 'torch._C.TensorBase' objects doesn't "
                        f"apply to a '{type(self).__name__}' object")
    if dunder in ("__rtruediv__", "__rdiv__"):
        raise AttributeError(f"'{type(self).__name__}' object has no attribute 'reciprocal'")
    return NotImplemented


def _binary(dunder: str, qualified: str, order: str):
    """The method for one BINARY entry (AttributeError if its overload is undeclared).

    None is refused up front: elementwise operators read a None operand as an absent
    optional one, where torch's parser refuses it.
    """
    overload = _overload(qualified)
    if order == "reciprocal":
        reciprocal, multiply = overload.call, _overload("mul.Tensor").call

        def method(self, other):
            if not isinstance(self, TensorBase):
                return _refuse_foreign_self(dunder, self)
            if other is None:
                return NotImplemented
            try:
                return multiply(reciprocal(self), other)
            except TypeError:
                return NotImplemented
        return method
    # the general entry: where the operator's express entry, if any, hands a call on
    call = overload.general_entry
    extra = _defaults_after_operands(overload)
    # `numbers` is False only for operators that are not elementwise (matmul), which take
    # tensors alone; elementwise ones accept numbers as operands (a set, or True)
    if overload.declaration is not None and overload.declaration.numbers is False:
        swapped = order == "swapped"

        def method(self, other):       # matmul: an operand that is no tensor is not ours
            if not isinstance(other, TensorBase):
                return NotImplemented
            return call(other, self, *extra) if swapped else call(self, other, *extra)
        return method
    if order == "commuted":
        def method(self, other):
            if not isinstance(self, TensorBase):
                return _refuse_foreign_self(dunder, self)
            if other is None:
                return NotImplemented
            try:
                return call(self, other, *extra)
            except TypeError:
                return NotImplemented
    elif dunder in NUMBER_FORMS:
        qualified_form, number_first = NUMBER_FORMS[dunder]
        number_form = _overload(qualified_form)
        with_number, number_extra = number_form.call, _defaults_after_operands(number_form)
        swapped = order == "swapped"

        def method(self, other):
            if not isinstance(self, TensorBase):
                return _refuse_foreign_self(dunder, self)
            if other is None:
                return NotImplemented
            try:
                if isinstance(other, _NUMBERS):
                    if number_first:
                        return with_number(other, self, *number_extra)
                    return with_number(self, other, *number_extra)
                return call(other, self, *extra) if swapped else call(self, other, *extra)
            except TypeError:
                return NotImplemented
    elif order == "swapped":
        def method(self, other):
            if other is None:
                return NotImplemented
            try:
                return call(other, self, *extra)
            except TypeError:               # not an operand: let Python try the other side
                return NotImplemented
    else:
        def method(self, other):
            if other is None:
                return NotImplemented
            try:
                return call(self, other, *extra)
            except TypeError:
                return NotImplemented
    if order in ("plain", "commuted"):
        # the operator itself is the overload's express entry, the method its fallback
        # (Note [Express entries] in aten/fast_paths.py)
        return overload.express_entry(method) or method
    return method


def _check_invertible(self) -> None:
    """`~` names itself in its error, before bitwise_not's kernel would (meta too)."""
    if self._dtype.is_floating_point or self._dtype.is_complex:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")


_UNARY_CHECKS = {"__invert__": _check_invertible}


def _unary(dunder: str, qualified: str):
    call = _overload(qualified).call
    check = _UNARY_CHECKS.get(dunder)
    if check is None:
        def method(self):
            return call(self)
    else:
        def method(self):
            check(self)
            return call(self)
    return method


def _resolved_on_first_use(cls: type, dunder: str, build):
    """A stand-in for an operator's method: on its first call it builds the real method,
    puts it on `cls` (later calls cost nothing extra) and runs it."""
    def first_use(self, *args):
        try:
            method = build()
        except AttributeError:
            raise NotImplementedError(f"Tensor.{dunder}: its aten operator is not declared "
                                      f"(see glasstorch/_python_ops.py)") from None
        _name(method, dunder)
        setattr(cls, dunder, method)
        return method(self, *args)
    return first_use


def _name(method, dunder: str):
    method.__name__ = dunder
    method.__qualname__ = f"Tensor.{dunder}"
    return method


def _contains(self, element) -> bool:
    """``element in t``: whether any element of `t` equals `element` (a number, or a
    tensor compared after broadcasting)."""
    if not isinstance(element, (TensorBase, numbers.Number)):
        raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed "
                           f"in a {type(element)}.")
    found = element == self
    # torch asks found.any(); "not all False" is the same question, in operators we have
    return not _aten.equal.default.call(found, _aten.zeros_like.default.call(
        found, None, None, None, None, None))


def install(cls: type) -> None:
    """Put the Python operators on the Tensor class."""
    cls.__contains__ = _contains
    builders = {dunder: (lambda d=dunder, q=qualified, o=order: _binary(d, q, o))
                for dunder, (qualified, order) in BINARY.items()}
    builders.update({dunder: (lambda d=dunder, q=qualified: _unary(d, q))
                     for dunder, qualified in UNARY.items()})
    for dunder, build in builders.items():
        setattr(cls, dunder, _name(_resolved_on_first_use(cls, dunder, build), dunder))
