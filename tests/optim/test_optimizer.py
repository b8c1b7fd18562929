"""The Optimizer base class: parameter groups, errors with torch's types and messages,
repr, hooks, zero_grad, step's grad mode and closure, state_dict / load_state_dict
format and checks, pickling state. Differential where torch is installed."""
import copy
import importlib

import numpy as np
import pytest

import glasstorch as gt

try:
    import torch
except ImportError:
    torch = None

LIBS = [gt] if torch is None else [gt, torch]
needs_torch = pytest.mark.skipif(torch is None, reason="needs torch")


def leaf(lib, *shape):
    return lib.ones(*shape, requires_grad=True)


def outcome(scenario, lib):
    try:
        return "ok", scenario(lib)
    except Exception as error:       # the comparison is the point
        return "raise", type(error).__name__, str(error)


ERRORS = {
    "tensor instead of list": lambda lib: lib.optim.SGD(leaf(lib, 2)),
    "empty list": lambda lib: lib.optim.SGD([]),
    "non-leaf": lambda lib: lib.optim.SGD([leaf(lib, 2) * 2]),
    "duplicate across groups": lambda lib: (lambda p: lib.optim.SGD(
        [{"params": p}, {"params": [p]}]))(leaf(lib, 2)),
    "not a tensor": lambda lib: lib.optim.SGD([1.5]),
    "set in a group": lambda lib: lib.optim.SGD([{"params": {leaf(lib, 2)}}]),
    "group not a dict": lambda lib: lib.optim.SGD([leaf(lib, 2)]).add_param_group([1]),
    "names missing": lambda lib: lib.optim.SGD([("a", leaf(lib, 2)), leaf(lib, 2)]),
    "named and unnamed groups": lambda lib: lib.optim.SGD([leaf(lib, 2)]).add_param_group(
        {"params": [("w", leaf(lib, 2))]}),
    "sgd lr": lambda lib: lib.optim.SGD([leaf(lib, 2)], lr=-1),
    "sgd momentum": lambda lib: lib.optim.SGD([leaf(lib, 2)], momentum=-0.5),
    "sgd weight decay": lambda lib: lib.optim.SGD([leaf(lib, 2)], weight_decay=-1e-3),
    "nesterov without momentum": lambda lib: lib.optim.SGD([leaf(lib, 2)], nesterov=True),
    "nesterov with dampening": lambda lib: lib.optim.SGD([leaf(lib, 2)], momentum=0.9,
                                                         dampening=0.1, nesterov=True),
    "sgd tensor lr": lambda lib: lib.optim.SGD([leaf(lib, 2)], lr=lib.tensor([0.1, 0.2])),
    "fused differentiable": lambda lib: lib.optim.SGD([leaf(lib, 2)], fused=True,
                                                      differentiable=True),
    "fused foreach": lambda lib: lib.optim.Adam([leaf(lib, 2)], fused=True, foreach=True),
    "adam lr": lambda lib: lib.optim.Adam([leaf(lib, 2)], lr=-0.1),
    "adam eps": lambda lib: lib.optim.Adam([leaf(lib, 2)], eps=-1),
    "adam beta0": lambda lib: lib.optim.Adam([leaf(lib, 2)], betas=(1.0, 0.9)),
    "adam beta1": lambda lib: lib.optim.AdamW([leaf(lib, 2)], betas=(0.9, 1)),
    "adam betas types": lambda lib: lib.optim.Adam([leaf(lib, 2)], betas=(0.9, 0)),
    "adam weight decay": lambda lib: lib.optim.AdamW([leaf(lib, 2)], weight_decay=-1),
    "adam capturable on cpu": lambda lib: _step(lib.optim.Adam, lib, capturable=True),
    "adam fused integer": lambda lib: _step(lib.optim.Adam, lib, fused=True, dtype="int64"),
    "base step": lambda lib: lib.optim.Optimizer([leaf(lib, 2)], {}).step(),
}


def _step(cls, lib, dtype="float32", **options):
    p = lib.ones(2, dtype=getattr(lib, dtype))
    p.grad = lib.ones(2, dtype=getattr(lib, dtype))
    cls([p], **options).step()


@needs_torch
@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name):
    mine, theirs = (outcome(ERRORS[name], lib) for lib in (gt, torch))
    assert mine[0] == "raise" and mine == theirs


def test_errors_without_torch():
    with pytest.raises(TypeError, match="params argument given to the optimizer should be an "
                                        "iterable of Tensors or dicts, but got "
                                        "torch.FloatTensor"):
        gt.optim.SGD(leaf(gt, 2))
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter"):
        p = leaf(gt, 2)
        gt.optim.Adam([{"params": [p]}, {"params": p}])


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_reprs(lib):
    p, q = leaf(lib, 2), leaf(lib, 3)
    assert repr(lib.optim.Adam([p], lr=0.1)) == (
        "Adam (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)\n"
        "    capturable: False\n    decoupled_weight_decay: False\n    differentiable: False\n"
        "    eps: 1e-08\n    foreach: None\n    fused: None\n    lr: 0.1\n"
        "    maximize: False\n    weight_decay: 0\n)")
    assert repr(lib.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.5}])) == (
        "SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n"
        "    foreach: None\n    fused: None\n    lr: 0.001\n    maximize: False\n"
        "    momentum: 0\n    nesterov: False\n    weight_decay: 0\n\nParameter Group 1\n"
        "    dampening: 0\n    differentiable: False\n    foreach: None\n    fused: None\n"
        "    lr: 0.5\n    maximize: False\n    momentum: 0\n    nesterov: False\n"
        "    weight_decay: 0\n)")
    text = repr(lib.optim.AdamW([p]))
    assert text.startswith("AdamW (") and "decoupled_weight_decay: True" in text
    assert "weight_decay: 0.01" in text


@needs_torch
def test_param_groups_and_defaults_match_torch():
    groups = []
    for lib in (gt, torch):
        a, b = leaf(lib, 2), leaf(lib, 3)
        opt = lib.optim.AdamW([{"params": [a], "lr": 0.3, "betas": (0.5, 0.6)},
                               {"params": b}], lr=0.01, amsgrad=True)
        opt.add_param_group({"params": [leaf(lib, 1)], "weight_decay": 0.0})
        groups.append([{k: v for k, v in g.items() if k != "params"}
                       for g in opt.param_groups])
        assert [len(g["params"]) for g in opt.param_groups] == [1, 1, 1]
    assert groups[0] == groups[1]


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_named_parameters_and_duplicates(lib):
    a, b = leaf(lib, 2), leaf(lib, 2)
    opt = lib.optim.SGD([("a", a), ("b", b)], lr=0.1)
    assert opt.param_groups[0]["param_names"] == ["a", "b"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["a", "b"]
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate "
                                         "parameters"):
        lib.optim.SGD([a, a])


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_zero_grad(lib):
    p = leaf(lib, 3)
    opt = lib.optim.SGD([p], lr=0.1)
    p.grad = lib.ones(3)
    opt.zero_grad(set_to_none=False)
    assert p.grad is not None and p.grad.sum().item() == 0
    opt.zero_grad()
    assert p.grad is None
    q = leaf(lib, 2)
    q.grad = leaf(lib, 2) * 2                   # a gradient with a history
    lib.optim.SGD([q]).zero_grad(set_to_none=False)
    assert q.grad.grad_fn is None and not q.grad.requires_grad


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_step_runs_without_grad_and_returns_closure_loss(lib):
    p = leaf(lib, 2)
    opt = lib.optim.SGD([p], lr=0.1)
    seen = []

    def closure():
        seen.append(lib.is_grad_enabled())
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss
    with lib.no_grad():
        loss = opt.step(closure)
    assert seen == [True] and loss.item() == 2.0
    assert p.grad_fn is None and p.is_leaf
    assert p.detach().numpy().tolist() == [0.800000011920929] * 2
    assert p._version > 0


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_step_hooks(lib):
    p = leaf(lib, 2)
    p.grad = lib.ones(2)
    opt = lib.optim.SGD([p], lr=0.1)
    calls = []
    opt.register_step_pre_hook(lambda o, args, kwargs: calls.append(("pre", args, kwargs)))
    handle = opt.register_step_post_hook(lambda o, args, kwargs: calls.append(("post",)))
    base = importlib.import_module(lib.__name__ + ".optim.optimizer")
    glob = base.register_optimizer_step_pre_hook(
        lambda o, args, kwargs: calls.append(("global",)))
    opt.step()
    assert calls == [("global",), ("pre", (opt,), {}), ("post",)]   # args hold the optimizer
    handle.remove()
    glob.remove()
    calls.clear()
    opt.register_step_pre_hook(lambda o, args, kwargs: ((o, lambda: 7.0), {}))
    assert opt.step() == 7.0              # the hook replaced the (missing) closure
    assert calls == [("pre", (opt,), {})]
    bad = lib.optim.SGD([p])
    bad.register_step_pre_hook(lambda o, args, kwargs: 3)
    with pytest.raises(RuntimeError, match="must return None or a tuple of \\(new_args, "
                                           "new_kwargs\\), but got 3."):
        bad.step()


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_state_dict_hooks(lib):
    p = leaf(lib, 2)
    opt = lib.optim.SGD([p], lr=0.1)
    order = []
    opt.register_state_dict_pre_hook(lambda o: order.append("pre"))
    opt.register_state_dict_pre_hook(lambda o: order.append("first"), prepend=True)
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    state = opt.state_dict()
    assert order == ["first", "pre"] and state["extra"] == 1
    seen = []

    def pre(o, sd):
        seen.append(sorted(sd))
        sd = dict(sd)
        sd.pop("extra")
        return sd
    opt.register_load_state_dict_pre_hook(pre)
    opt.register_load_state_dict_post_hook(lambda o: seen.append("post"))
    opt.load_state_dict(state)
    assert seen == [["extra", "param_groups", "state"], "post"]


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_load_state_dict_checks_and_casts(lib):
    p = leaf(lib, 2)
    opt = lib.optim.Adam([p], lr=0.1)
    p.grad = lib.ones(2)
    opt.step()
    saved = opt.state_dict()
    with pytest.raises(ValueError, match="loaded state dict has a different number of "
                                         "parameter groups"):
        lib.optim.Adam([{"params": [p]}, {"params": [leaf(lib, 2)]}]).load_state_dict(saved)
    with pytest.raises(ValueError, match="loaded state dict contains a parameter group that "
                                         "doesn't match the size of optimizer's group"):
        lib.optim.Adam([p, leaf(lib, 2)]).load_state_dict(saved)
    q = lib.ones(2, dtype=lib.float64, requires_grad=True)
    other = lib.optim.Adam([q])
    other.load_state_dict(saved)
    state = other.state[q]
    assert state["exp_avg"].dtype == lib.float64 and state["step"].dtype == lib.float32
    assert other.param_groups[0]["lr"] == 0.1 and other.param_groups[0]["params"][0] is q


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_old_checkpoint_step_number_becomes_tensor(lib):
    p = leaf(lib, 2)
    opt = lib.optim.Adam([p])
    opt.load_state_dict({"state": {0: {"step": 3, "exp_avg": lib.zeros(2),
                                       "exp_avg_sq": lib.zeros(2)}},
                         "param_groups": [{"lr": 0.1, "betas": (0.9, 0.999), "eps": 1e-8,
                                           "weight_decay": 0, "amsgrad": False,
                                           "params": [0]}]})
    step = opt.state[p]["step"]
    assert step.dtype == lib.float32 and step.item() == 3.0
    assert opt.param_groups[0]["decoupled_weight_decay"] is False
    assert opt.param_groups[0]["maximize"] is False


@pytest.mark.parametrize("lib", LIBS, ids=lambda lib: lib.__name__)
def test_getstate_setstate(lib):
    p = leaf(lib, 2)
    opt = lib.optim.AdamW([p], lr=0.1)
    state = opt.__getstate__()
    assert sorted(state) == ["defaults", "param_groups", "state"]
    clone = copy.deepcopy(opt)
    assert clone.param_groups[0]["lr"] == 0.1 and clone._optimizer_step_pre_hooks == {}
    fresh = object.__new__(lib.optim.AdamW)
    fresh.__setstate__({"defaults": {"lr": 0.1}, "state": {},
                        "param_groups": [{"params": [p], "lr": 0.1, "betas": (0.9, 0.99),
                                          "decoupled_weight_decay": False}]})
    assert fresh.defaults["differentiable"] is False
    assert fresh.param_groups[0]["decoupled_weight_decay"] is True


def test_numpy_path_keeps_layout_and_versions():
    """A transposed (non-contiguous) float32 parameter and a large one split over
    threads: the fast path updates them in place like any other."""
    big = gt.zeros(300, 300, requires_grad=True)
    wide = gt.zeros(4, 3).t().requires_grad_()
    opt = gt.optim.SGD([big, wide], lr=0.5, momentum=0.9)
    big.grad = gt.ones(300, 300)
    wide.grad = gt.ones(3, 4)
    before = big._version
    opt.step()
    opt.step()
    assert big._version > before
    assert np.allclose(big.detach().numpy(), -1.45) and np.allclose(wide.detach().numpy(), -1.45)
    assert wide.stride() == (1, 3)


def test_known_values_without_torch():
    """Hand-computed steps (these run where torch is absent)."""
    w = gt.zeros(2, requires_grad=True)
    opt = gt.optim.SGD([w], lr=0.1, momentum=0.5)
    for _ in range(2):
        w.grad = gt.ones(2)
        opt.step()
    # buffer 1 then 1.5: w = -0.1 - 0.15
    assert np.allclose(w.detach().numpy(), -0.25)
    v = gt.zeros(3, requires_grad=True)
    adam = gt.optim.Adam([v], lr=0.1)
    v.grad = gt.tensor([1.0, -2.0, 0.0])
    adam.step()                           # the first Adam step moves by lr * sign(grad)
    assert np.allclose(v.detach().numpy(), [-0.1, 0.1, 0.0])
    sched = gt.optim.lr_scheduler.StepLR(adam, step_size=2, gamma=0.5)
    lrs = []
    for _ in range(5):
        adam.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    assert lrs == [0.1, 0.05, 0.05, 0.025, 0.025]
