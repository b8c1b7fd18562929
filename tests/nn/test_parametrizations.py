"""nn.utils.parametrizations and the older hook-based weight_norm / spectral_norm against
torch after the same seed: weights, the power iteration's vectors, gradients, training
steps, state dicts (old keys loading into the new form), removal and refusals."""
import warnings

import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _values(t):
    return t.detach().numpy().copy()


def _close(a, b, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(_values(a), _values(b), rtol=rtol, atol=atol)


def _train(lib, module, x_shape, steps=3):
    """A few SGD steps on ``sum(module(x)²)``; the module's outputs per step."""
    opt = lib.optim.SGD(module.parameters(), lr=0.05)
    outputs = []
    dtype = next(module.parameters()).dtype
    x = lib.linspace(-1, 1, int(np.prod(x_shape)), dtype=dtype).reshape(x_shape)
    for _ in range(steps):
        opt.zero_grad()
        y = module(x)
        y.pow(2).sum().backward()
        opt.step()
        outputs.append(_values(y))
    return outputs


def _both(build):
    found = []
    for lib in (gt, torch):
        lib.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            found.append(build(lib))
    return found


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_parametrization(dim):
    def build(lib):
        m = lib.nn.utils.parametrizations.weight_norm(lib.nn.Conv2d(2, 3, 2), dim=dim)
        return m, _train(lib, m, (1, 2, 3, 3))
    (mine, out_mine), (theirs, out_theirs) = _both(build)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    g = mine.parametrizations.weight.original0
    assert g.shape == theirs.parametrizations.weight.original0.shape
    for a, b in zip(out_mine, out_theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    _close(mine.weight, theirs.weight)
    assert mine.weight.grad_fn.name() == theirs.weight.grad_fn.name()


def test_weight_norm_loads_the_old_keys():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        source = gt.nn.utils.weight_norm(gt.nn.Linear(3, 4))
    target = gt.nn.utils.parametrizations.weight_norm(gt.nn.Linear(3, 4))
    target.load_state_dict(source.state_dict())
    assert gt.equal(target.parametrizations.weight.original0, source.weight_g)
    assert gt.equal(target.parametrizations.weight.original1, source.weight_v)


@pytest.mark.parametrize("module", ["linear", "conv_transpose"])
def test_spectral_norm_parametrization(module):
    def build(lib):
        layer = lib.nn.Linear(5, 4) if module == "linear" else lib.nn.ConvTranspose2d(3, 2, 2)
        m = lib.nn.utils.parametrizations.spectral_norm(layer, n_power_iterations=2)
        shape = (2, 5) if module == "linear" else (1, 3, 2, 2)
        outputs = _train(lib, m, shape)
        m.eval()
        outputs.append(_values(m(lib.ones(shape))))
        return m, outputs
    (mine, out_mine), (theirs, out_theirs) = _both(build)
    for a, b in zip(out_mine, out_theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    _close(mine.parametrizations.weight[0]._u, theirs.parametrizations.weight[0]._u)
    _close(mine.parametrizations.weight[0]._v, theirs.parametrizations.weight[0]._v)
    assert list(mine.state_dict()) == list(theirs.state_dict())


def test_spectral_norm_of_a_vector_normalizes_it():
    m = gt.nn.utils.parametrizations.spectral_norm(gt.nn.Linear(3, 3), name="bias")
    assert abs(float(m.bias.norm()) - 1.0) < 1e-6


@pytest.mark.parametrize("args, error", [
    ({"dim": 3}, IndexError), ({"n_power_iterations": 0}, ValueError)])
def test_spectral_norm_refusals(args, error):
    found = []
    for lib in (gt, torch):
        with pytest.raises(error) as caught:
            lib.nn.utils.parametrizations.spectral_norm(lib.nn.Linear(3, 3), **args)
        found.append(str(caught.value))
    assert found[0] == found[1]


def test_hook_weight_norm():
    def build(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m = lib.nn.utils.weight_norm(lib.nn.Linear(4, 3), dim=1)
        assert [w.category for w in caught] == [FutureWarning]
        outputs = _train(lib, m, (2, 4))
        return m, outputs, str(caught[0].message)
    (mine, out_mine, warn_mine), (theirs, out_theirs, warn_theirs) = _both(build)
    assert warn_mine == warn_theirs
    assert list(mine.state_dict()) == list(theirs.state_dict())
    for a, b in zip(out_mine, out_theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    with pytest.raises(RuntimeError, match="^Cannot register two weight_norm hooks on the "
                                           "same parameter weight$"):
        gt.nn.utils.weight_norm(mine, dim=1)
    gt.nn.utils.remove_weight_norm(mine)
    torch.nn.utils.remove_weight_norm(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    _close(mine.weight, theirs.weight)
    with pytest.raises(ValueError, match="^weight_norm of 'weight' not found in"):
        gt.nn.utils.remove_weight_norm(mine)


def test_hook_spectral_norm():
    def build(lib):
        m = lib.nn.utils.spectral_norm(lib.nn.Conv2d(2, 3, 2))
        outputs = _train(lib, m, (1, 2, 3, 3))
        m.eval()
        outputs.append(_values(m(lib.ones(1, 2, 3, 3))))
        state = m.state_dict()
        return m, outputs, state
    (mine, out_mine, state_mine), (theirs, out_theirs, state_theirs) = _both(build)
    for a, b in zip(out_mine, out_theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert list(state_mine) == list(state_theirs) == ["bias", "weight_orig", "weight_u",
                                                      "weight_v"]
    assert state_mine._metadata[""]["spectral_norm"] == {"weight.version": 1}
    gt.nn.utils.remove_spectral_norm(mine)
    torch.nn.utils.remove_spectral_norm(theirs)
    _close(mine.weight, theirs.weight)
    assert not mine._state_dict_hooks and not mine._load_state_dict_pre_hooks


def test_hook_spectral_norm_converts_a_version_0_state_dict():
    """A state dict of the first version (``weight`` saved, no ``weight_v``) loads: v is
    solved for so that the stored weight comes back."""
    found = []
    for lib in (gt, torch):
        lib.manual_seed(0)
        m = lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4))
        m(lib.ones(1, 3))
        state = m.state_dict()
        del state._metadata[""]["spectral_norm"]
        state["weight"] = m.weight.detach().clone()
        del state["weight_v"]
        fresh = lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4))
        fresh.load_state_dict(state)
        found.append(_values(fresh.weight_v))
    np.testing.assert_allclose(*found, rtol=1e-4, atol=1e-6)


def test_hook_spectral_norm_refuses_twice():
    m = gt.nn.utils.spectral_norm(gt.nn.Linear(3, 3))
    with pytest.raises(RuntimeError, match="^Cannot register two spectral_norm hooks on the "
                                           "same parameter weight$"):
        gt.nn.utils.spectral_norm(m)
    with pytest.raises(ValueError, match="^spectral_norm of 'bias' not found in"):
        gt.nn.utils.remove_spectral_norm(m, "bias")


@pytest.mark.parametrize("orthogonal_map", [None, "matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
def test_orthogonal(orthogonal_map, shape):
    def build(lib):
        m = lib.nn.Linear(shape[1], shape[0]).double()
        lib.nn.utils.parametrizations.orthogonal(m, orthogonal_map=orthogonal_map)
        return m, _train(lib, m, (2, shape[1]))
    (mine, out_mine), (theirs, out_theirs) = _both(build)
    for a, b in zip(out_mine, out_theirs):
        np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-9)
    Q = mine.weight
    small = min(shape)
    gram = Q @ Q.T if shape[0] < shape[1] else Q.T @ Q
    np.testing.assert_allclose(_values(gram), np.eye(small), atol=1e-10)
    assert list(mine.state_dict()) == list(theirs.state_dict())


def test_orthogonal_without_trivialization_assigns_householder_only():
    m = gt.nn.utils.parametrizations.orthogonal(gt.nn.Linear(3, 3).double(),
                                                orthogonal_map="householder",
                                                use_trivialization=False)
    Q = gt.linalg.qr(gt.randn(3, 3, dtype=gt.float64))[0]
    m.weight = Q
    np.testing.assert_allclose(_values(m.weight.T @ m.weight), np.eye(3), atol=1e-12)
    cayley = gt.nn.utils.parametrizations.orthogonal(gt.nn.Linear(3, 3),
                                                     orthogonal_map="cayley",
                                                     use_trivialization=False)
    with pytest.raises(NotImplementedError, match="use_trivialization=False"):
        cayley.weight = gt.eye(3)


def test_orthogonal_refusals():
    with pytest.raises(ValueError, match="^Expected a matrix or batch of matrices. Got a "
                                         "tensor of 1 dimensions.$"):
        gt.nn.utils.parametrizations.orthogonal(gt.nn.Linear(3, 3), "bias")
    with pytest.raises(ValueError, match='^orthogonal_map has to be one of "matrix_exp", '
                                         '"cayley", "householder". Got: qr$'):
        gt.nn.utils.parametrizations.orthogonal(gt.nn.Linear(3, 3), orthogonal_map="qr")
