"""The samplers and gradients of `aten/native/random/distributions.py`.

Draws are compared with torch's bit for bit from equal seeds (and the generators'
states afterwards, so the number of words drawn and the cached normal match too);
the pathwise gradients with torch's and with the exact ones (from SciPy's regularized
incomplete gamma and beta functions, differentiated numerically).
"""
import numpy as np
import pytest

import glasstorch as gt

SEEDS = (0, 7, 2 ** 40 + 3)
CONCENTRATIONS = [0.01, 0.3, 0.5, 0.999, 1.0, 2.0, 3.5, 10.0, 100.0, 0.0]
COUNTS = [10.0, 100.0, 5.0, 1000.0, 30.0, 0.0, 7.0, 50.0, 3.0, 200.0]
PROBABILITIES = [0.5, 0.2, 0.9, 0.01, 0.7, 0.3, 0.05, 0.95, 1.0, 0.0]

RECIPES = {
    "_standard_gamma": lambda m, g, dt: m._standard_gamma(
        m.tensor(CONCENTRATIONS * 3, dtype=dt).reshape(3, 10).t(), generator=g),
    "_sample_dirichlet": lambda m, g, dt: m._sample_dirichlet(
        m.tensor(CONCENTRATIONS[:-1] * 2, dtype=dt).reshape(6, 3), generator=g),
    "binomial": lambda m, g, dt: m.binomial(
        m.tensor(COUNTS * 2, dtype=dt), m.tensor(PROBABILITIES[::-1] + PROBABILITIES, dtype=dt),
        generator=g),
    "binomial broadcast": lambda m, g, dt: m.binomial(
        m.tensor([[20.0], [400.0]], dtype=dt), m.tensor([0.1, 0.6, 0.97], dtype=dt),
        generator=g),
    # one alpha: trials computed at once (at 1.0, some with y <= 0 are sampled alone)
    "_standard_gamma of one alpha": lambda m, g, dt: (
        m.randn(1, generator=g, dtype=m.float64),
        m._standard_gamma(m.full((3000,), 1.0, dtype=dt), generator=g),
        m._standard_gamma(m.full((2, 500), 2.5, dtype=dt), generator=g),
        m.randn(3, generator=g, dtype=m.float64)),
    # one count and probability: BTRS's trials computed at once (mirrored too); the
    # cached normal stays on the generator
    "binomial of one count and probability": lambda m, g, dt: (
        m.randn(1, generator=g, dtype=m.float64),
        m.binomial(m.full((2000,), 40.0, dtype=dt), m.full((2000,), 0.3, dtype=dt),
                   generator=g),
        m.binomial(m.full((3, 100), 1000.0, dtype=dt), m.full((3, 100), 0.7, dtype=dt),
                   generator=g),
        m.randn(3, generator=g, dtype=m.float64)),
    "normal, gamma, normal (the cached normal is shared)": lambda m, g, dt: (
        m.randn(1, generator=g, dtype=m.float64),
        m._standard_gamma(m.tensor([4.0, 0.2], dtype=dt), generator=g),
        m.empty(3, dtype=m.float64).log_normal_(generator=g)),
}


@pytest.mark.filterwarnings("ignore:An output with one or more elements")  # torch's, broadcast
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(RECIPES))
def test_draws_equal_torch(name, dtype):
    torch = pytest.importorskip("torch")
    for seed in SEEDS:
        ours = gt.Generator().manual_seed(seed)
        theirs = torch.Generator().manual_seed(seed)
        got = RECIPES[name](gt, ours, getattr(gt, dtype))
        expected = RECIPES[name](torch, theirs, getattr(torch, dtype))
        for a, b in zip(*(r if isinstance(r, tuple) else (r,) for r in (got, expected))):
            assert a.dtype.is_floating_point and tuple(a.shape) == tuple(b.shape)
            assert a.stride() == b.stride()
            assert np.array_equal(a.numpy(), b.numpy()), f"{name}, seed {seed}"
        assert ours.get_state().numpy().tobytes() == theirs.get_state().numpy().tobytes()


def test_draws_have_the_right_distribution():
    g = gt.Generator().manual_seed(1)
    gamma = gt._standard_gamma(gt.full((20_000,), 0.5), generator=g).numpy()
    assert abs(gamma.mean() - 0.5) < 0.02 and abs(gamma.var() - 0.5) < 0.05
    counts = gt.binomial(gt.full((20_000,), 40.0), gt.full((20_000,), 0.3), generator=g)
    assert abs(counts.numpy().mean() - 12) < 0.1
    rows = gt._sample_dirichlet(gt.tensor([[1.0, 2.0, 7.0]]).expand(5000, 3), generator=g)
    assert np.allclose(rows.sum(-1).numpy(), 1, atol=1e-6)
    assert np.allclose(rows.mean(0).numpy(), [0.1, 0.2, 0.7], atol=0.01)


def _exact_gamma_grad(alpha, x, step=1e-6):
    """-(dF/dalpha) / pdf for the regularized lower incomplete gamma F."""
    from scipy import special, stats
    dcdf = (special.gammainc(alpha + step, x) - special.gammainc(alpha - step, x)) / (2 * step)
    return -dcdf / stats.gamma.pdf(x, alpha)


def _exact_beta_grad(x, alpha, total, step=1e-6):
    """-(dF/dalpha) / pdf / (1 - x) for the regularized incomplete beta F, beta fixed."""
    from scipy import special, stats
    beta = total - alpha
    dcdf = (special.betainc(alpha + step, beta, x) - special.betainc(alpha - step, beta, x))
    return -dcdf / (2 * step) / stats.beta.pdf(x, alpha, beta) / (1 - x)


def test_gradients_close_to_exact_in_every_region():
    alpha = np.array([0.2, 0.5, 2.0, 5.0, 3.0, 20.0, 20.0, 50.0, 9.0])
    x = np.array([0.05, 0.5, 0.3, 4.0, 1.5, 19.0, 30.0, 40.0, 3.0])   # small x, rational, saddle
    ours = gt._standard_gamma_grad(gt.tensor(alpha), gt.tensor(x)).numpy()
    assert np.allclose(ours, _exact_gamma_grad(alpha, x), rtol=5e-3)
    x = np.array([0.02, 0.97, 0.5, 0.3, 0.6, 0.45])
    alpha = np.array([0.5, 3.0, 10.0, 2.0, 4.0, 30.0])
    total = np.array([3.0, 4.0, 25.0, 5.0, 6.0, 70.0])
    ours = gt._dirichlet_grad(gt.tensor(x), gt.tensor(alpha), gt.tensor(total)).numpy()
    assert np.allclose(ours, _exact_beta_grad(x, alpha, total), rtol=5e-3)


def test_gradients_equal_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    alpha, x = rng.uniform(0.05, 30, 300), rng.uniform(0.01, 40, 300)
    ours = gt._standard_gamma_grad(gt.tensor(alpha), gt.tensor(x)).numpy()
    theirs = torch._standard_gamma_grad(torch.tensor(alpha), torch.tensor(x)).numpy()
    assert np.allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    x, alpha = rng.uniform(0.01, 0.99, 300), rng.uniform(0.1, 15, 300)
    total = alpha + rng.uniform(0.1, 15, 300)
    ours = gt._dirichlet_grad(gt.tensor(x), gt.tensor(alpha), gt.tensor(total)).numpy()
    theirs = torch._dirichlet_grad(*(torch.tensor(a) for a in (x, alpha, total))).numpy()
    assert np.allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_standard_gamma_backward_is_the_pathwise_derivative():
    alpha = gt.tensor([0.7, 3.0], dtype=gt.float64, requires_grad=True)
    sample = gt._standard_gamma(alpha, generator=gt.Generator().manual_seed(0))
    sample.sum().backward()
    expected = gt._standard_gamma_grad(alpha.detach(), sample.detach())
    assert type(sample.grad_fn).__name__ == "StandardGammaBackward0"
    assert gt.equal(alpha.grad, expected)


def test_samplers_without_gradient_refuse_backward():
    prob = gt.tensor([0.5], requires_grad=True)
    with pytest.raises(RuntimeError, match="the derivative for 'binomial' is not implemented"):
        gt.binomial(gt.tensor([3.0]), prob).sum().backward()
