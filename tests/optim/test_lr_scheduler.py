"""Learning-rate schedulers against torch: the lr of every group after each of 30+
epochs, compared exactly (the same float formulas in the same order), alone, chained
(two schedulers on one optimizer), in SequentialLR, and ReduceLROnPlateau on a scripted
metric; warnings, errors and state dicts."""
import warnings

import pytest

import glasstorch as gt

try:
    import torch
except ImportError:         # the glasstorch-only tests below still run
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="differential: needs torch")

EPOCHS = 35


def optimizer(lib, name="SGD", groups=2):
    params = [lib.zeros(2, requires_grad=True) for _ in range(groups)]
    group_list = [{"params": [p], "lr": 0.1 * (i + 1)} for i, p in enumerate(params)]
    if name == "SGD":
        return lib.optim.SGD(group_list, lr=0.1, momentum=0.9)
    return getattr(lib.optim, name)(group_list, lr=0.1)


def lr_sequence(lib, make_schedulers, name="SGD", epochs=EPOCHS):
    """Each epoch: optimizer step, then every scheduler's step; the groups' lrs (and
    momentum / betas, which OneCycleLR moves) after each."""
    opt = optimizer(lib, name)
    schedulers = make_schedulers(lib.optim.lr_scheduler, opt)
    seen = [[(g["lr"], g.get("momentum"), g.get("betas")) for g in opt.param_groups]]
    for _ in range(epochs):
        opt.step()
        for scheduler in schedulers:
            scheduler.step()
        seen.append([(g["lr"], g.get("momentum"), g.get("betas")) for g in opt.param_groups])
    return seen, [s.get_last_lr() for s in schedulers]


CASES = {
    "LambdaLR": lambda L, o: [L.LambdaLR(o, lambda e: 0.95 ** e)],
    "LambdaLR per group": lambda L, o: [L.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: e])],
    "StepLR": lambda L, o: [L.StepLR(o, step_size=7, gamma=0.3)],
    "MultiStepLR": lambda L, o: [L.MultiStepLR(o, milestones=[3, 10, 10, 22], gamma=0.5)],
    "ExponentialLR": lambda L, o: [L.ExponentialLR(o, gamma=0.93)],
    "CosineAnnealingLR": lambda L, o: [L.CosineAnnealingLR(o, T_max=10, eta_min=0.001)],
    "CosineAnnealingLR no min": lambda L, o: [L.CosineAnnealingLR(o, T_max=7)],
    "LinearLR": lambda L, o: [L.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=12)],
    "LinearLR default": lambda L, o: [L.LinearLR(o)],
    "OneCycleLR cos": lambda L, o: [L.OneCycleLR(o, max_lr=1.0, total_steps=EPOCHS)],
    "OneCycleLR linear three phase": lambda L, o: [L.OneCycleLR(
        o, max_lr=[0.5, 2.0], total_steps=EPOCHS + 3, anneal_strategy="linear",
        three_phase=True, pct_start=0.25, div_factor=10.0, final_div_factor=100.0)],
    "OneCycleLR epochs, no momentum": lambda L, o: [L.OneCycleLR(
        o, max_lr=0.3, epochs=5, steps_per_epoch=7, cycle_momentum=False)],
    "chained Exponential + Step": lambda L, o: [L.ExponentialLR(o, gamma=0.9),
                                                L.StepLR(o, step_size=5, gamma=0.5)],
    "chained Linear + Cosine": lambda L, o: [L.LinearLR(o, start_factor=0.2, total_iters=4),
                                             L.CosineAnnealingLR(o, T_max=12)],
    "SequentialLR": lambda L, o: [L.SequentialLR(o, schedulers=[
        L.LinearLR(o, start_factor=0.1, total_iters=5), L.CosineAnnealingLR(o, T_max=20)],
        milestones=[5])],
    "SequentialLR three": lambda L, o: [L.SequentialLR(o, schedulers=[
        L.ExponentialLR(o, gamma=0.8), L.StepLR(o, step_size=4, gamma=0.5),
        L.MultiStepLR(o, milestones=[25, 30])], milestones=[6, 15])],
}


@needs_torch
@pytest.mark.parametrize("case", list(CASES))
def test_lr_sequence_matches_torch(case):
    mine = lr_sequence(gt, CASES[case])
    theirs = lr_sequence(torch, CASES[case])
    assert mine == theirs          # exact floats, epoch by epoch


@needs_torch
def test_one_cycle_cycles_adam_beta1():
    make = lambda L, o: [L.OneCycleLR(o, max_lr=0.01, total_steps=EPOCHS,
                                      base_momentum=0.8, max_momentum=0.9)]
    assert lr_sequence(gt, make, "AdamW") == lr_sequence(torch, make, "AdamW")


@needs_torch
def test_one_cycle_past_the_end_raises():
    for lib in (gt, torch):
        opt = optimizer(lib)
        sched = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=3)
        for _ in range(3):
            opt.step()
            sched.step()
        with pytest.raises(ValueError, match="Tried to step 4 times. The specified number "
                                             "of total steps is 3"):
            sched.step()


@needs_torch
def test_closed_form_with_epoch_argument():
    results = []
    for lib in (gt, torch):
        opt = optimizer(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
        opt.step()
        with pytest.warns(UserWarning, match="The epoch parameter"):
            sched.step(7)
        results.append(sched.get_last_lr())
    assert results[0] == results[1] == [0.025, 0.05]


def plateau_run(lib, **options):
    opt = optimizer(lib)
    sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **options)
    metrics = [1.0, 0.9, 0.95, 0.95, 0.9, 0.899995, 0.8, 0.85, 0.85, 0.85, 0.85, 0.85,
               0.85, 0.7, 0.7, 0.71, 0.72, 0.73, 0.74, 0.75, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
               0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
    if options.get("mode") == "max":
        metrics = [-m for m in metrics]
    seen = []
    for metric in metrics:
        opt.step()
        sched.step(lib.tensor(metric) if metric == 0.7 else metric)
        seen.append((sched.get_last_lr(), sched.num_bad_epochs, sched.cooldown_counter,
                     sched.best))
    return seen


@needs_torch
@pytest.mark.parametrize("options", [
    dict(patience=2), dict(mode="max", patience=1, factor=0.5),
    dict(patience=1, threshold=0.1, threshold_mode="abs", cooldown=2),
    dict(mode="max", threshold_mode="abs", threshold=0.01, patience=0),
    dict(patience=0, factor=0.5, min_lr=[0.02, 0.1]), dict(patience=0, min_lr=0.0999, eps=0),
    dict(patience=0, factor=0.9999, eps=0.01)], ids=str)
def test_reduce_lr_on_plateau(options):
    assert plateau_run(gt, **options) == plateau_run(torch, **options)


@needs_torch
def test_warnings_on_step_order():
    for lib in (gt, torch):
        opt = optimizer(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=2)
        with pytest.warns(UserWarning, match="Detected call of `lr_scheduler.step\\(\\)` "
                                             "before `optimizer.step\\(\\)`"):
            sched.step()
        opt = optimizer(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=2)
        opt.step = lambda: None
        with pytest.warns(UserWarning, match="Seems like `optimizer.step\\(\\)` has been "
                                             "overridden"):
            sched.step()
        opt = optimizer(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=2)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            opt.step()
            sched.step()
        with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
            sched.get_lr()


@needs_torch
@pytest.mark.parametrize("make,message,error", [
    (lambda L, o: L.StepLR(None, 3), "NoneType is not an Optimizer", TypeError),
    (lambda L, o: L.StepLR(o, 3, last_epoch=4), "param 'initial_lr' is not specified in "
     "param_groups[0] when resuming", KeyError),
    (lambda L, o: L.LambdaLR(o, [lambda e: 1]), "Expected 2 lr_lambdas, but got 1", ValueError),
    (lambda L, o: L.LinearLR(o, start_factor=0), "Starting multiplicative factor expected",
     ValueError),
    (lambda L, o: L.LinearLR(o, end_factor=2), "Ending multiplicative factor expected",
     ValueError),
    (lambda L, o: L.OneCycleLR(o, max_lr=1.0), "You must define either total_steps OR",
     ValueError),
    (lambda L, o: L.OneCycleLR(o, max_lr=1.0, total_steps=0),
     "Expected positive integer total_steps, but got 0", ValueError),
    (lambda L, o: L.OneCycleLR(o, max_lr=1.0, total_steps=5, pct_start=1),
     "Expected float between 0 and 1 pct_start, but got 1", ValueError),
    (lambda L, o: L.OneCycleLR(o, max_lr=[1.0], total_steps=5),
     "max_lr must have the same length as optimizer.param_groups. max_lr has 1 values, "
     "param_groups has 2.", ValueError),
    (lambda L, o: L.OneCycleLR(o, max_lr=1.0, total_steps=5, anneal_strategy="x"),
     "anneal_strategy must be one of 'cos' or 'linear', instead got x", ValueError),
    (lambda L, o: L.SequentialLR(o, [], []), "SequentialLR expects at least one scheduler",
     ValueError),
    (lambda L, o: L.SequentialLR(o, [L.StepLR(o, 2)], [3]), "Sequential Schedulers expects "
     "number of schedulers provided to be one more", ValueError),
    (lambda L, o: L.SequentialLR(o, [L.ReduceLROnPlateau(o)], []),
     "does not support `ReduceLROnPlateau`", ValueError),
    (lambda L, o: L.ReduceLROnPlateau(o, factor=1.0), "Factor should be < 1.0.", ValueError),
    (lambda L, o: L.ReduceLROnPlateau(o, mode="up"), "mode up is unknown!", ValueError),
    (lambda L, o: L.ReduceLROnPlateau(o, threshold_mode="x"), "threshold mode x is unknown!",
     ValueError),
    (lambda L, o: L.ReduceLROnPlateau(o, min_lr=[0.1]), "expected 2 min_lrs, got 1",
     ValueError),
])
def test_errors_match_torch(make, message, error):
    for lib in (gt, torch):
        with pytest.raises(error) as info:
            make(lib.optim.lr_scheduler, optimizer(lib))
        assert type(info.value) is error and message in str(info.value)


@needs_torch
def test_state_dict_round_trip():
    opt = optimizer(gt)
    sched = gt.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
    for _ in range(4):
        opt.step()
        sched.step()
    saved = sched.state_dict()
    reference = optimizer(torch)
    torch_sched = torch.optim.lr_scheduler.CosineAnnealingLR(reference, T_max=10)
    assert sorted(saved) == sorted(torch_sched.state_dict())
    assert "optimizer" not in saved
    opt2 = optimizer(gt)
    fresh = gt.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=10)
    fresh.load_state_dict(saved)
    assert fresh.last_epoch == 4 and fresh.get_last_lr() == sched.get_last_lr()


@needs_torch
def test_sequential_state_dict_holds_each_scheduler():
    for lib in (gt, torch):
        opt = optimizer(lib)
        L = lib.optim.lr_scheduler
        seq = L.SequentialLR(opt, [L.LinearLR(opt), L.ExponentialLR(opt, 0.9)], [3])
        state = seq.state_dict()
        assert len(state["_schedulers"]) == 2 and "optimizer" not in state
        assert state["_milestones"] == [3] and state["last_epoch"] == 0


def test_lambda_state_dict_keeps_callable_objects():
    class Factor:
        def __init__(self):
            self.scale = 0.5

        def __call__(self, epoch):
            return self.scale ** epoch
    opt = optimizer(gt)
    sched = gt.optim.lr_scheduler.LambdaLR(opt, [Factor(), lambda e: 1.0])
    state = sched.state_dict()
    assert state["lr_lambdas"] == [{"scale": 0.5}, None]
    state["lr_lambdas"][0]["scale"] = 0.25
    sched.load_state_dict(state)
    assert sched.lr_lambdas[0].scale == 0.25


def test_module_names():
    for name in ("StepLR", "OneCycleLR", "SequentialLR", "ReduceLROnPlateau"):
        assert getattr(gt.optim.lr_scheduler, name).__module__ == "glasstorch.optim.lr_scheduler"


@needs_torch
@pytest.mark.parametrize("name,kwargs", [("StepLR", dict(step_size=3)),
                                         ("CosineAnnealingLR", dict(T_max=8, eta_min=0.01)),
                                         ("LinearLR", dict(total_iters=9)),
                                         ("ExponentialLR", dict(gamma=0.9))])
def test_resume_with_last_epoch(name, kwargs):
    """A scheduler made with last_epoch >= 0 (resuming): its first step takes the
    closed form where torch's does, then chains."""
    def run(lib):
        opt = optimizer(lib)
        first = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        for _ in range(5):
            opt.step()
            first.step()
        resumed = getattr(lib.optim.lr_scheduler, name)(opt, last_epoch=5, **kwargs)
        seen = [resumed.get_last_lr()]
        for _ in range(12):
            opt.step()
            resumed.step()
            seen.append(resumed.get_last_lr())
        return seen
    assert run(gt) == run(torch)
