"""The `_foreach_*` operators (aten/native/optim/foreach.py) against torch's, and
`Optimizer.zero_grad` calling `_foreach_zero_` where torch's does."""
import pytest

import glasstorch as gt


def test_foreach_zero_zeroes_each_tensor_and_bumps_its_version():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (gt, torch):
        tensors = [lib.ones(2), lib.arange(6).reshape(2, 3).t(), lib.ones((), dtype=lib.bool)]
        lib._foreach_zero_(tensors)
        results.append([(t.tolist(), t.dtype.__repr__(), t.stride(), t._version)
                        for t in tensors])
    assert results[0] == results[1]


@pytest.mark.parametrize("container", [list, tuple])
def test_foreach_zero_returns_the_list_it_was_given(container):
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        tensors = container([lib.ones(2), lib.ones(3)])
        assert lib._foreach_zero_(tensors) is tensors
        assert lib._foreach_zero_(self=tensors) is tensors
        assert lib.ops.aten._foreach_zero_(tensors) is None


def test_foreach_zero_refuses_an_empty_list():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        with pytest.raises(RuntimeError, match="^Tensor list must have at least one tensor.$"):
            lib._foreach_zero_([])


@pytest.mark.parametrize("flags", [dict(foreach=True), dict(), dict(fused=True)], ids=str)
def test_zero_grad_zeroes_each_device_and_dtype_in_one_call_with_foreach(flags):
    params = [gt.ones(2, requires_grad=True), gt.ones(3, dtype=gt.float64, requires_grad=True),
              gt.ones(4, requires_grad=True)]
    for p in params:
        p.grad = p.detach() * 2
    grads = [p.grad for p in params]
    optimizer = gt.optim.Adam(params, lr=0.1, **flags)
    with gt.dispatch_trace() as route:
        optimizer.zero_grad(set_to_none=False)
    assert all(p.grad is g and g.tolist() == [0.0] * g.numel() for p, g in zip(params, grads))
    calls = str(route).count("aten::_foreach_zero_  ")
    singles = str(route).count("aten::zero_  ")
    assert (calls, singles) == ((2, 0) if flags else (0, 3))
