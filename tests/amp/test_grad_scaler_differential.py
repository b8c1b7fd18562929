"""torch.amp.GradScaler against torch: disabled pass-through, CUDA disabling itself in a
CPU-only build, and the CPU scaler's scale, skipped steps, growth, backoff, state_dict
and refusals."""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from tests.devices.outcome import outcome

torch = pytest.importorskip("torch")


def _model(lib):
    rng = np.random.default_rng(0)
    w = lib.tensor(rng.standard_normal((3, 2)).astype(np.float32), requires_grad=True)
    x = lib.tensor(rng.standard_normal((4, 3)).astype(np.float32))
    return w, x, lib.optim.SGD([w], lr=0.1)


def _train(lib, scaler, steps, poison=()):
    """Run `steps` iterations; a step in `poison` gets an inf gradient. Returns what the
    scaler and the weights show after each."""
    w, x, optimizer = _model(lib)
    seen = []
    for step in range(steps):
        optimizer.zero_grad()
        loss = (x @ w).pow(2).mean()
        scaled = scaler.scale(loss)
        scaled.backward()
        if step in poison:
            w.grad[0, 0] = float("inf")
        result = scaler.step(optimizer)
        scaler.update()
        seen.append((scaled.item(), scaler.get_scale(), scaler._get_growth_tracker(), result,
                     w.detach().numpy().copy()))
    return seen, scaler.state_dict()


@pytest.mark.parametrize("kwargs, poison", [
    ({}, ()), ({"growth_interval": 2}, ()), ({"growth_interval": 2}, (1,)),
    ({"init_scale": 4.0, "backoff_factor": 0.25, "growth_factor": 3.0, "growth_interval": 3},
     (0, 4)),
    ({"enabled": False}, ()),
])
def test_cpu_training_steps_as_torch(kwargs, poison):
    mine, mine_state = _train(gt, gt.amp.GradScaler("cpu", **kwargs), 6, poison)
    theirs, theirs_state = _train(torch, torch.amp.GradScaler("cpu", **kwargs), 6, poison)
    assert mine_state == theirs_state
    for m, t in zip(mine, theirs):
        assert m[1:4] == t[1:4]
        np.testing.assert_allclose(m[0], t[0], rtol=1e-5)
        np.testing.assert_allclose(m[4], t[4], rtol=1e-5)


def test_disabled_scaler_passes_everything_through():
    for lib in (gt, torch):
        scaler = lib.amp.GradScaler("cpu", enabled=False)
        loss = lib.ones(())
        w, x, optimizer = _model(lib)
        assert scaler.scale(loss) is loss
        assert scaler.unscale_(optimizer) is None and scaler.update() is None
        assert (scaler.get_scale(), scaler.is_enabled(), scaler.state_dict()) == (1.0, False, {})
        assert scaler.load_state_dict({}) is None


def test_cuda_scaler_disables_itself_with_torch_warning():
    for make in (lambda lib: lib.amp.GradScaler(), lambda lib: lib.cuda.amp.GradScaler()):
        for lib in (gt, torch):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                scaler = make(lib)
            assert scaler.is_enabled() is False
            assert "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  " \
                   "Disabling." in [str(w.message) for w in caught]


def _misuse(lib, case):
    w, x, optimizer = _model(lib)
    scaler = lib.amp.GradScaler("cpu")
    if case == "update before scale":
        scaler.update()
    if case == "load empty":
        scaler.load_state_dict({})
    scaler.scale((x @ w).sum()).backward()
    if case == "unscale twice":
        scaler.unscale_(optimizer)
        scaler.unscale_(optimizer)
    if case == "unscale after step":
        scaler.step(optimizer)
        scaler.unscale_(optimizer)
    if case == "step twice":
        scaler.step(optimizer)
        scaler.step(optimizer)
    if case == "closure":
        scaler.step(optimizer, closure=lambda: None)
    if case == "bad outputs":
        scaler.scale(3)
    if case == "scale a list":
        return [t.item() for t in scaler.scale([lib.ones(2).sum(), lib.full((2,), 3.0).sum()])]
    if case == "fp16 grads":
        half = lib.ones(2, dtype=lib.float16, requires_grad=True)
        half.grad = lib.ones(2, dtype=lib.float16)
        scaler.unscale_(lib.optim.SGD([half], lr=0.1))
    if case == "new scale":
        scaler.update(8.0)
        return scaler.get_scale()


@pytest.mark.parametrize("case", ["update before scale", "load empty", "unscale twice",
                                  "unscale after step", "step twice", "closure", "bad outputs",
                                  "scale a list", "fp16 grads", "new scale"])
def test_misuse_refused_as_torch(case):
    call = "misuse(torch, case)"
    assert outcome(call, gt, misuse=_misuse, case=case) == \
        outcome(call, torch, misuse=_misuse, case=case)


@pytest.mark.parametrize("lib", [gt, torch])
def test_a_refused_unscale_changes_nothing(lib):
    scaler = lib.amp.GradScaler("cpu", init_scale=4.0)
    full = lib.ones(2, requires_grad=True)
    half = lib.ones(2, dtype=lib.float16, requires_grad=True)
    full.grad, half.grad = lib.full((2,), 8.0), lib.ones(2, dtype=lib.float16)
    optimizer = lib.optim.SGD([full, half], lr=0.1)
    scaler.scale(lib.ones(()))
    with pytest.raises(ValueError, match="Attempting to unscale FP16 gradients."):
        scaler.unscale_(optimizer)
    assert full.grad.tolist() == [8.0, 8.0]
    half.grad = None
    scaler.unscale_(optimizer)                  # still READY: may unscale now
    assert full.grad.tolist() == [2.0, 2.0]


def _pickled(lib):
    import pickle
    scaler = lib.amp.GradScaler("cpu", init_scale=8.0, growth_interval=1)
    w, x, optimizer = _model(lib)
    scaler.scale((x @ w).sum()).backward()
    scaler.step(optimizer)
    try:
        pickle.dumps(scaler)
    except AssertionError as error:
        refused = str(error)
    scaler.update()
    restored = pickle.loads(pickle.dumps(scaler))
    return refused, restored.get_scale(), restored.state_dict(), restored._scale


def test_pickling_as_torch():
    assert _pickled(gt) == _pickled(torch)
