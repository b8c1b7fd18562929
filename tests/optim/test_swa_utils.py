"""torch.optim.swa_utils against torch: AveragedModel's averages (the default running
mean, every avg_fn / multi_avg_fn factory, use_buffers) after a sequence of model
states, SWALR's lr sequence and state dict, update_bn, and the refusals.

Averages are compared exactly in float32; float64 within torch.testing's tolerances
(torch's float64 lerp rounds once, through a fused multiply-add)."""
import numpy as np
import pytest

import glasstorch as gt

from test_lr_scheduler import lr_sequence, optimizer

torch = pytest.importorskip("torch")


def model(lib, dtype):
    """A Linear layer and a float buffer, in `dtype`."""
    net = lib.nn.Linear(4, 3).to(getattr(lib, dtype))
    net.register_buffer("scale", lib.zeros(3, dtype=getattr(lib, dtype)))
    return net


def set_state(lib, net, rng):
    """Give the model's parameters and buffer new values (the same for either library)."""
    with lib.no_grad():
        for tensor in list(net.parameters()) + list(net.buffers()):
            tensor.copy_(lib.tensor(rng.standard_normal(tuple(tensor.shape))))


def averaged_run(lib, dtype, make_kwargs, updates=6):
    rng = np.random.default_rng(5)
    net = model(lib, dtype)
    set_state(lib, net, rng)
    averaged = lib.optim.swa_utils.AveragedModel(net, **make_kwargs(lib.optim.swa_utils))
    for _ in range(updates):
        set_state(lib, net, rng)
        averaged.update_parameters(net)
    return {key: value.detach().numpy().copy() for key, value in averaged.state_dict().items()}


CASES = {
    "swa default": lambda S: {},
    "swa use_buffers": lambda S: dict(use_buffers=True),
    "swa avg_fn": lambda S: dict(avg_fn=S.get_swa_avg_fn()),
    "swa multi_avg_fn": lambda S: dict(multi_avg_fn=S.get_swa_multi_avg_fn(), use_buffers=True),
    "ema avg_fn": lambda S: dict(avg_fn=S.get_ema_avg_fn(0.9)),
    "ema multi_avg_fn": lambda S: dict(multi_avg_fn=S.get_ema_multi_avg_fn(0.75)),
    "ema multi_avg_fn use_buffers": lambda S: dict(multi_avg_fn=S.get_ema_multi_avg_fn(),
                                                   use_buffers=True),
    "custom avg_fn": lambda S: dict(avg_fn=lambda a, c, n: a * 0.5 + c * 0.5),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", list(CASES))
def test_averages_match_torch(case, dtype):
    mine = averaged_run(gt, dtype, CASES[case])
    theirs = averaged_run(torch, dtype, CASES[case])
    assert sorted(mine) == sorted(theirs) == ["module.bias", "module.scale", "module.weight",
                                              "n_averaged"]
    for key in theirs:
        if dtype == "float32":
            np.testing.assert_array_equal(mine[key], theirs[key], err_msg=key)
        else:
            torch.testing.assert_close(torch.from_numpy(mine[key]),
                                       torch.from_numpy(theirs[key]))
    assert mine["n_averaged"] == 6


def test_first_update_copies_and_forward_runs_the_copy():
    net = gt.nn.Linear(2, 1)
    averaged = gt.optim.swa_utils.AveragedModel(net)
    with gt.no_grad():
        net.weight.fill_(3.0)
    averaged.update_parameters(net)
    assert averaged.module.weight.tolist() == [[3.0, 3.0]]
    assert averaged.module is not net and averaged.n_averaged.dtype == gt.long
    x = gt.ones(1, 2)
    assert averaged(x).tolist() == net(x).tolist()


@pytest.mark.parametrize("make,error,message", [
    (lambda S, m: S.get_ema_multi_avg_fn(1.5), ValueError,
     "Invalid decay value 1.5 provided. Please provide a value in [0,1] range."),
    (lambda S, m: S.get_ema_avg_fn(-0.1), ValueError, "Invalid decay value -0.1 provided."),
    (lambda S, m: S.AveragedModel(m, avg_fn=S.get_swa_avg_fn(),
                                  multi_avg_fn=S.get_swa_multi_avg_fn()),
     AssertionError, "Only one of avg_fn and multi_avg_fn should be provided"),
])
def test_errors_match_torch(make, error, message):
    for lib in (gt, torch):
        with pytest.raises(error) as info:
            make(lib.optim.swa_utils, lib.nn.Linear(2, 2))
        assert type(info.value) is error and message in str(info.value)


SWALR_CASES = {
    "cos": lambda L, o: [torch_or_gt(o).SWALR(o, swa_lr=0.05, anneal_epochs=5)],
    "linear per group": lambda L, o: [torch_or_gt(o).SWALR(
        o, swa_lr=[0.01, 0.5], anneal_epochs=7, anneal_strategy="linear")],
    "no annealing": lambda L, o: [torch_or_gt(o).SWALR(o, swa_lr=0.02, anneal_epochs=0)],
    "after cosine": lambda L, o: [L.CosineAnnealingLR(o, T_max=30),
                                  torch_or_gt(o).SWALR(o, swa_lr=0.01, anneal_epochs=3)],
}


def torch_or_gt(opt):
    """The swa_utils module of the library `opt` belongs to."""
    return (torch if isinstance(opt, torch.optim.Optimizer) else gt).optim.swa_utils


@pytest.mark.parametrize("case", list(SWALR_CASES))
def test_swalr_sequence_matches_torch(case):
    assert lr_sequence(gt, SWALR_CASES[case]) == lr_sequence(torch, SWALR_CASES[case])


@pytest.mark.parametrize("make,message", [
    (lambda S, o: S.SWALR(o, 0.1, anneal_strategy="step"),
     "anneal_strategy must be one of 'cos' or 'linear', instead got step"),
    (lambda S, o: S.SWALR(o, 0.1, anneal_epochs=-1),
     "anneal_epochs must be equal or greater than 0, got -1"),
    (lambda S, o: S.SWALR(o, 0.1, anneal_epochs=2.5),
     "anneal_epochs must be equal or greater than 0, got 2.5"),
    (lambda S, o: S.SWALR(o, [0.1]), "swa_lr must have the same length as "
     "optimizer.param_groups. swa_lr has 1 values, param_groups has 2."),
])
def test_swalr_errors_match_torch(make, message):
    for lib in (gt, torch):
        with pytest.raises(ValueError, match=message.replace(".", "\\.").replace("'", ".")):
            make(lib.optim.swa_utils, optimizer(lib))


def test_swalr_state_dict_round_trip():
    states = []
    for lib in (gt, torch):
        opt = optimizer(lib)
        sched = lib.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_strategy="linear")
        for _ in range(3):
            opt.step()
            sched.step()
        state = sched.state_dict()
        states.append(sorted(state))
        fresh = lib.optim.swa_utils.SWALR(optimizer(lib), swa_lr=0.05)
        fresh.load_state_dict(state)
        assert fresh.anneal_func(0.5) == 0.5 and fresh._step_count == 4
    assert states[0] == states[1]


def test_update_bn_recomputes_running_statistics():
    rng = np.random.default_rng(2)
    batches = [rng.standard_normal((8, 3)).astype(np.float32) for _ in range(4)]
    results = []
    for lib in (gt, torch):
        net = lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.BatchNorm1d(3, momentum=0.3))
        with lib.no_grad():
            net[0].weight.copy_(lib.tensor(np.eye(3, dtype=np.float32)))
            net[0].bias.zero_()
        net.eval()
        loader = [(lib.tensor(b), lib.zeros(8)) for b in batches]
        lib.optim.swa_utils.update_bn(loader, net)
        bn = net[1]
        results.append((bn.running_mean.numpy().copy(), bn.running_var.numpy().copy(),
                        int(bn.num_batches_tracked), bn.momentum, net.training))
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-6)


def test_update_bn_without_batch_norm_leaves_the_model():
    net = gt.nn.Linear(2, 2)
    net.eval()
    gt.optim.swa_utils.update_bn([gt.ones(1, 2)], net)
    assert not net.training


def test_names_match_torch():
    assert gt.optim.swa_utils.__all__ == torch.optim.swa_utils.__all__
    assert gt.optim.swa_utils.AveragedModel.__mro__[1] is gt.nn.Module
