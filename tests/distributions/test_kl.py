"""kl_divergence for every pair torch registers, against torch; register_kl's dispatch."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

def _kl_instance(m, name, dt, k):
    """An instance of class `name` with batch shape (2,); `k` (0 or 1) moves the
    parameters, so that p and q differ. Supports are chosen so that most cross-family
    divergences are finite (a uniform inside (0, 1), Pareto tails light enough)."""
    D = m.distributions
    t = lambda *v: m.tensor([x * (1 + 0.2 * k) for x in v], dtype=dt)   # noqa: E731
    makers = {
        "Bernoulli": lambda: D.Bernoulli(t(0.3, 0.6)),
        "Beta": lambda: D.Beta(t(0.8, 2.0), t(1.5, 3.0)),
        "Binomial": lambda: D.Binomial(8 - k, t(0.3, 0.6)),
        "Categorical": lambda: D.Categorical(t(0.2, 0.3, 0.5).expand(2, 3)),
        "Cauchy": lambda: D.Cauchy(t(0.0, 1.0), t(1.0, 0.5)),
        "ContinuousBernoulli": lambda: D.ContinuousBernoulli(t(0.3, 0.7)),
        "Dirichlet": lambda: D.Dirichlet(t(0.5, 2.0, 1.0).expand(2, 3)),
        "Exponential": lambda: D.Exponential(t(0.5, 2.0)),
        "ExponentialFamily": lambda: D.Gamma(t(0.5, 2.0), t(1.0, 3.0)),
        "Gamma": lambda: D.Gamma(t(0.5, 2.0), t(1.0, 3.0)),
        "Geometric": lambda: D.Geometric(t(0.3, 0.6)),
        "Gumbel": lambda: D.Gumbel(t(0.5, 1.0), t(1.0, 2.0)),
        "HalfNormal": lambda: D.HalfNormal(t(1.0, 2.0)),
        "Independent": lambda: D.Independent(D.Normal(t(0.0, 1.0), t(1.0, 2.0)), 1),
        "Laplace": lambda: D.Laplace(t(0.0, 1.0), t(1.0, 0.5)),
        "LowRankMultivariateNormal": lambda: D.LowRankMultivariateNormal(
            t(0.0, 1.0), t(1.0, 0.5).reshape(2, 1), t(1.0, 2.0)),
        "MultivariateNormal": lambda: D.MultivariateNormal(
            t(0.0, 1.0), scale_tril=m.tensor([[1.0, 0.0], [0.3, 2.0]], dtype=dt) * (1 + k)),
        "Normal": lambda: D.Normal(t(0.2, 1.0), t(1.0, 0.5)),
        "OneHotCategorical": lambda: D.OneHotCategorical(t(0.2, 0.3, 0.5).expand(2, 3)),
        "Pareto": lambda: D.Pareto(t(1.0, 2.0), t(3.0, 4.0)),
        "Poisson": lambda: D.Poisson(t(0.5, 4.0)),
        "TransformedDistribution": lambda: D.LogNormal(t(0.0, 1.0), t(1.0, 0.5)),
        "Uniform": lambda: D.Uniform(t(0.1, 0.2), t(0.6, 0.7)),
    }
    return makers[name]()


def _pairs():
    from torch.distributions.kl import _KL_REGISTRY
    return sorted((p.__name__, q.__name__) for p, q in _KL_REGISTRY)


def _value(module, fn):
    try:
        result = fn()
    except (NotImplementedError, ValueError, RuntimeError) as error:
        return type(error).__name__
    return result.detach().numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_every_registered_pair(dtype):
    import glasstorch.distributions.kl as ours
    from torch.distributions.kl import _KL_REGISTRY
    mine = {(p.__name__, q.__name__) for p, q in ours._KL_REGISTRY}
    assert mine == {(p.__name__, q.__name__) for p, q in _KL_REGISTRY}
    compared = 0
    for p_name, q_name in _pairs():
        results = []
        for module in (gt, torch):
            p = _kl_instance(module, p_name, getattr(module, dtype), 0)
            q = _kl_instance(module, q_name, getattr(module, dtype), 1)
            results.append(_value(module, lambda: module.distributions.kl_divergence(p, q)))
        mine_value, theirs = results
        if isinstance(theirs, str):
            assert mine_value == theirs, (p_name, q_name)
            continue
        tolerance = (1e-4, 1e-5) if dtype == "float32" else (1e-9, 1e-11)
        np.testing.assert_allclose(mine_value, theirs, *tolerance, err_msg=f"{p_name}, {q_name}")
        compared += np.isfinite(theirs).any()
    assert compared >= 45


def test_missing_pair_raises_torch_error():
    p = gt.distributions.VonMises(gt.tensor(0.0), gt.tensor(1.0))
    with pytest.raises(NotImplementedError, match=r"^No KL\(p \|\| q\) is implemented for p "
                       r"type VonMises and q type Normal$"):
        gt.distributions.kl_divergence(p, gt.distributions.Normal(0.0, 1.0))


def test_register_kl_prefers_the_most_specific_pair():
    D = gt.distributions

    class MyNormal(D.Normal):
        pass

    @D.register_kl(MyNormal, D.Normal)
    def _my_kl(p, q):
        return gt.tensor(42.0)

    try:
        assert D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0)).item() == 42.0
        assert D.kl_divergence(D.Normal(0.0, 1.0), MyNormal(1.0, 1.0)).item() == 0.5
    finally:
        del D.kl._KL_REGISTRY[MyNormal, D.Normal]
        D.kl._KL_MEMOIZE.clear()


def test_register_kl_refuses_non_distributions():
    with pytest.raises(TypeError):
        gt.distributions.register_kl(int, gt.distributions.Normal)


def _exp_family(m, k):
    D = m.distributions
    dt = m.float64
    return {
        "Normal": D.Normal(m.tensor([0.0, 1.0], dtype=dt), m.tensor([1.0, 2.0], dtype=dt) + k),
        "Gamma": D.Gamma(m.tensor([0.5, 3.0], dtype=dt) + k, m.tensor([1.0, 2.0], dtype=dt)),
        "Exponential": D.Exponential(m.tensor([0.5, 3.0], dtype=dt) + k),
        "Wishart": D.Wishart(m.tensor(3.0, dtype=dt) + k,
                             m.tensor([[2.0, 0.3], [0.3, 1.0]], dtype=dt)),
    }


@pytest.mark.parametrize("name", ["Normal", "Gamma", "Exponential", "Wishart"])
def test_exponential_family_entropy_and_bregman_kl(name):
    """The entropy from the log normaliser (ExponentialFamily.entropy, which the
    subclasses override) and, for Wishart, the Bregman-divergence KL."""
    results = []
    for m in (gt, torch):
        p, q = _exp_family(m, 0)[name], _exp_family(m, 1)[name]
        entropy = m.distributions.ExponentialFamily.entropy(p)
        kl = m.distributions.kl.kl_divergence(p, q)
        results.append((entropy.detach().numpy(), kl.detach().numpy()))
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, 1e-9, 1e-11)
