"""SGD, Adam and AdamW against torch: parameter trajectories over 20 steps for the
options that change the arithmetic, state dicts in torch's format, checkpoints crossing
between the libraries.

SGD agrees bit for bit. Adam agrees to about one float32 rounding: its denominator takes
a square root, and torch 2.13's CPU float32 sqrt (MKL's) is not correctly rounded (one
element in six differs by one ulp from the exact square root NumPy and glasstorch give).
"""
import itertools

import numpy as np
import pytest

import glasstorch as gt
from optim_compare import make_params, set_grads, to_glass_state, trajectories, values

try:
    import torch
except ImportError:         # the glasstorch-only tests below still run
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="differential: needs torch")


def assert_same_path(mine, theirs, exact: bool) -> None:
    for step, (ours, reference) in enumerate(zip(mine, theirs)):
        for a, b in zip(ours, reference, strict=True):
            if exact:
                assert np.array_equal(a, b), f"step {step}: max diff {np.abs(a - b).max()}"
            else:
                np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-7, err_msg=f"step {step}")


SGD_OPTIONS = [dict(momentum=m, dampening=d, nesterov=n, weight_decay=w, maximize=x)
               for m, d, n, w, x in itertools.product((0, 0.9), (0, 0.3), (False, True),
                                                      (0, 0.01), (False, True))
               if not (n and (m == 0 or d != 0))]


@needs_torch
@pytest.mark.parametrize("options", SGD_OPTIONS, ids=str)
def test_sgd_trajectory_bitwise(options):
    mine, theirs = trajectories(lambda lib, p: lib.optim.SGD(p, lr=0.05, **options), torch)
    assert_same_path(mine, theirs, exact=True)


@needs_torch
@pytest.mark.parametrize("dtype", ["float64", "float16"])
def test_sgd_other_dtypes(dtype):
    make = lambda lib, p: lib.optim.SGD(p, lr=0.05, momentum=0.9, weight_decay=0.01)
    mine, theirs = trajectories(make, torch, steps=5, dtype=dtype)
    tolerance = 1e-2 if dtype == "float16" else 1e-12   # float16: within 2 ulp
    for ours, reference in zip(mine, theirs, strict=True):
        for a, b in zip(ours, reference, strict=True):
            np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=tolerance)


ADAM_OPTIONS = [dict(amsgrad=a, weight_decay=w, maximize=x)
                for a, w, x in itertools.product((False, True), (0, 0.1), (False, True))]


@needs_torch
@pytest.mark.parametrize("options", ADAM_OPTIONS, ids=str)
@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_trajectory(name, options):
    make = lambda lib, p: getattr(lib.optim, name)(p, lr=0.01, **options)
    mine, theirs = trajectories(make, torch)
    assert_same_path(mine, theirs, exact=False)


@needs_torch
def test_adam_decoupled_weight_decay_is_adamw():
    make = lambda lib, p: lib.optim.Adam(p, lr=0.01, weight_decay=0.1, betas=(0.8, 0.99),
                                         eps=1e-6, decoupled_weight_decay=True)
    mine, theirs = trajectories(make, torch)
    assert_same_path(mine, theirs, exact=False)


@needs_torch
@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_float64(name):
    make = lambda lib, p: getattr(lib.optim, name)(p, lr=0.01, weight_decay=0.1)
    mine, theirs = trajectories(make, torch, steps=10, dtype="float64")
    for ours, reference in zip(mine, theirs, strict=True):
        for a, b in zip(ours, reference, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12)


@needs_torch
@pytest.mark.filterwarnings("ignore:The .grad attribute")
@pytest.mark.parametrize("name,options", [("SGD", dict(momentum=0.9, weight_decay=0.1)),
                                          ("Adam", dict(amsgrad=True)),
                                          ("AdamW", dict(weight_decay=0.1))])
def test_differentiable_step(name, options):
    """differentiable=True: the update is recorded (torch's tensor-step arithmetic for
    Adam), so that autograd reaches the leaf the optimized tensor came from."""
    results = []
    for lib in (gt, torch):
        leaf = make_params(lib, shapes=[(6,)])[0]
        x = leaf * 1.0                      # a non-leaf: allowed with differentiable=True
        opt = getattr(lib.optim, name)([x], lr=0.1, differentiable=True, **options)
        for k in range(3):
            x.grad = lib.linspace(-1, 1, 6, dtype=lib.float32) * (k + 1)
            opt.step()
        assert x.grad_fn is not None
        (x * x).sum().backward()
        results.append((values([x])[0], values([leaf.grad])[0]))
    for ours, reference in zip(*results, strict=True):
        np.testing.assert_allclose(ours, reference, rtol=2e-6, atol=1e-7)


@needs_torch
def test_param_groups_with_different_lrs():
    def groups(params):
        return [{"params": params[:2], "lr": 0.1}, {"params": params[2:]}]
    for name, exact in (("SGD", True), ("Adam", False), ("AdamW", False)):
        make = lambda lib, g: getattr(lib.optim, name)(g, lr=0.01, weight_decay=0.01)
        mine, theirs = trajectories(make, torch, groups=groups)
        assert_same_path(mine, theirs, exact=exact)


@needs_torch
def test_skips_parameters_without_grad():
    for lib in (gt, torch):
        a, b = make_params(lib, shapes=[(3,), (3,)])
        before = values([b])[0]
        opt = lib.optim.Adam([a, b], lr=0.1)
        a.grad = lib.ones(3)
        opt.step()
        assert np.array_equal(values([b])[0], before)
        assert len(opt.state) == 1


@needs_torch
@pytest.mark.parametrize("name,options", [("SGD", dict(momentum=0.9)), ("Adam", {}),
                                          ("AdamW", dict(amsgrad=True))])
def test_state_dict_matches_torch(name, options):
    dicts = []
    for lib in (gt, torch):
        params = make_params(lib)
        opt = getattr(lib.optim, name)(params, lr=0.01, **options)
        for seed in range(3):
            set_grads(lib, params, [np.full(tuple(p.shape), 0.1 * seed + 0.5) for p in params])
            opt.step()
        dicts.append(opt.state_dict())
    mine, theirs = dicts
    assert mine["param_groups"] == theirs["param_groups"]
    assert list(mine["state"]) == list(theirs["state"])
    for key, state in theirs["state"].items():
        assert list(mine["state"][key]) == list(state)
        for field, value in state.items():
            ours = mine["state"][key][field]
            assert str(ours.dtype) == str(value.dtype) and tuple(ours.shape) == tuple(value.shape)
            np.testing.assert_allclose(ours.numpy(), value.numpy(), rtol=1e-6)
            if field == "step":
                assert ours.dim() == 0 and ours.item() == 3.0


@needs_torch
@pytest.mark.parametrize("name,options", [("SGD", dict(momentum=0.9, nesterov=True)),
                                          ("Adam", dict(amsgrad=True)),
                                          ("AdamW", dict(weight_decay=0.1))])
def test_load_torch_checkpoint_and_continue(name, options):
    """Five torch steps, torch's state dict loaded into glasstorch, then ten more steps
    in each library: the same trajectory."""
    make = lambda lib, p: getattr(lib.optim, name)(p, lr=0.01, **options)
    params_t = make_params(torch)
    opt_t = make(torch, params_t)
    rng = np.random.default_rng(5)
    for _ in range(5):
        set_grads(torch, params_t, [rng.standard_normal(tuple(p.shape)) for p in params_t])
        opt_t.step()
    params_g = [gt.tensor(p.detach().numpy(), requires_grad=True) for p in params_t]
    opt_g = make(gt, params_g)
    opt_g.load_state_dict(to_glass_state(opt_t.state_dict()))
    assert opt_g.state[params_g[0]]["step" if name != "SGD" else "momentum_buffer"] is not None
    for _ in range(10):
        grads = [rng.standard_normal(tuple(p.shape)) for p in params_t]
        for lib, params, opt in ((torch, params_t, opt_t), (gt, params_g, opt_g)):
            set_grads(lib, params, grads)
            opt.step()
        assert_same_path([values(params_g)], [values(params_t)], exact=name == "SGD")


def test_state_dict_round_trip_in_glasstorch():
    params = make_params(gt)
    opt = gt.optim.AdamW(params, lr=0.01)
    set_grads(gt, params, [np.ones(tuple(p.shape)) for p in params])
    opt.step()
    saved = opt.state_dict()
    other = gt.optim.AdamW(params, lr=0.5)
    other.load_state_dict(saved)
    assert other.param_groups[0]["lr"] == 0.01
    assert other.param_groups[0]["params"] is not saved["param_groups"][0]["params"]
    assert other.state[params[0]]["step"].item() == 1.0


@needs_torch
def test_closure_with_real_loss():
    """A closure computing a loss through autograd: step returns the loss; the
    trajectories agree (the gradients are the libraries' own, so to rounding)."""
    losses = {}
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((8, 5)), rng.standard_normal((8, 2))
    for lib in (gt, torch):
        w = lib.tensor(np.linspace(-1, 1, 10).reshape(5, 2), dtype=lib.float32,
                       requires_grad=True)
        opt = lib.optim.AdamW([w], lr=0.05)
        xs, ys = lib.tensor(x, dtype=lib.float32), lib.tensor(y, dtype=lib.float32)

        def closure():
            opt.zero_grad()
            loss = ((xs @ w - ys) ** 2).mean()
            loss.backward()
            return loss
        losses[lib.__name__] = [opt.step(closure).item() for _ in range(20)]
    np.testing.assert_allclose(losses["glasstorch"], losses["torch"], rtol=1e-5)


@needs_torch
@pytest.mark.parametrize("name,options", [("SGD", dict(momentum=0.9, weight_decay=0.1)),
                                          ("Adam", dict(amsgrad=True, weight_decay=0.1)),
                                          ("AdamW", {})])
def test_complex_parameters(name, options):
    """Complex parameters: Adam works on their (real, imaginary) pairs, as torch."""
    results = []
    for lib in (gt, torch):
        p = lib.tensor([1 + 1j, -2 + 0.5j, 0.25j], requires_grad=True)
        opt = getattr(lib.optim, name)([p], lr=0.1, **options)
        for k in range(5):
            p.grad = lib.tensor([1 + 2j, -1j, 0.5 + k * 1j])
            opt.step()
        results.append(p.detach().numpy().copy())
    np.testing.assert_allclose(results[0], results[1], rtol=2e-6)


@needs_torch
def test_functional_forms_take_torchs_arguments():
    import importlib
    import inspect
    for name in ("sgd", "adam", "adamw"):
        ours, theirs = (inspect.signature(getattr(importlib.import_module(
            f"{lib}.optim.{name}"), name)) for lib in ("glasstorch", "torch"))
        mine = [p for p in ours.parameters if p != "differentiable" or name != "sgd"]
        assert mine == list(theirs.parameters)


@needs_torch
def test_tensor_hyperparameters_and_scheduler_fill():
    """A tensor lr (filled in place by a scheduler) and tensor betas, as torch."""
    def run(lib):
        p = lib.ones(3, requires_grad=True)
        opt = lib.optim.SGD([p], lr=lib.tensor(0.1), momentum=0.9)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        seen = []
        for k in range(5):
            p.grad = lib.full((3,), float(k + 1))
            opt.step()
            sched.step()
            seen.append((values([p])[0].tolist(), float(opt.param_groups[0]["lr"])))
        adam = lib.optim.Adam([p], lr=lib.tensor(0.01), betas=(lib.tensor(0.9), lib.tensor(0.99)))
        for k in range(3):
            p.grad = lib.full((3,), float(k + 1))
            adam.step()
        return seen, values([p])[0].tolist()
    assert run(gt) == run(torch)
