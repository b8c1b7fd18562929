"""nn.utils.prune against torch after the same seed: every method's mask, combined
pruning (containers), importance scores, global pruning, removal, the reparametrized
module's state dict and gradients, and the refusals."""
import numpy as np
import pytest

import glasstorch as gt
import glasstorch.nn.utils.prune as prune

torch = pytest.importorskip("torch")
import torch.nn.utils.prune as torch_prune  # noqa: E402

LIBS = ((gt, prune), (torch, torch_prune))


def _values(t):
    return t.detach().numpy().copy()


def _both(build):
    found = []
    for lib, p in LIBS:
        lib.manual_seed(0)
        found.append(build(lib, p))
    return found


CASES = {
    "identity": lambda p, m: p.identity(m, "weight"),
    "random unstructured": lambda p, m: p.random_unstructured(m, "weight", amount=0.4),
    "random unstructured count": lambda p, m: p.random_unstructured(m, "bias", amount=2),
    "l1 unstructured": lambda p, m: p.l1_unstructured(m, "weight", amount=7),
    "random structured": lambda p, m: p.random_structured(m, "weight", amount=0.5, dim=1),
    "ln structured": lambda p, m: p.ln_structured(m, "weight", amount=2, n=2, dim=0),
    "ln structured inf": lambda p, m: p.ln_structured(m, "weight", amount=0.3, n=float("-inf"),
                                                      dim=-1),
    "custom": lambda p, m: p.custom_from_mask(m, "bias", mask=m.bias > 0),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_method_matches_torch(case):
    def build(lib, p):
        m = lib.nn.Conv2d(3, 4, 2)
        CASES[case](p, m)
        y = m(lib.ones(1, 3, 3, 3))
        y.sum().backward()
        return m, y
    (mine, y_mine), (theirs, y_theirs) = _both(build)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    for name, buffer in mine.named_buffers():
        np.testing.assert_array_equal(_values(buffer), _values(dict(theirs.named_buffers())[name]))
    np.testing.assert_allclose(_values(y_mine), _values(y_theirs), rtol=1e-5, atol=1e-6)
    for name, param in mine.named_parameters():
        np.testing.assert_allclose(_values(param.grad),
                                   _values(dict(theirs.named_parameters())[name].grad),
                                   rtol=1e-5, atol=1e-6)
    assert prune.is_pruned(mine)


def test_pruning_twice_combines_in_a_container():
    def build(lib, p):
        m = lib.nn.Linear(6, 5)
        p.random_unstructured(m, "weight", amount=0.3)
        p.ln_structured(m, "weight", amount=2, n=1, dim=0)
        p.l1_unstructured(m, "weight", amount=0.5)
        hook = next(iter(m._forward_pre_hooks.values()))
        return m, hook
    (mine, hook), (theirs, _) = _both(build)
    assert isinstance(hook, prune.PruningContainer) and len(hook) == 3
    assert [type(h).__name__ for h in hook] == ["RandomUnstructured", "LnStructured",
                                                "L1Unstructured"]
    np.testing.assert_array_equal(_values(mine.weight_mask), _values(theirs.weight_mask))


def test_importance_scores():
    def build(lib, p):
        m = lib.nn.Linear(4, 3)
        scores = lib.arange(12.0).reshape(3, 4).flip(0)
        p.l1_unstructured(m, "weight", amount=5, importance_scores=scores)
        p.ln_structured(m, "weight", amount=1, n=1, dim=1, importance_scores=scores)
        return m
    mine, theirs = _both(build)
    np.testing.assert_array_equal(_values(mine.weight_mask), _values(theirs.weight_mask))


def test_global_unstructured():
    def build(lib, p):
        a, b = lib.nn.Linear(4, 3), lib.nn.Conv1d(2, 2, 3)
        p.random_unstructured(b, "weight", amount=2)
        p.global_unstructured([(a, "weight"), (b, "weight"), (a, "bias")],
                              pruning_method=p.L1Unstructured, amount=0.4,
                              importance_scores={(a, "bias"): lib.zeros(3)})
        return [_values(a.weight_mask), _values(b.weight_mask), _values(a.bias_mask)]
    for x, y in zip(*_both(build)):
        np.testing.assert_array_equal(x, y)


def test_remove_makes_pruning_permanent():
    def build(lib, p):
        m = lib.nn.Linear(4, 3)
        p.l1_unstructured(m, "weight", amount=0.5)
        p.remove(m, "weight")
        return m
    mine, theirs = _both(build)
    assert list(mine.state_dict()) == list(theirs.state_dict()) == ["bias", "weight"]
    assert isinstance(mine.weight, gt.nn.Parameter) and not prune.is_pruned(mine)
    np.testing.assert_array_equal(_values(mine.weight), _values(theirs.weight))
    with pytest.raises(ValueError, match="^Parameter 'weight' of module .* has to be pruned "
                                         "before pruning can be removed$"):
        prune.remove(mine, "weight")


def test_prune_without_a_module():
    t = gt.tensor([[1.0, -5.0], [3.0, 0.5]])
    pruned = prune.L1Unstructured(amount=2).prune(t)
    assert pruned.tolist() == [[0.0, -5.0], [3.0, 0.0]]


@pytest.mark.parametrize("call, error", [
    (lambda p, m: p.l1_unstructured(m, "weight", amount=1.5), ValueError),
    (lambda p, m: p.l1_unstructured(m, "weight", amount=-1), ValueError),
    (lambda p, m: p.l1_unstructured(m, "weight", amount="half"), TypeError),
    (lambda p, m: p.l1_unstructured(m, "weight", amount=13), ValueError),
    (lambda p, m: p.random_structured(m, "bias", amount=1, dim=0), ValueError),
    (lambda p, m: p.ln_structured(m, "weight", amount=1, n=2, dim=2), IndexError),
    (lambda p, m: p.l1_unstructured(m, "weight", 1, importance_scores=m.bias), AssertionError),
    (lambda p, m: p.global_unstructured([(m, "weight")], p.RandomStructured, amount=1),
     TypeError),
])
def test_refusals_match_torch_and_leave_the_module(call, error):
    found = []
    for lib, p in LIBS:
        m = lib.nn.Linear(4, 3)
        with pytest.raises(error) as caught:
            call(p, m)
        found.append(str(caught.value).replace("glasstorch", "torch"))
        assert sorted(n for n, _ in m.named_parameters()) in (["bias", "weight"],)
    assert found[0].split(" of ")[0] == found[1].split(" of ")[0]
