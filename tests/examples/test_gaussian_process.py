"""A float64 Gaussian-process regression, written as a torch user writes it, run on torch
and on glasstorch: an RBF kernel from cdist, its Cholesky factor, the marginal likelihood
through cholesky_solve, solve_triangular and logdet / slogdet, the hyper-parameters fitted
by gradient descent, then the posterior mean and variance. Both give the same numbers."""
import math

import numpy as np
import pytest

import glasstorch

torch_ = pytest.importorskip("torch")


def fit_and_predict(torch, steps: int = 40):
    """The GP program; `torch` is the library it runs on."""
    generator = np.random.default_rng(0)
    x = torch.tensor(generator.uniform(-3, 3, (30, 1)))
    y = torch.tensor(np.sin(2 * x.numpy()[:, 0]) + 0.1 * generator.standard_normal(30))
    test = torch.linspace(-3, 3, 7, dtype=torch.float64).unsqueeze(-1)
    log_scale = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    log_amplitude = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    log_noise = torch.tensor(-1.0, dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.Adam([log_scale, log_amplitude, log_noise], lr=0.05)

    def kernel(a, b):
        distances = torch.cdist(a / log_scale.exp(), b / log_scale.exp())
        return log_amplitude.exp() ** 2 * torch.exp(-0.5 * distances ** 2)

    def negative_log_likelihood():
        K = kernel(x, x) + (log_noise.exp() ** 2 + 1e-6) * torch.eye(30, dtype=torch.float64)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
        fit = 0.5 * (y.unsqueeze(-1) * alpha).sum()
        sign, logabsdet = torch.linalg.slogdet(K)
        assert sign.item() == 1.0
        complexity = 0.5 * torch.logdet(K)
        return fit + complexity + 15 * math.log(2 * math.pi), L, logabsdet

    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss, _, _ = negative_log_likelihood()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    with torch.no_grad():
        _, L, logabsdet = negative_log_likelihood()
        K_star = kernel(test, x)
        v = torch.linalg.solve_triangular(L, K_star.mT, upper=False)
        mean = K_star @ torch.cholesky_solve(y.unsqueeze(-1), L)
        variance = log_amplitude.exp() ** 2 - (v * v).sum(0)
    parameters = [p.item() for p in (log_scale, log_amplitude, log_noise)]
    return (np.array(losses), np.array(parameters), mean.squeeze(-1).numpy(),
            variance.numpy(), logabsdet.item())


def test_gaussian_process_regression_matches_torch():
    expected = fit_and_predict(torch_)
    actual = fit_and_predict(glasstorch)
    assert expected[0][-1] < expected[0][0] - 5          # the fit does learn
    for e, a in zip(expected, actual):
        np.testing.assert_allclose(a, e, rtol=1e-9, atol=1e-10)
