"""The schedulers of the second batch against torch: MultiplicativeLR, ConstantLR,
PolynomialLR, ChainedScheduler, CyclicLR (every mode, momentum and Adam's beta1) and
CosineAnnealingWarmRestarts (fractional epochs too): lrs compared exactly, epoch by
epoch, with their errors, warnings and state dicts."""
import warnings

import pytest

import glasstorch as gt

from test_lr_scheduler import lr_sequence, optimizer

torch = pytest.importorskip("torch")


class Scale:
    """A callable object (its fields are saved in state dicts)."""

    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x):
        return self.factor ** x


CASES = {
    "MultiplicativeLR": lambda L, o: [L.MultiplicativeLR(o, lambda e: 0.95)],
    "MultiplicativeLR per group": lambda L, o: [L.MultiplicativeLR(
        o, [lambda e: 0.9, lambda e: 1.0 + 0.01 * e])],
    "ConstantLR": lambda L, o: [L.ConstantLR(o, factor=0.3, total_iters=7)],
    "ConstantLR default": lambda L, o: [L.ConstantLR(o)],
    "PolynomialLR": lambda L, o: [L.PolynomialLR(o, total_iters=20, power=2.0)],
    "PolynomialLR default": lambda L, o: [L.PolynomialLR(o)],
    "ChainedScheduler": lambda L, o: [L.ChainedScheduler([
        L.ConstantLR(o, factor=0.1, total_iters=4), L.ExponentialLR(o, gamma=0.9)])],
    "ChainedScheduler with optimizer": lambda L, o: [L.ChainedScheduler(
        [L.PolynomialLR(o, total_iters=10), L.StepLR(o, 3, 0.5)], optimizer=o)],
    "CyclicLR triangular": lambda L, o: [L.CyclicLR(o, 0.01, 0.1, step_size_up=4)],
    "CyclicLR triangular2": lambda L, o: [L.CyclicLR(
        o, [0.01, 0.02], [0.1, 0.3], step_size_up=3, step_size_down=5, mode="triangular2")],
    "CyclicLR exp_range": lambda L, o: [L.CyclicLR(
        o, 0.001, 0.1, step_size_up=5, mode="exp_range", gamma=0.95, base_momentum=0.7,
        max_momentum=[0.95, 0.85])],
    "CyclicLR scale_fn iterations": lambda L, o: [L.CyclicLR(
        o, 0.01, 0.1, step_size_up=3, scale_fn=Scale(0.9), scale_mode="iterations",
        cycle_momentum=False)],
    "CyclicLR scale_fn cycle": lambda L, o: [L.CyclicLR(
        o, 0.01, 0.1, step_size_up=2, scale_fn=lambda c: 1 / c)],
    "CosineAnnealingWarmRestarts": lambda L, o: [L.CosineAnnealingWarmRestarts(o, T_0=6)],
    "CosineAnnealingWarmRestarts T_mult": lambda L, o: [L.CosineAnnealingWarmRestarts(
        o, T_0=3, T_mult=2, eta_min=0.001)],
}


@pytest.mark.parametrize("case", list(CASES))
def test_lr_sequence_matches_torch(case):
    assert lr_sequence(gt, CASES[case]) == lr_sequence(torch, CASES[case])


def test_cyclic_lr_cycles_adam_beta1():
    make = lambda L, o: [L.CyclicLR(o, 0.001, 0.01, step_size_up=3)]
    assert lr_sequence(gt, make, "Adam") == lr_sequence(torch, make, "Adam")


def warm_restarts_at(lib, epochs, T_mult):
    opt = optimizer(lib)
    sched = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=4, T_mult=T_mult)
    seen = []
    for epoch in epochs:
        opt.step()
        sched.step(epoch)
        seen.append((sched.get_last_lr(), sched.T_cur, sched.T_i, sched.last_epoch))
    return seen


@pytest.mark.parametrize("T_mult", [1, 2, 3])
def test_warm_restarts_fractional_epochs(T_mult):
    epochs = [0.25 * i for i in range(80)] + [3, 50.5, 2, 17]
    assert warm_restarts_at(gt, epochs, T_mult) == warm_restarts_at(torch, epochs, T_mult)


@pytest.mark.parametrize("name", ["MultiplicativeLR", "ConstantLR", "PolynomialLR"])
def test_closed_form_with_epoch_argument(name):
    kwargs = {"MultiplicativeLR": dict(lr_lambda=lambda e: 0.9),
              "ConstantLR": dict(factor=0.5, total_iters=4),
              "PolynomialLR": dict(total_iters=6, power=1.5)}[name]
    results = []
    for lib in (gt, torch):
        opt = optimizer(lib)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        seen = []
        for epoch in (2, 5, 3, 9):
            opt.step()
            with pytest.warns(UserWarning, match="The epoch parameter"):
                sched.step(epoch)
            seen.append(sched.get_last_lr())
        results.append(seen)
    assert results[0] == results[1]


@pytest.mark.parametrize("make,message,error", [
    (lambda L, o: L.MultiplicativeLR(o, [lambda e: 1]), "Expected 2 lr_lambdas, but got 1",
     ValueError),
    (lambda L, o: L.MultiplicativeLR(o, 0.5), "lr_lambda should be a function, but got float",
     TypeError),
    (lambda L, o: L.ConstantLR(o, factor=1.5),
     "Constant multiplicative factor expected to be between 0 and 1.", ValueError),
    (lambda L, o: L.ChainedScheduler([]),
     "ChainedScheduler expects at least one scheduler to be chained, but got no scheduler.",
     ValueError),
    (lambda L, o: L.ChainedScheduler([L.ReduceLROnPlateau(o)]),
     "does not support `ReduceLROnPlateau`", ValueError),
    (lambda L, o: L.ChainedScheduler([L.StepLR(o, 2), L.StepLR(optimizer(
        gt if L is gt.optim.lr_scheduler else torch), 2)]),
     "expects all schedulers to belong to the same optimizer", ValueError),
    (lambda L, o: L.CyclicLR(o, 0.1, 1.0, mode="x"), "mode is invalid and scale_fn is None",
     ValueError),
    (lambda L, o: L.CyclicLR(o, [0.1], 1.0), "base_lr must have the same length as "
     "optimizer.param_groups. base_lr has 1 values, param_groups has 2.", ValueError),
    (lambda L, o: L.CyclicLR(o.__class__.__mro__[1](o.param_groups, {"lr": 0.1}), 0.1, 1.0),
     "optimizer must support momentum or beta1 with `cycle_momentum` option enabled",
     ValueError),
    (lambda L, o: L.CyclicLR(None, 0.1, 1.0), "NoneType is not an Optimizer", TypeError),
    (lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=0),
     "Expected positive integer T_0, but got 0", ValueError),
    (lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=2.0),
     "Expected positive integer T_0, but got 2.0", ValueError),
    (lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0),
     "Expected integer T_mult >= 1, but got 0", ValueError),
    (lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=2, eta_min="0"),
     "Expected float or int eta_min, but got 0 of type <class 'str'>", ValueError),
    (lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=2).step(-1),
     "Expected non-negative epoch, but got -1", ValueError),
])
def test_errors_match_torch(make, message, error):
    for lib in (gt, torch):
        with pytest.raises(error) as info:
            make(lib.optim.lr_scheduler, optimizer(lib))
        assert type(info.value) is error and message in str(info.value)


def test_cyclic_state_dict_matches_torch_and_resumes():
    states, lrs = [], []
    for lib in (gt, torch):
        opt = optimizer(lib)
        L = lib.optim.lr_scheduler
        sched = L.CyclicLR(opt, 0.01, 0.1, step_size_up=3, scale_fn=Scale(0.8))
        for _ in range(5):
            opt.step()
            sched.step()
        state = sched.state_dict()
        states.append((sorted(state), dict(state["_scale_fn_custom"])))
        state["_scale_fn_custom"]["factor"] = 0.5
        fresh = L.CyclicLR(opt, 0.01, 0.1, step_size_up=3, scale_fn=Scale(0.8))
        fresh.load_state_dict(state)
        seen = []
        for _ in range(6):
            opt.step()
            fresh.step()
            seen.append(fresh.get_last_lr())
        lrs.append((fresh._scale_fn_custom.factor, seen))
    assert states[0] == states[1] and states[0][1] == {"factor": 0.8}
    assert lrs[0] == lrs[1] and lrs[0][0] == 0.5


def test_chained_state_dict_holds_each_scheduler():
    for lib in (gt, torch):
        opt = optimizer(lib)
        L = lib.optim.lr_scheduler
        chained = L.ChainedScheduler([L.ConstantLR(opt), L.ExponentialLR(opt, 0.9)])
        for _ in range(3):
            opt.step()
            chained.step()
        state = chained.state_dict()
        assert len(state["_schedulers"]) == 2 and "optimizer" not in state
        again = L.ChainedScheduler([L.ConstantLR(opt), L.ExponentialLR(opt, 0.9)])
        again.load_state_dict(state)
        assert again._schedulers[1].last_epoch == 3


def test_warm_restarts_step_warns_nothing():
    opt = optimizer(gt)
    sched = gt.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sched.step()
        sched.step(1.5)


def test_all_names_match_torch():
    assert gt.optim.lr_scheduler.__all__ == torch.optim.lr_scheduler.__all__
    for name in gt.optim.lr_scheduler.__all__:
        assert getattr(gt.optim.lr_scheduler, name).__module__ == "glasstorch.optim.lr_scheduler"


def tensor_lr_run(lib, make):
    """A tensor lr (filled in place by each step) under the scheduler `make` builds."""
    param = lib.zeros(2, requires_grad=True)
    opt = lib.optim.SGD([param], lr=lib.tensor(0.1), momentum=0.9)
    lr = opt.param_groups[0]["lr"]
    sched = make(lib.optim.lr_scheduler, opt)
    seen = []
    for _ in range(12):
        opt.step()
        sched.step()
        assert opt.param_groups[0]["lr"] is lr
        seen.append([float(v) for v in sched.get_last_lr()] + [float(lr)])
    return seen


@pytest.mark.parametrize("case", ["MultiplicativeLR", "ConstantLR", "PolynomialLR",
                                  "ChainedScheduler", "CyclicLR triangular",
                                  "CosineAnnealingWarmRestarts T_mult"])
def test_tensor_lr_filled_in_place(case):
    make = lambda L, o: CASES[case](L, o)[0]
    assert tensor_lr_run(gt, make) == tensor_lr_run(torch, make)
