"""The optimizer step operators (aten/native/optim/steps.py) against the readable form
they fuse (`_single_tensor_sgd` and `_single_tensor_adam` in glasstorch/optim/, which
chain operators): over several steps, the same parameters and state, bit for bit, in the
same layout. The optimizers take the operator for float32 tensors and the readable form
otherwise; here the readable form is forced by refusing the operator. (Versions move in
both, by different counts: the operator bumps each tensor it writes once per step.)
"""
import itertools

import numpy as np
import pytest

import glasstorch as gt
import glasstorch.optim.adam
import glasstorch.optim.sgd


def _run(make_optimizer, readable: bool, monkeypatch, steps: int = 4,
         shapes: tuple = ((300, 300), (3, 4), ())):
    """Parameters of the given shapes (by default a large one cut into blocks and a 0-dim
    one), the second replaced by a transposed 3x4 one, and their state after `steps`
    steps with seeded gradients."""
    rng = np.random.default_rng(0)
    params = [gt.tensor(rng.standard_normal(shape).astype(np.float32)).requires_grad_()
              for shape in shapes]
    params[1] = gt.tensor(rng.standard_normal((4, 3)).astype(np.float32)).t().requires_grad_()
    optimizer = make_optimizer(params)
    with monkeypatch.context() as patch:
        if readable:
            for module in (glasstorch.optim.sgd, glasstorch.optim.adam):
                patch.setattr(module, "float32_step", lambda *tensors: False)
        for step in range(steps):
            for p in params:
                p.grad = gt.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32))
            optimizer.step()
    state = [sorted((k, v) for k, v in optimizer.state[p].items()) for p in params]
    return params, state


def _assert_same(one, other) -> None:
    for a, b in zip(one, other, strict=True):
        if isinstance(a, list):
            _assert_same(a, b)
        elif isinstance(a, tuple):
            assert a[0] == b[0]
            _assert_same([a[1]], [b[1]])
        else:
            assert (a.dtype, a.shape, a.stride()) == (b.dtype, b.shape, b.stride())
            assert (a._version > 0) == (b._version > 0)
            assert a.detach().numpy().tobytes() == b.detach().numpy().tobytes()


SGD_OPTIONS = [dict(momentum=m, dampening=d, nesterov=n, weight_decay=w, maximize=x)
               for m, d, n, w, x in itertools.product((0, 0.9), (0, 0.3), (False, True),
                                                      (0, 0.01), (False, True))
               if not (n and (m == 0 or d != 0))]


@pytest.mark.parametrize("options", SGD_OPTIONS, ids=str)
def test_sgd_step_operator_matches_the_readable_form(options, monkeypatch):
    make = lambda params: gt.optim.SGD(params, lr=0.05, **options)
    _assert_same(_run(make, False, monkeypatch), _run(make, True, monkeypatch))


ADAM_OPTIONS = [dict(amsgrad=a, weight_decay=w, maximize=x)
                for a, w, x in itertools.product((False, True), (0, 0.1), (False, True))]


@pytest.mark.parametrize("options", ADAM_OPTIONS, ids=str)
@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_step_operator_matches_the_readable_form(name, options, monkeypatch):
    make = lambda params: getattr(gt.optim, name)(params, lr=0.01, **options)
    _assert_same(_run(make, False, monkeypatch), _run(make, True, monkeypatch))


def test_the_step_is_an_operator_the_trace_shows():
    w = gt.ones(3, requires_grad=True)
    w.grad = gt.ones(3)
    optimizer = gt.optim.AdamW([w], lr=0.1)
    with gt.dispatch_trace() as route:
        optimizer.step()
    assert "aten::_multi_tensor_adam_" in str(route)
    assert "multi_tensor_adam_ (writes its arguments" in str(route)
    double = gt.ones(3, dtype=gt.float64, requires_grad=True)   # the readable form
    double.grad = gt.ones(3, dtype=gt.float64)
    with gt.dispatch_trace() as route:
        gt.optim.SGD([double], lr=0.1).step()
    assert "_multi_tensor_sgd_" not in str(route) and "aten::add_" in str(route)


def test_the_step_operator_refuses_what_it_does_not_compute():
    step = gt.ops.aten._multi_tensor_sgd_.default
    numbers = dict(weight_decay=0.0, momentum=0.0, lr=0.1, dampening=0.0, nesterov=False,
                   maximize=False, is_first_step=False)
    w, g = gt.ones(3), gt.ones(3, dtype=gt.float64)
    with pytest.raises(RuntimeError, match="expected float32 tensors, but got Double"):
        step([w], [g], [], **numbers)
    with pytest.raises(RuntimeError, match="of the parameter's shape"):
        step([w], [gt.ones(4)], [], **numbers)
    with pytest.raises(RuntimeError, match="expected lists of 1 tensors"):
        step([w], [gt.ones(3)], [gt.ones(3), gt.ones(3)], **numbers)
    adam = gt.ops.aten._multi_tensor_adam_.default
    with pytest.raises(RuntimeError, match="max_exp_avg_sqs with amsgrad only"):
        adam([w], [w], [w], [w], [], [gt.tensor(0.0)], lr=0.1, beta1=0.9, beta2=0.99,
             weight_decay=0.0, eps=1e-8, amsgrad=True, maximize=False,
             decoupled_weight_decay=False)
    assert w.tolist() == [1.0, 1.0, 1.0] and w._version == 0


def test_a_group_step_bumps_the_version_of_every_tensor_it_writes():
    params = [gt.ones(2, requires_grad=True), gt.ones(3, requires_grad=True)]
    for p in params:
        p.grad = gt.ones(p.shape)
    optimizer = gt.optim.SGD(params, lr=0.1, momentum=0.9)
    optimizer.step()
    before = [(p._version, optimizer.state[p]["momentum_buffer"]._version) for p in params]
    optimizer.step()
    after = [(p._version, optimizer.state[p]["momentum_buffer"]._version) for p in params]
    assert all(a == (b[0] + 1, b[1] + 1) for a, b in zip(after, before))
    assert all(p.grad._version == 0 for p in params)


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_a_large_group_split_over_threads_matches_the_readable_form(name, monkeypatch):
    """A group past the split size is shared by two threads, block by block."""
    options = dict(SGD=dict(momentum=0.9, weight_decay=0.01), Adam=dict(amsgrad=True))[name]
    make = lambda params: getattr(gt.optim, name)(params, lr=0.01, **options)
    before = gt.get_num_threads()
    gt.set_num_threads(2)
    try:
        shapes = [(300, 500), (7,), (400, 300), (40_001,)]
        fused = _run(make, False, monkeypatch, steps=2, shapes=shapes)
    finally:
        gt.set_num_threads(before)
    _assert_same(fused, _run(make, True, monkeypatch, steps=2, shapes=shapes))


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_a_parameter_listed_twice_is_updated_twice_in_order(name, monkeypatch):
    """torch's for-loop updates a repeated parameter twice, the second time from the
    first's result; the group step does too, on one thread (the group is past the split
    size)."""
    options = dict(SGD=dict(momentum=0.9, nesterov=True), Adam=dict())[name]
    results = []
    before = gt.get_num_threads()
    gt.set_num_threads(2)
    try:
        for readable in (False, True):
            w = gt.linspace(-1, 1, 150_000).requires_grad_()
            w.grad = gt.linspace(0, 2, 150_000)
            with pytest.warns(UserWarning, match="duplicate parameters"):
                optimizer = getattr(gt.optim, name)([w, w], lr=0.1, **options)
            with monkeypatch.context() as patch:
                if readable:
                    for module in (glasstorch.optim.sgd, glasstorch.optim.adam):
                        patch.setattr(module, "float32_step", lambda *tensors: False)
                for _ in range(2):
                    optimizer.step()
            results.append(w.detach().numpy().tobytes())
    finally:
        gt.set_num_threads(before)
    assert results[0] == results[1]


def test_a_large_group_is_shared_by_the_threads(monkeypatch):
    """Parameters each under the split size, together past it, still split."""
    import glasstorch.aten.native.optim.blocks as blocks
    shares = []
    monkeypatch.setattr(blocks, "parallel_for",
                        lambda begin, end, grain, body: shares.append(end) or body(begin, end))
    params = [gt.zeros(100_000, requires_grad=True) for _ in range(3)]
    for p in params:
        p.grad = gt.ones(100_000)
    gt.optim.SGD(params, lr=0.5).step()
    assert shares == [300_001] and all(p[-1].item() == -0.5 for p in params)


def test_a_step_allocates_blocks_not_copies_of_a_large_parameter():
    """The temporaries are a few blocks' worth, whatever the parameter's size."""
    import tracemalloc
    w = gt.zeros(1_000_000, requires_grad=True)
    w.grad = gt.ones(1_000_000)
    optimizer = gt.optim.Adam([w], lr=0.1, amsgrad=True, weight_decay=0.1)
    optimizer.step()
    tracemalloc.start()
    try:
        optimizer.step()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 ** 22       # per thread, a float64 block and two float32 ones: 1 MiB
