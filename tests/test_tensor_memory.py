"""The memory methods of `_tensor_memory.py` (apply_, map_, resize, set_, share_memory_,
storage), against torch."""
import os
import warnings

import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _outcome(call, lib):
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = call(lib)
        value = result.tolist() if isinstance(result, lib.Tensor) else result
        messages = [str(w.message) for w in caught if "TypedStorage" not in str(w.message)]
        return "ok", value, messages
    except Exception as error:   # noqa: BLE001 - the error is the outcome
        return type(error).__name__, str(error)


def _same(call):
    assert _outcome(call, gt) == _outcome(call, torch)


CALLS = {
    "apply_": lambda lib: lib.tensor([1., 2.]).apply_(lambda v: v * 10),
    "apply_ int truncates": lambda lib: lib.tensor([1, 2]).apply_(lambda v: v + 1.7),
    "apply_ bool": lambda lib: lib.zeros(3, dtype=lib.bool).apply_(lambda a: 5),
    "apply_ complex": lambda lib: lib.zeros(2, dtype=lib.complex64).apply_(lambda a: a + 1j),
    "apply_ transposed": lambda lib: lib.arange(6.).reshape(2, 3).t().apply_(lambda a: a * 2),
    "apply_ keeps version": lambda lib: lib.zeros(2).apply_(lambda a: a)._version,
    "apply_ float of complex": lambda lib: lib.zeros(3).apply_(lambda a: a + 1j),
    "apply_ None": lambda lib: lib.zeros(3).apply_(lambda a: None),
    "apply_ int of str": lambda lib: lib.zeros(3, dtype=lib.int64).apply_(lambda a: "s"),
    "apply_ not callable": lambda lib: lib.zeros(3).apply_(3),
    "apply_ requires grad": lambda lib: lib.zeros(3, requires_grad=True).apply_(lambda v: v),
    "map_": lambda lib: lib.zeros(3).map_(lib.ones(3), lambda a, b: a + b + 1),
    "map_ broadcast": lambda lib: lib.zeros(2, 3).map_(lib.arange(3.), lambda a, b: a + b),
    "map_ other requires grad": lambda lib: lib.zeros(3).map_(
        lib.ones(3, requires_grad=True), lambda a, b: a + b),
    "map_ dtype": lambda lib: lib.zeros(3).map_(lib.ones(3, dtype=lib.int64), lambda a, b: a),
    "map_ not a tensor": lambda lib: lib.zeros(3).map_(3, lambda a, b: a + b),
    "map_ no broadcast": lambda lib: lib.zeros(3).map_(lib.ones(2, 3), lambda a, b: a + b),
    "map2_": lambda lib: lib.zeros(2, 3).map2_(lib.ones(3), lib.ones(2, 1),
                                               lambda a, b, c: a + b + c),
    "map2_ dtype x": lambda lib: lib.zeros(3).map2_(lib.ones(3, dtype=lib.int64), lib.ones(3),
                                                    lambda a, b, c: a),
    "map2_ dtype y": lambda lib: lib.zeros(3).map2_(lib.ones(3), lib.ones(3, dtype=lib.int64),
                                                    lambda a, b, c: a),
    "copy_ other": lambda lib: lib.zeros(2).copy_(other=lib.ones(2)),
    "copy_ number": lambda lib: lib.zeros(2).copy_(3),
    "copy_ non_blocking": lambda lib: lib.zeros(2, 2).copy_(lib.ones(2), True),
    "copy_ str": lambda lib: lib.zeros(2).copy_("s"),
    "copy_ nothing": lambda lib: lib.zeros(2).copy_(),
    "copy_ shape": lambda lib: lib.zeros(2).copy_(lib.ones(3)),
    "resize": lambda lib: lib.arange(6.).resize(2, 3),
    "resize one int": lambda lib: lib.arange(6.).reshape(2, 3).t().resize(6),
    "resize tuple": lambda lib: lib.arange(6.).resize((2, 3)),
    "resize Size": lambda lib: lib.arange(6.).resize(lib.Size([3, 2])),
    "resize numel": lambda lib: lib.arange(6.).reshape(2, 3).resize(7),
    "resize_as": lambda lib: lib.arange(6.).resize_as(lib.zeros(3, 2)),
    "resize grad": lambda lib: _resize_grad(lib),
}


def _resize_grad(lib):
    y = lib.arange(6.).requires_grad_()
    (lib.arange(6.).reshape(2, 3) * y.resize(2, 3)).sum().backward()
    return y.grad


@pytest.mark.parametrize("name", list(CALLS))
def test_memory_methods_as_torch(name):
    _same(CALLS[name])


def _set(lib, *args):
    x = lib.arange(6.)
    t = lib.zeros(0)
    t.set_(*[x if a == "x" else x.untyped_storage() if a == "storage" else
             x.storage() if a == "typed" else a for a in args])
    return t.tolist()[:6], t.shape, t.stride(), t.storage_offset(), t._version, t.is_set_to(x), \
        t.data_ptr() == x.data_ptr() + t.storage_offset() * 4


SETS = [(), ("x",), ("storage",), ("typed",), ("storage", 2, (2, 2), (1, 2)),
        ("x", 1, (2,)), ("storage", 0, (10,)), ("x", 1), ("x", 1, (2,), (2,), 5)]


@pytest.mark.parametrize("args", SETS)
def test_set_as_torch(args):
    _same(lambda lib: _set(lib, *args))


def test_set_refusals_as_torch():
    _same(lambda lib: lib.zeros(0, dtype=lib.int64).set_(lib.arange(3.)))
    _same(lambda lib: lib.zeros(3, requires_grad=True).set_(lib.arange(3.)))


def test_is_set_to_as_torch():
    _same(lambda lib: [a.is_set_to(b) for a, b in _pairs(lib)])


def _pairs(lib):
    x = lib.arange(6.)
    return [(x, x), (x, x[:]), (x[:3], x[:3]), (x[1:], x[:5]), (x, x.view(2, 3)),
            (x, lib.arange(6.))]


def test_share_memory_reaches_a_forked_child():
    x = gt.zeros(2)
    assert not x.is_shared()
    assert x.share_memory_() is x and x.is_shared() and x.untyped_storage().is_shared()
    pid = os.fork()
    if pid == 0:
        x.add_(5)
        os._exit(0)
    os.waitpid(pid, 0)
    assert x.tolist() == [5.0, 5.0]


def test_share_memory_answers_as_torch():
    def call(lib):
        x = lib.arange(3.)
        before = x.is_shared()
        x.share_memory_()
        return before, x.is_shared(), x.tolist(), x.storage().is_shared()
    _same(call)


def test_storage_type_as_torch():
    _same(lambda lib: [str(lib.zeros(1, dtype=d).storage_type()) for d in (
        lib.float32, lib.bfloat16, lib.complex64, lib.int64, lib.bool, lib.uint8)])


@pytest.mark.parametrize("make", [
    lambda lib: lib.from_numpy(np.zeros(2)), lambda lib: lib.as_tensor(np.zeros(2)),
    lambda lib: lib.frombuffer(bytearray(8), dtype=lib.float32),
    lambda lib: lib.from_dlpack(np.zeros(2)), lambda lib: lib.zeros(2),
    lambda lib: lib.tensor(np.zeros(2))])
@pytest.mark.parametrize("action", [
    lambda t: t.resize_(5).shape, lambda t: t.resize_(1).tolist(),
    lambda t: t.untyped_storage().resizable(),
    lambda t: t.untyped_storage().resize_(64).nbytes()])
def test_memory_owned_elsewhere_is_not_resizable_as_torch(make, action):
    _same(lambda lib: action(make(lib)))
