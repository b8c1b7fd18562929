"""functional_call (torch.func and nn.utils.stateless), stack_module_state and
replace_all_batch_norm_modules_: torch's semantics and errors; a 3-model ensemble
through vmap equal to running the models one by one."""
import copy
import warnings

import pytest

import glasstorch as gt
from glasstorch import func


class Tied:
    """A module whose second linear layer shares the first one's weight."""

    @staticmethod
    def make(torch):
        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.a = torch.nn.Linear(2, 2)
                self.b = torch.nn.Linear(2, 2)
                self.b.weight = self.a.weight

            def forward(self, x):
                return self.b(self.a(x))
        return Model()


def test_functional_call_swaps_and_restores():
    m = gt.nn.Linear(2, 1)
    weight = m.weight
    out = func.functional_call(m, {"weight": gt.ones(1, 2), "bias": gt.zeros(1)},
                               gt.tensor([[1., 2.]]))
    assert gt.equal(out, gt.tensor([[3.]]))
    assert m.weight is weight
    out = func.functional_call(m, ({"weight": gt.ones(1, 2)}, {"bias": gt.ones(1)}),
                               (gt.tensor([[1., 2.]]),))
    assert gt.equal(out, gt.tensor([[4.]]))
    with pytest.raises(RuntimeError):           # the call fails: the weights come back
        func.functional_call(m, {"weight": gt.ones(1, 2)}, (gt.ones(1, 3),))
    assert m.weight is weight


def test_tied_weights_follow_their_twin_unless_untied():
    m = Tied.make(gt)
    x = gt.ones(1, 2)
    zero = gt.zeros(2, 2)
    tied = func.functional_call(m, {"a.weight": zero}, (x,))
    assert gt.equal(tied, m.b.bias.expand(1, 2) + 0)
    untied = func.functional_call(m, {"a.weight": zero}, (x,), tie_weights=False)
    assert gt.allclose(untied, m.b(m.a.bias.expand(1, 2)))
    assert m.a.weight is m.b.weight


ERRORS = [
    ("repeated", lambda torch, m: torch.func.functional_call(
        m, ({"weight": m.weight}, {"weight": m.weight}), (torch.ones(1, 2),))),
    ("strict both", lambda torch, m: torch.func.functional_call(
        m, {"foo": m.weight}, (torch.ones(1, 2),), strict=True)),
    ("strict missing", lambda torch, m: torch.func.functional_call(
        m, {"weight": m.weight}, (torch.ones(1, 2),), strict=True)),
    ("tied twice", lambda torch, m: torch.func.functional_call(
        Tied.make(torch), {"a.weight": torch.zeros(2, 2), "b.weight": torch.ones(2, 2)},
        (torch.ones(1, 2),))),
    ("no models", lambda torch, m: torch.func.stack_module_state([])),
    ("modes", lambda torch, m: torch.func.stack_module_state([m, torch.nn.Linear(2, 2).eval()])),
    ("classes", lambda torch, m: torch.func.stack_module_state([m, torch.nn.Conv1d(2, 2, 1)])),
]


@pytest.mark.parametrize("name", [name for name, _ in ERRORS])
def test_errors_match_torch(name):
    torch = pytest.importorskip("torch")
    call = dict(ERRORS)[name]
    with pytest.raises(Exception) as expected:
        call(torch, torch.nn.Linear(2, 2))
    with pytest.raises(type(expected.value)) as got:
        call(gt, gt.nn.Linear(2, 2))
    assert str(got.value) == str(expected.value)


def test_stateless_functional_call_is_deprecated():
    m = gt.nn.Linear(2, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gt.nn.utils.stateless.functional_call(m, {}, (gt.ones(1, 2),))
    assert caught[0].category is FutureWarning
    assert "torch.func.functional_call" in str(caught[0].message)


def test_stack_module_state_makes_stacked_leaves():
    models = [gt.nn.BatchNorm1d(3) for _ in range(2)]
    params, buffers = func.stack_module_state(models)
    assert params["weight"].shape == (2, 3) and params["weight"].is_leaf
    assert params["weight"].requires_grad and not buffers["running_mean"].requires_grad
    assert buffers["num_batches_tracked"].shape == (2,)


def test_ensemble_through_vmap_equals_each_model():
    gt.manual_seed(0)
    nn = gt.nn
    models = [nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)) for _ in range(3)]
    params, buffers = func.stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")
    x = gt.randn(5, 4)

    def run(p, b, inputs):
        return func.functional_call(base, (p, b), (inputs,))
    out = func.vmap(run, in_dims=(0, 0, None))(params, buffers, x)
    expected = gt.stack([m(x) for m in models])
    assert gt.allclose(out, expected, atol=1e-6)
    minibatches = gt.randn(3, 5, 4)
    out = func.vmap(run)(params, buffers, minibatches)
    assert gt.allclose(out, gt.stack([m(b) for m, b in zip(models, minibatches)]), atol=1e-6)


def test_replace_all_batch_norm_modules_stops_tracking():
    model = gt.nn.Sequential(gt.nn.Conv2d(1, 2, 1), gt.nn.BatchNorm2d(2))
    assert func.replace_all_batch_norm_modules_(model) is model
    norm = model[1]
    assert norm.running_mean is None and norm.running_var is None
    assert norm.num_batches_tracked is None and not norm.track_running_stats
    out = func.vmap(model)(gt.randn(3, 4, 1, 2, 2))
    assert out.shape == (3, 4, 2, 2, 2)
