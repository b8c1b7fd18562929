"""nn.utils.parametrize against torch: registration, the injected class and property,
assignment through right_inverse, several originals, chains, caching, removal, transfer,
and the errors for parametrizations that change a tensor's dtype or shape."""
import copy
import pickle

import numpy as np
import pytest

import glasstorch as gt
import glasstorch.nn.utils.parametrize as P

torch = pytest.importorskip("torch")
import torch.nn.utils.parametrize as TP  # noqa: E402

LIBS = ((gt, P), (torch, TP))


def _symmetric(lib):
    class Symmetric(lib.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).mT

        def right_inverse(self, A):
            return A.triu()
    return Symmetric()


def _rank_one(lib):
    class RankOne(lib.nn.Module):
        def forward(self, x, y):
            return x.unsqueeze(-1) @ y.unsqueeze(-2)

        def right_inverse(self, Z):
            return Z[:, 0].clone(), Z[0, :].clone()
    return RankOne()


def _scale(lib, factor=2.0):
    class Scale(lib.nn.Module):
        def forward(self, X):
            return X * factor

        def right_inverse(self, X):
            return X / factor
    return Scale()


def _values(t):
    return t.detach().numpy().copy()


def _both(build):
    """`build(lib, P)` run for glasstorch and torch after the same seed."""
    found = []
    for lib, module in LIBS:
        lib.manual_seed(0)
        found.append(build(lib, module))
    return found


def test_register_swaps_the_class_and_moves_the_tensor():
    mine, theirs = _both(lambda lib, p: p.register_parametrization(
        lib.nn.Linear(3, 3), "weight", _symmetric(lib)))
    assert type(mine).__name__ == type(theirs).__name__ == "ParametrizedLinear"
    assert isinstance(mine, gt.nn.Linear) and type(mine) is not gt.nn.Linear
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in mine.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    np.testing.assert_allclose(_values(mine.weight), _values(theirs.weight), rtol=1e-6)
    assert gt.equal(mine.weight, mine.weight.T)
    assert P.type_before_parametrizations(mine) is gt.nn.Linear
    assert P.is_parametrized(mine) and P.is_parametrized(mine, "weight")
    assert not P.is_parametrized(mine, "bias") and not P.is_parametrized(gt.nn.Linear(2, 2))
    assert type(gt.nn.Linear(2, 2)) is gt.nn.Linear       # other instances untouched


def test_assignment_goes_through_right_inverse_in_place():
    found = []
    for lib, p in LIBS:
        lib.manual_seed(0)
        m = p.register_parametrization(lib.nn.Linear(3, 3), "weight", _symmetric(lib))
        original = m.parametrizations.weight.original
        A = lib.arange(9.0).reshape(3, 3)
        m.weight = A + A.T
        assert m.parametrizations.weight.original is original      # written in place
        found.append(_values(m.weight))
    np.testing.assert_array_equal(*found)


def test_gradients_and_an_optimizer_step_reach_the_original():
    found = []
    for lib, p in LIBS:
        lib.manual_seed(0)
        m = p.register_parametrization(lib.nn.Linear(4, 4), "weight", _symmetric(lib))
        opt = lib.optim.SGD(m.parameters(), lr=0.1)
        m(lib.ones(2, 4)).pow(2).sum().backward()
        opt.step()
        found.append([_values(m.parametrizations.weight.original), _values(m.weight)])
    for a, b in zip(*found):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_several_originals():
    mine, theirs = _both(lambda lib, p: p.register_parametrization(
        lib.nn.Linear(4, 4), "weight", _rank_one(lib)))
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert mine.parametrizations.weight.ntensors == 2 and not mine.parametrizations.weight.is_tensor
    np.testing.assert_allclose(_values(mine.weight), _values(theirs.weight), rtol=1e-6)
    for module, p in ((mine, P), (theirs, TP)):
        with pytest.raises(ValueError) as caught:
            p.remove_parametrizations(module, "weight", leave_parametrized=False)
        assert "parametrized in terms of a sequence of tensors" in str(caught.value)
    P.remove_parametrizations(mine, "weight")
    TP.remove_parametrizations(theirs, "weight")
    assert type(mine) is gt.nn.Linear and isinstance(mine.weight, gt.nn.Parameter)
    np.testing.assert_allclose(_values(mine.weight), _values(theirs.weight), rtol=1e-6)


@pytest.mark.parametrize("leave", [True, False])
def test_remove_restores_the_plain_module(leave):
    found = []
    for lib, p in LIBS:
        lib.manual_seed(0)
        m = p.register_parametrization(lib.nn.Linear(3, 3), "weight", _scale(lib))
        p.remove_parametrizations(m, "weight", leave_parametrized=leave)
        assert type(m) is lib.nn.Linear and not hasattr(m, "parametrizations")
        found.append((_values(m.weight), list(m.state_dict())))
    np.testing.assert_allclose(found[0][0], found[1][0], rtol=1e-6)
    assert found[0][1] == found[1][1]
    with pytest.raises(ValueError, match="does not have a parametrization on weight"):
        P.remove_parametrizations(gt.nn.Linear(2, 2), "weight")


def test_chains_apply_in_order():
    def build(lib, p):
        m = p.register_parametrization(lib.nn.Linear(3, 3), "weight", _symmetric(lib))
        p.register_parametrization(m, "weight", _scale(lib, 3.0))
        m.weight = lib.eye(3) * 6
        return m
    mine, theirs = _both(build)
    assert len(mine.parametrizations.weight) == 2
    np.testing.assert_allclose(_values(mine.weight), _values(theirs.weight), rtol=1e-6)
    np.testing.assert_allclose(_values(mine.parametrizations.weight.original),
                               _values(theirs.parametrizations.weight.original), rtol=1e-6)


def test_buffers_are_parametrized_too():
    mine, theirs = _both(lambda lib, p: p.register_parametrization(
        lib.nn.BatchNorm1d(3), "running_var", _scale(lib)))
    assert list(mine.state_dict()) == list(theirs.state_dict())
    np.testing.assert_array_equal(_values(mine.running_var), _values(theirs.running_var))


def _messages(call):
    found = []
    for lib, p in LIBS:
        with pytest.raises(Exception) as caught:
            call(lib, p)
        found.append((type(caught.value).__name__, str(caught.value)))
    return found


@pytest.mark.parametrize("case", ["dtype", "shape", "chained dtype", "chained shape",
                                  "no tensor", "missing name", "several but one kept"])
def test_refusals_match_torch(case):
    def call(lib, p):
        m = lib.nn.Linear(3, 3)
        if case == "missing name":
            return p.register_parametrization(m, "nothing", _scale(lib))
        if case == "several but one kept":
            return p.register_parametrization(m, "weight", _rank_one(lib), unsafe=False) and \
                p.remove_parametrizations(m, "weight", leave_parametrized=False)
        if case.startswith("chained"):
            p.register_parametrization(m, "weight", _scale(lib))
        change = {"dtype": lambda X: X.double(), "shape": lambda X: X[:2],
                  "no tensor": lambda X: 1.0}[case.split()[-1]]

        class Change(lib.nn.Module):
            def forward(self, X):
                return change(X)
        return p.register_parametrization(m, "weight", Change())
    mine, theirs = _messages(call)
    assert mine[0] == theirs[0]
    if case == "missing name":      # the module's repr is part of the message
        assert mine[1].endswith("with name 'nothing'")
    else:
        assert mine[1] == theirs[1]


def test_unsafe_allows_a_new_shape():
    class Half(gt.nn.Module):
        def forward(self, X):
            return X[: X.shape[0] // 2]
    m = P.register_parametrization(gt.nn.Linear(3, 4), "weight", Half(), unsafe=True)
    assert tuple(m.weight.shape) == (2, 3)


def test_cached_computes_once():
    calls = []

    class Counted(gt.nn.Module):
        def forward(self, X):
            calls.append(1)
            return X * 2
    m = P.register_parametrization(gt.nn.Linear(3, 3), "weight", Counted())
    calls.clear()
    with P.cached():
        first = m.weight
        assert m.weight is first
        with P.cached():
            assert m.weight is first
    assert len(calls) == 1
    assert m.weight is not first and len(calls) == 2


def test_copies_and_pickling():
    m = P.register_parametrization(gt.nn.Linear(3, 3), "weight", _symmetric(gt))
    replica = copy.deepcopy(m)
    assert type(replica).__name__ == "ParametrizedLinear"
    assert gt.equal(replica.weight, m.weight)
    with pytest.raises(RuntimeError, match="^Serialization of parametrized modules is only "
                                           "supported through state_dict"):
        pickle.dumps(m)


def test_train_mode_follows_the_module():
    m = gt.nn.Linear(2, 2).eval()
    scale = _scale(gt)
    P.register_parametrization(m, "weight", scale)
    assert not scale.training


def test_transfer_parametrizations_and_params():
    source = P.register_parametrization(gt.nn.Linear(3, 3), "weight", _symmetric(gt))
    target = gt.nn.Linear(3, 3)
    P.transfer_parametrizations_and_params(source, target)
    assert P.is_parametrized(target, "weight")
    assert target.parametrizations.weight.original is source.parametrizations.weight.original
    assert gt.equal(target.weight, source.weight)
    assert P.transfer_parametrizations_and_params(gt.nn.Linear(2, 2), target) is target
