"""Express entries (Note [Express entries] in aten/fast_paths.py): an operator's `call`
that is its CPU fast path itself. Each serves exactly the plain CPU calls the general
entry would send to that fast path, gives the general entry's result bit for bit, and
hands every other call on; a kernel registered later takes effect even through an
express entry a binding kept."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.dispatcher import OpOverload, OpOverloadPacket
from glasstorch.aten.fast_paths import FastPath
from glasstorch.aten.pointwise_fast import fast_path
from glasstorch.aten.meta.pointwise import Promotion
from glasstorch.aten.schema import parse_schema
from glasstorch.c10.dispatch_key import DispatchKey
from glasstorch.utils._python_dispatch import TorchDispatchMode

aten = gt.ops.aten


def _identical(a, b) -> bool:
    return (a.dtype, a.shape, a.stride()) == (b.dtype, b.shape, b.stride()) and \
        np.ascontiguousarray(a._np).tobytes() == np.ascontiguousarray(b._np).tobytes()


@pytest.mark.parametrize("op, args", [
    (aten.add.Tensor, (gt.rand(3, 4), gt.rand(3, 4), 1)),
    (aten.add.Tensor, (gt.rand(3, 4), 2.5, 1)),
    (aten.add.Tensor, (gt.arange(6), gt.arange(6), 3)),            # alpha: the kernel
    (aten.mul.Tensor, (gt.rand(5).double(), gt.rand(5).double())),
    (aten.exp.default, (gt.rand(2, 3),)),
    (aten.relu.default, (gt.randn(7),)),                             # no ufunc: the kernel
    (aten.eq.Tensor, (gt.tensor([1., float("nan")]), gt.tensor([1., float("nan")]))),
    (aten.sum.default, (gt.rand(4, 5), None)),
])
def test_express_entry_gives_the_general_kernels_bits(op, args):
    assert op.call is not op.general_entry                       # it has one
    result = op.call(*args)
    with gt.dispatch_trace(fast_paths=False):                    # the general kernels
        expected = op.general_entry(*args)
    assert _identical(result, expected)
    assert result.grad_fn is None


def test_python_operators_are_express_entries_with_their_methods_behind():
    x = gt.rand(3)
    assert type(x).__add__ is not None and _identical(x + x, aten.add.Tensor(x, x))
    assert x.__add__(None) is NotImplemented                  # the method's answers
    with pytest.raises(TypeError, match="unsupported operand"):
        x + "text"
    assert (x == None) is False                                  # noqa: E711
    y = x.clone()
    y += 1
    assert y._version == 1 and _identical(y, x + 1)


def test_calls_it_does_not_serve_reach_the_general_entry():
    leaf = gt.rand(3, requires_grad=True)
    assert (leaf * 2).grad_fn.name() == "MulBackward0"             # recorded
    with gt.no_grad():                                             # not recorded: served
        assert (leaf * 2).grad_fn is None
    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(func.name)
            return func(*args, **(kwargs or {}))
    with Seen():
        gt.rand(2) + gt.rand(2)
    assert "add.Tensor" in seen
    with gt.dispatch_trace() as route:
        gt.rand(2).exp()
    assert "exp" in str(route)
    half = gt.ones(2, dtype=gt.float16)                            # not its case
    assert (half + half).tolist() == [2.0, 2.0]


def _private_operator():
    """A fresh elementwise overload with a CPU kernel and an express-capable fast path."""
    packet = OpOverloadPacket("express_test_add", namespace="express_test")
    op = OpOverload(parse_schema("express_test_add(Tensor self, Tensor other) -> Tensor"),
                    packet)

    def kernel(self, other, *, out):
        np.add(self, other, out=out)
    make = lambda **kw: fast_path(kernel, (0, 1), Promotion.DEFAULT, None, **kw)  # noqa: E731
    op.register(DispatchKey.CPU, lambda op, keys, args: gt.full((2,), -1.0))
    op.register_fast_path(DispatchKey.CPU, FastPath(
        make(), "test fast path", __name__,
        express=lambda general, live: make(general=general, live=live)))
    return op


def test_a_kernel_registered_later_stops_an_express_entry_a_binding_kept():
    op = _private_operator()
    kept = op.call
    assert kept is not op.general_entry
    x = gt.ones(2)
    assert kept(x, x).tolist() == [2.0, 2.0]                      # the fast path
    op.register(DispatchKey.CPU, lambda op, keys, args: gt.full((2,), 7.0))
    assert op.call is op.general_entry                            # no fast path left
    assert kept(x, x).tolist() == [7.0, 7.0]                      # the new kernel


def test_the_plain_layer_meets_every_check_it_skips():
    """The plain layer (`_plain` in pointwise_fast.py) skips add's alpha check only for
    the default itself: alpha=True, or a float alpha on integers, still raise torch's
    errors; an operand that requires grad is still recorded."""
    a, b = gt.rand(4), gt.rand(4)
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results"):
        gt.add(a, b, alpha=True)
    with pytest.raises(RuntimeError, match="argument alpha must not be a floating point"):
        gt.add(gt.ones(3, dtype=gt.int64), gt.ones(3, dtype=gt.int64), alpha=1.0)
    assert gt.add(a, b, alpha=1).tolist() == (a + b).tolist()
    leaf = gt.rand(4, requires_grad=True)
    assert (a + leaf).grad_fn is not None and (leaf * a).grad_fn is not None
    assert gt.exp(gt.ones(2, dtype=gt.int64)).dtype is gt.float32
