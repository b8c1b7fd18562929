"""Adadelta, Adafactor, Adagrad, Adamax, ASGD, Muon, NAdam, RAdam, RMSprop, Rprop and
SparseAdam against torch: trajectories (float32, float64, complex), hyperparameter
refusals with torch's messages, state dicts both ways, differentiable steps, and the
refusals of capturable steps, sparse-only and 2-D-only optimizers.

torch's own configurations of these optimizers are run by the optim_db ratchet
(tests/conformance/test_optim_db.py); here are the behaviours it does not reach.
"""
import importlib

import numpy as np
import pytest

import glasstorch as gt
from optim_compare import make_params, to_glass_state, trajectories, values

torch = pytest.importorskip("torch")

OPTIONS = [
    ("Adadelta", dict(rho=0.8, weight_decay=0.1, maximize=True)),
    ("Adafactor", dict(weight_decay=0.1, d=1.5, eps=(1e-20, 1e-3))),
    ("Adagrad", dict(lr=0.1, lr_decay=0.1, initial_accumulator_value=0.2, weight_decay=0.1)),
    ("Adamax", dict(lr=0.01, betas=(0.8, 0.9), weight_decay=0.1, maximize=True)),
    ("ASGD", dict(lr=0.05, t0=5, lambd=0.01, weight_decay=0.1)),
    ("Muon", dict(lr=0.02, nesterov=False, adjust_lr_fn="match_rms_adamw")),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", dict(lr=0.01, weight_decay=0.1, betas=(0.9, 0.8))),   # rectified from step 6
    ("RMSprop", dict(centered=True, momentum=0.5, weight_decay=0.1, maximize=True)),
    ("Rprop", dict(lr=0.01, etas=(0.3, 1.5), step_sizes=(1e-3, 0.02))),
]


def assert_paths_close(mine, theirs, rtol: float, atol: float | None = None) -> None:
    for step, (ours, reference) in enumerate(zip(mine, theirs, strict=True)):
        for a, b in zip(ours, reference, strict=True):
            np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol / 10 if atol is None else atol,
                                       err_msg=f"step {step}")


@pytest.mark.parametrize("dtype, rtol", [("float32", 2e-6), ("float64", 1e-12)])
@pytest.mark.parametrize("name, options", OPTIONS, ids=[name for name, _ in OPTIONS])
def test_trajectory(name, options, dtype, rtol):
    make = lambda lib, params: getattr(lib.optim, name)(params, **options)
    matrices = (lambda params: [p for p in params if p.dim() == 2]) if name == "Muon" else None
    # Muon iterates in bfloat16, whose matrix products may round an element one bfloat16
    # ulp apart (torch's oneDNN kernels sum in another order): about lr * 2**-8 = 8e-5
    atol = 1e-4 if name == "Muon" else None
    assert_paths_close(*trajectories(make, torch, dtype=dtype, groups=matrices), rtol, atol)


@pytest.mark.parametrize("name, options", [o for o in OPTIONS
                                           if o[0] not in ("Adafactor", "Muon")],
                         ids=lambda o: o if isinstance(o, str) else "")
def test_complex_parameters_step_as_real_pairs(name, options):
    runs = []
    for lib in (gt, torch):
        rng = np.random.default_rng(0)
        param = lib.tensor(rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2)),
                           dtype=lib.complex128, requires_grad=True)
        optimizer = getattr(lib.optim, name)([param], **options)
        for _ in range(8):
            param.grad = lib.tensor(rng.standard_normal((3, 2)) + 1j, dtype=lib.complex128)
            optimizer.step()
        runs.append(values([param])[0])
    np.testing.assert_allclose(*runs, rtol=1e-12)


BAD_HYPERPARAMETERS = [
    ("Adadelta", dict(lr=-1.0)), ("Adadelta", dict(rho=1.5)), ("Adadelta", dict(eps=-1)),
    ("Adadelta", dict(weight_decay=-1)), ("Adafactor", dict(lr=-1.0)),
    ("Adafactor", dict(beta2_decay=0.5)), ("Adafactor", dict(eps=(-1.0, 1e-3))),
    ("Adafactor", dict(eps=(None, -1.0))), ("Adafactor", dict(d=0.5)),
    ("Adafactor", dict(weight_decay=-1.0)), ("Adagrad", dict(lr_decay=-1)),
    ("Adagrad", dict(initial_accumulator_value=-1)), ("Adagrad", dict(eps=-1)),
    ("Adamax", dict(betas=(0.9, 1.0))), ("Adamax", dict(eps=-1)), ("ASGD", dict(lr=-0.1)),
    ("ASGD", dict(weight_decay=-0.1)), ("Muon", dict(momentum=-1)), ("Muon", dict(lr=-1)),
    ("Muon", dict(weight_decay=-1)), ("NAdam", dict(momentum_decay=-1)),
    ("NAdam", dict(betas=(1.0, 0.9))), ("RAdam", dict(betas=(0.9, -0.1))),
    ("RAdam", dict(eps=-1)), ("RMSprop", dict(alpha=-1)), ("RMSprop", dict(momentum=-1)),
    ("RMSprop", dict(eps=-1)), ("Rprop", dict(etas=(0.5, 0.9))), ("Rprop", dict(lr=-1)),
    ("SparseAdam", dict(lr=0.0)), ("SparseAdam", dict(eps=0.0)),
    ("SparseAdam", dict(betas=(0.9, 1.0))),
]


@pytest.mark.parametrize("name, options", BAD_HYPERPARAMETERS, ids=str)
def test_bad_hyperparameters_raise_torchs_error(name, options):
    messages = []
    for lib in (gt, torch):
        with pytest.raises(ValueError) as caught:
            getattr(lib.optim, name)([lib.zeros(2, 2, requires_grad=True)], **options)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def _resume(lib, name, options, grads, state=None) -> tuple:
    """An optimizer stepped on `grads` (after loading ``(parameter values, state
    dict)``, when given): the parameter's values and the state dict after."""
    param = lib.tensor(np.ones((4, 3)), requires_grad=True)
    optimizer = getattr(lib.optim, name)([param], **options)
    if state is not None:
        with lib.no_grad():
            param.copy_(lib.tensor(state[0]))
        optimizer.load_state_dict(state[1])
    for grad in grads:
        param.grad = lib.tensor(grad, dtype=param.dtype)
        optimizer.step()
    return values([param])[0], optimizer.state_dict()


GRADS = np.random.default_rng(3).standard_normal((6, 4, 3))


@pytest.mark.parametrize("name, options", OPTIONS, ids=[name for name, _ in OPTIONS])
def test_state_dicts_cross_both_ways(name, options):
    """A torch optimizer's state dict, loaded into glasstorch's after three steps,
    continues on torch's trajectory; and the reverse."""
    torch_middle, torch_state = _resume(torch, name, options, GRADS[:3])
    glass_middle, glass_state = _resume(gt, name, options, GRADS[:3])
    assert torch_state["param_groups"] == glass_state["param_groups"]
    assert sorted(torch_state["state"][0]) == sorted(glass_state["state"][0])
    # converted first: loading keeps the dict's tensors as the state, which steps update
    from_torch, from_glass = to_glass_state(torch_state), _to_torch_state(glass_state)
    reference, _ = _resume(torch, name, options, GRADS[3:], (torch_middle, torch_state))
    ours, _ = _resume(gt, name, options, GRADS[3:], (torch_middle, from_torch))
    theirs, _ = _resume(torch, name, options, GRADS[3:], (glass_middle, from_glass))
    np.testing.assert_allclose(ours, reference, rtol=1e-6)
    np.testing.assert_allclose(theirs, reference, rtol=1e-6)


@pytest.mark.parametrize("name, options", OPTIONS, ids=[name for name, _ in OPTIONS])
def test_checkpoint_files_cross_both_ways(name, options, tmp_path):
    """A state dict saved by torch.save loads with glasstorch.load into glasstorch's
    optimizer and continues on torch's trajectory; and the reverse."""
    torch_middle, torch_state = _resume(torch, name, options, GRADS[:3])
    glass_middle, glass_state = _resume(gt, name, options, GRADS[:3])
    torch.save(torch_state, tmp_path / "torch.pt")
    gt.save(glass_state, tmp_path / "glass.pt")
    reference, _ = _resume(torch, name, options, GRADS[3:], (torch_middle, torch_state))
    ours, _ = _resume(gt, name, options, GRADS[3:],
                      (torch_middle, gt.load(tmp_path / "torch.pt")))
    theirs, _ = _resume(torch, name, options, GRADS[3:],
                        (glass_middle, torch.load(tmp_path / "glass.pt")))
    np.testing.assert_allclose(ours, reference, rtol=1e-6)
    np.testing.assert_allclose(theirs, reference, rtol=1e-6)


def _to_torch_state(value):
    if isinstance(value, gt.Tensor):
        return torch.tensor(value.numpy())
    if isinstance(value, dict):
        return {key: _to_torch_state(v) for key, v in value.items()}
    if isinstance(value, list):
        return [_to_torch_state(v) for v in value]
    return value


def test_old_checkpoints_counting_in_numbers_load():
    """Checkpoints of older versions kept steps (and NAdam's mu_product) as numbers."""
    param = gt.ones(3, requires_grad=True)
    optimizer = gt.optim.NAdam([param])
    saved = {"state": {0: {"step": 2, "mu_product": 0.5, "exp_avg": gt.zeros(3),
                           "exp_avg_sq": gt.zeros(3)}},
             "param_groups": [{k: v for k, v in optimizer.param_groups[0].items()
                               if k not in ("params", "decoupled_weight_decay")} |
                              {"params": [0]}]}
    optimizer.load_state_dict(saved)
    state = optimizer.state[param]
    assert isinstance(state["step"], gt.Tensor) and state["step"].item() == 2
    assert isinstance(state["mu_product"], gt.Tensor) and state["mu_product"].item() == 0.5
    assert optimizer.param_groups[0]["decoupled_weight_decay"] is False


@pytest.mark.filterwarnings("ignore:The .grad attribute")
@pytest.mark.parametrize("name, options", [o for o in OPTIONS
                                           if o[0] not in ("Adafactor", "Muon")],
                         ids=lambda o: o if isinstance(o, str) else "")
def test_differentiable_step_records_the_update(name, options):
    """differentiable=True: autograd goes through one step, to the tensor the parameter
    came from and to the gradient, as torch's."""
    results = []
    for lib in (gt, torch):
        leaf, grad = make_params(lib, dtype="float64", shapes=[(3, 2), (3, 2)])
        param = leaf * 1.0
        optimizer = getattr(lib.optim, name)([param], differentiable=True, **options)
        param.grad = grad
        optimizer.step()
        assert param.grad_fn is not None
        (param * param).sum().backward()
        results.append(values([param, leaf.grad, grad.grad]))
    for ours, reference in zip(*results, strict=True):
        np.testing.assert_allclose(ours, reference, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", ["Adadelta", "Adamax", "ASGD", "NAdam", "RAdam", "RMSprop",
                                  "Rprop"])
def test_capturable_steps_are_refused_on_cpu(name):
    messages = []
    for lib in (gt, torch):
        param = lib.zeros(2, requires_grad=True)
        optimizer = getattr(lib.optim, name)([param], capturable=True)
        param.grad = lib.ones(2)
        with pytest.raises(AssertionError) as caught:
            optimizer.step()
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def test_adagrad_state_is_made_at_construction_and_shares_memory():
    param = gt.zeros(2, 2, requires_grad=True)
    optimizer = gt.optim.Adagrad([param], initial_accumulator_value=0.5)
    assert optimizer.state[param]["sum"].tolist() == [[0.5, 0.5], [0.5, 0.5]]
    optimizer.share_memory()
    assert optimizer.state[param]["sum"].is_shared()


def test_adagrad_fused_runs_and_refuses_what_torch_refuses():
    make = lambda lib, params: lib.optim.Adagrad(params, lr=0.1, fused=True)
    assert_paths_close(*trajectories(make, torch), rtol=2e-6)
    for lib in (gt, torch):
        with pytest.raises(RuntimeError, match="`fused` and `foreach` cannot be `True`"):
            lib.optim.Adagrad([lib.zeros(2, requires_grad=True)], fused=True, foreach=True)
        param = lib.zeros(2, dtype=lib.complex64, requires_grad=True)
        optimizer = lib.optim.Adagrad([param], fused=True)
        param.grad = lib.ones(2, dtype=lib.complex64)
        with pytest.raises(RuntimeError, match="requires all the params to be floating"):
            optimizer.step()


def test_sparse_adam_is_built_and_refuses_dense_gradients():
    for lib in (gt, torch):
        param = lib.zeros(2, requires_grad=True)
        optimizer = lib.optim.SparseAdam([param], lr=0.01)
        assert optimizer.param_groups[0]["betas"] == (0.9, 0.999)
        param.grad = lib.ones(2)
        with pytest.raises(RuntimeError, match="^SparseAdam does not support dense gradients, "
                                               "please consider Adam instead$"):
            optimizer.step()
        with pytest.raises(ValueError, match=r"^Complex params at indices \[\[0, 1\]\]: "
                                             "SparseAdam does not support complex"):
            lib.optim.SparseAdam([param, lib.zeros(1, dtype=lib.complex64)])


@pytest.mark.parametrize("name", ["Muon", "Adafactor"])
def test_complex_parameters_refused_where_torch_refuses(name):
    for lib in (gt, torch):
        param = lib.zeros(2, 2, dtype=lib.complex64, requires_grad=True)
        optimizer = getattr(lib.optim, name)([param])
        param.grad = lib.ones(2, 2, dtype=lib.complex64)
        with pytest.raises(RuntimeError, match=f"^{name} does not support complex parameters$"):
            optimizer.step()


def test_muon_takes_matrices_only():
    for lib in (gt, torch):
        with pytest.raises(ValueError, match=r"^Muon only supports 2D parameters whereas we "
                                             r"found a parameter with size: torch.Size\(\[3\]\)"):
            lib.optim.Muon([lib.zeros(3, requires_grad=True)])


@pytest.mark.parametrize("name", ["Adadelta", "Adagrad", "Adamax", "ASGD", "NAdam", "RAdam",
                                  "RMSprop", "Rprop"])
def test_tensor_lr_steps_as_the_number(name):
    make = lambda lib, params: getattr(lib.optim, name)(params, lr=lib.tensor(0.01))
    assert_paths_close(*trajectories(make, torch, steps=5), rtol=2e-6)


FUNCTIONAL = [  # (module, function, state lists by how they are made, keyword arguments)
    ("adadelta", "adadelta", ["zeros", "zeros"], dict(lr=1.0, rho=0.9, eps=1e-6,
                                                     weight_decay=0.1, maximize=False)),
    ("adagrad", "adagrad", ["zeros"], dict(lr=0.1, weight_decay=0, lr_decay=0.1, eps=1e-10,
                                          maximize=True)),
    ("adamax", "adamax", ["zeros", "zeros"], dict(eps=1e-8, beta1=0.9, beta2=0.99, lr=0.01,
                                                 weight_decay=0.1)),
    ("asgd", "asgd", ["zeros", "one", "lr"], dict(lambd=1e-4, lr=0.01, t0=2, alpha=0.75,
                                                 weight_decay=0)),
    ("nadam", "nadam", ["zeros", "zeros", "one"], dict(beta1=0.9, beta2=0.999, lr=0.01,
                                                      weight_decay=0.1, momentum_decay=4e-3,
                                                      eps=1e-8)),
    ("radam", "radam", ["zeros", "zeros"], dict(beta1=0.9, beta2=0.8, lr=0.01, weight_decay=0,
                                               eps=1e-8)),
    ("rmsprop", "rmsprop", ["zeros", "zeros", "zeros"], dict(lr=0.01, alpha=0.9, eps=1e-8,
                                                            weight_decay=0, momentum=0.5,
                                                            centered=True)),
    ("rprop", "rprop", ["zeros", "lr"], dict(step_size_min=1e-6, step_size_max=50,
                                             etaminus=0.5, etaplus=1.2)),
]


@pytest.mark.parametrize("module, function, kinds, options", FUNCTIONAL,
                         ids=[f for _, f, _, _ in FUNCTIONAL])
def test_functional_forms_match_torchs(module, function, kinds, options):
    """torch.optim.<module>.<function>: the update over lists of tensors, in place."""
    runs = []
    for lib in (gt, torch):
        params = make_params(lib, dtype="float64", shapes=[(3, 2), (4,)])
        make = {"zeros": lib.zeros_like, "one": lambda p: lib.tensor(1.0),
                "lr": lambda p: lib.full_like(p, 0.01) if p.dim() else lib.tensor(0.01)}
        lists = [[make[kind](p.detach()) for p in params] for kind in kinds]
        if function == "asgd":                      # mus and etas are 0-dim
            lists[1:] = [[lib.tensor(1.0)] * 2, [lib.tensor(0.01)] * 2]
        steps = [lib.tensor(0.0) for _ in params]
        step = getattr(importlib.import_module(f"{lib.__name__}.optim.{module}"), function)
        rng = np.random.default_rng(5)
        with lib.no_grad():
            for _ in range(4):
                grads = [lib.tensor(rng.standard_normal(tuple(p.shape))) for p in params]
                step(params, grads, *lists, steps, **options)
        runs.append(values(params + [t for kind in lists for t in kind]))
    for ours, reference in zip(*runs, strict=True):
        np.testing.assert_allclose(ours, reference, rtol=1e-12)


def test_functional_adafactor_matches_torchs():
    runs = []
    for lib in (gt, torch):
        params = make_params(lib, dtype="float64", shapes=[(3, 2), (4,)])
        rows = [lib.zeros(3, 1, dtype=lib.float64), None]
        cols = [lib.zeros(1, 2, dtype=lib.float64), None]
        variances = [None, lib.zeros(4, dtype=lib.float64)]
        steps = [lib.tensor(0.0), lib.tensor(0.0)]
        rng = np.random.default_rng(5)
        with lib.no_grad():
            for _ in range(4):
                grads = [lib.tensor(rng.standard_normal(tuple(p.shape))) for p in params]
                lib.optim._adafactor.adafactor(params, grads, rows, cols, variances, steps,
                                               d=1.0, lr=0.01, beta2_decay=-0.8,
                                               weight_decay=0.1, eps1=None, eps2=1e-3,
                                               maximize=False)
        runs.append(values(params + rows[:1] + cols[:1] + variances[1:]))
    for ours, reference in zip(*runs, strict=True):
        np.testing.assert_allclose(ours, reference, rtol=1e-12)
