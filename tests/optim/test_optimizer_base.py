"""The Optimizer base against torch: checkpoints moved between the libraries (through
torch.save / torch.load, with parameter ids renumbered and state cast to the
parameters' dtype) continuing the same trajectory, group edits between steps, the
profiler's step and zero_grad regions, the typing names, and
swap_in_optimizer_params_and_state."""
import io

import numpy as np
import pytest

import glasstorch as gt

from optim_compare import gradient_stream, make_params, set_grads, values

torch = pytest.importorskip("torch")


def run(lib, params, opt, grads):
    history = []
    for step in grads:
        set_grads(lib, params, step)
        opt.step()
        history.append(values(params))
    return history


@pytest.mark.parametrize("direction", ["torch to glasstorch", "glasstorch to torch"])
@pytest.mark.parametrize("name,kwargs", [("Adam", dict(lr=0.01, amsgrad=True)),
                                         ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True)),
                                         ("AdamW", dict(lr=0.01, weight_decay=0.1))])
def test_checkpoint_continues_the_trajectory(direction, name, kwargs):
    """Five steps in one library, its state dict saved by its torch.save and loaded by
    the other's torch.load into an optimizer over new tensors (two groups: the saved
    ids map to them by position), five more steps: as ten steps in the first (within
    torch.testing's tolerances: amsgrad's step may differ in the last bit)."""
    first, second = (torch, gt) if direction == "torch to glasstorch" else (gt, torch)
    grads = list(gradient_stream(make_params(gt), steps=10))
    params = make_params(first)
    opt = getattr(first.optim, name)([{"params": params[:1]}, {"params": params[1:]}],
                                     **kwargs)
    run(first, params, opt, grads[:5])
    buffer = io.BytesIO()
    first.save(opt.state_dict(), buffer)
    buffer.seek(0)
    resumed = [second.tensor(v, requires_grad=True) for v in values(params)]
    opt2 = getattr(second.optim, name)([{"params": resumed[:1]}, {"params": resumed[1:]}],
                                       **kwargs)
    opt2.load_state_dict(second.load(buffer))
    continued = run(second, resumed, opt2, grads[5:])
    expected = run(first, params, opt, grads[5:])
    for mine, theirs in zip(continued, expected):
        for a, b in zip(mine, theirs):
            torch.testing.assert_close(torch.from_numpy(a), torch.from_numpy(b))


def test_loaded_state_takes_the_parameters_dtype():
    """A float32 checkpoint loaded for float64 parameters: the state tensors become
    float64, the step count keeps its dtype (as torch's)."""
    results = []
    for lib in (gt, torch):
        params = make_params(lib)
        opt = lib.optim.Adam(params)
        run(lib, params, opt, list(gradient_stream(params, steps=2)))
        doubles = make_params(lib, "float64")
        opt2 = lib.optim.Adam(doubles)
        opt2.load_state_dict(opt.state_dict())
        state = opt2.state[doubles[0]]
        results.append({key: str(value.dtype) for key, value in state.items()})
    assert results[0] == results[1]
    assert results[0]["exp_avg"].endswith("float64")


def test_group_edits_between_steps_match_torch():
    """lr and momentum changed, a group added mid-training, weight decay set: the
    same trajectory as torch's."""
    grads = list(gradient_stream(make_params(gt), steps=9))
    histories = []
    for lib in (gt, torch):
        params = make_params(lib)
        opt = lib.optim.SGD(params[:2], lr=0.1, momentum=0.5)
        history = run(lib, params, opt, grads[:3])
        opt.param_groups[0]["lr"] = 0.03
        opt.param_groups[0]["momentum"] = 0.9
        opt.add_param_group({"params": params[2:], "lr": 0.2, "weight_decay": 0.01})
        history += run(lib, params, opt, grads[3:6])
        opt.param_groups[1]["weight_decay"] = 0.5
        history += run(lib, params, opt, grads[6:])
        histories.append(history)
    for mine, theirs in zip(*histories):
        for a, b in zip(mine, theirs):
            np.testing.assert_array_equal(a, b)


def test_profiler_shows_step_and_zero_grad():
    names = []
    for lib in (gt, torch):
        param = lib.zeros(2, requires_grad=True)
        opt = lib.optim.AdamW([param])
        param.grad = lib.ones(2)
        with lib.profiler.profile() as prof:
            opt.step()
            opt.zero_grad()
        names.append([e.name for e in prof.events() if e.name.startswith("Optimizer.")])
    assert names[0] == names[1] == ["Optimizer.step#AdamW.step",
                                    "Optimizer.zero_grad#AdamW.zero_grad"]


def test_typing_names():
    from glasstorch.optim import optimizer
    for name in ("Args", "Kwargs", "StateDict", "ParamsT", "GlobalOptimizerPreHook",
                 "GlobalOptimizerPostHook"):
        assert hasattr(optimizer, name)
    assert gt.optim.Optimizer.OptimizerPreHook and gt.optim.Optimizer.OptimizerPostHook
    assert callable(gt.optim.Optimizer.profile_hook_step)


def swap_run(lib):
    """SGD with momentum stepped once, then stepped inside a swap on other tensors and
    a saved state: the swapped-in tensors and state move, the live ones do not."""
    live = lib.tensor([1.0, 2.0], requires_grad=True)
    opt = lib.optim.SGD([live], lr=0.1, momentum=0.9)
    live.grad = lib.tensor([1.0, -1.0])
    opt.step()
    other = lib.tensor([5.0, 5.0], requires_grad=True)
    other.grad = lib.tensor([0.5, 0.5])
    saved = {"state": {0: {"momentum_buffer": lib.tensor([2.0, 2.0])}},
             "param_groups": [dict(opt.state_dict()["param_groups"][0], lr=1.0)]}
    with lib.optim.swap_in_optimizer_params_and_state(opt, {"w": other}, saved):
        assert opt.param_groups[0]["params"][0] is other
        assert opt.param_groups[0]["lr"] == 1.0
        opt.step()
    return (live.tolist(), other.tolist(), saved["state"][0]["momentum_buffer"].tolist(),
            opt.param_groups[0]["lr"], opt.state[live]["momentum_buffer"].tolist())


def test_swap_in_params_and_state_matches_torch():
    assert swap_run(gt) == swap_run(torch)


@pytest.mark.parametrize("make_state,message", [
    (lambda lib, opt: [], "requires a DCP-style optimizer state_dict."),
    (lambda lib, opt: {"state": [], "param_groups": []},
     "requires swapin_optim_state['state'] to be a dict"),
    (lambda lib, opt: {"state": {0: 1}, "param_groups": []},
     "per-parameter optimizer state entries to be dictionaries."),
    (lambda lib, opt: {"state": {}, "param_groups": {}},
     "to be a list of param-group dicts, got dict."),
    (lambda lib, opt: {"state": {}, "param_groups": []},
     "has a different number of parameter groups than the live optimizer."),
    (lambda lib, opt: {"state": {}, "param_groups": [{"params": [0, 1]}]},
     "param group 0 has a different number of params"),
    (lambda lib, opt: {"state": {}, "param_groups": [{"params": [0]}]},
     "param group keys to exactly match the live optimizer group keys for group 0."),
    (lambda lib, opt: {"state": {7: {}}, "param_groups": opt.state_dict()["param_groups"]},
     "got extra keys [7]."),
])
def test_swap_in_errors_match_torch(make_state, message):
    for lib in (gt, torch):
        param = lib.tensor([1.0], requires_grad=True)
        opt = lib.optim.SGD([param], lr=0.1, momentum=0.9)
        param.grad = lib.ones(1)
        opt.step()
        with pytest.raises(RuntimeError) as info:
            with lib.optim.swap_in_optimizer_params_and_state(opt, {"w": param},
                                                              make_state(lib, opt)):
                pass
        assert message in str(info.value)


def test_swap_in_needs_initialized_state():
    for lib in (gt, torch):
        opt = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=0.1)
        with pytest.raises(RuntimeError, match="requires initialized optimizer state"):
            with lib.optim.swap_in_optimizer_params_and_state(opt, {}, {}):
                pass
