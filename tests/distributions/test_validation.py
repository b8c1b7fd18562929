"""Bad input: invalid parameters and out-of-support values raise torch's ValueError
with its message when validation is on; with it off, torch's results come back."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

BAD_PARAMETERS = {
    "Normal scale": lambda m: m.distributions.Normal(m.tensor([0.0, 1.0]), m.tensor([1.0, -1.0])),
    "Bernoulli probs": lambda m: m.distributions.Bernoulli(probs=m.tensor([0.5, 1.5])),
    "Categorical probs": lambda m: m.distributions.Categorical(probs=m.tensor([[0.5, -0.5]])),
    "Gamma rate": lambda m: m.distributions.Gamma(m.tensor(1.0), m.tensor(0.0)),
    "Dirichlet concentration": lambda m: m.distributions.Dirichlet(m.tensor([1.0, -2.0])),
    "Uniform low >= high": lambda m: m.distributions.Uniform(m.tensor([0.0, 2.0]),
                                                             m.tensor([1.0, 1.0])),
    "Beta concentration": lambda m: m.distributions.Beta(m.tensor(-1.0), m.tensor(1.0)),
    "Geometric probs 0": lambda m: m.distributions.Geometric(m.tensor([0.0, 0.5])),
    "Binomial total_count": lambda m: m.distributions.Binomial(m.tensor([2.5]),
                                                               m.tensor([0.5])),
    "MultivariateNormal covariance": lambda m: m.distributions.MultivariateNormal(
        m.zeros(2), m.tensor([[1.0, 2.0], [2.0, 1.0]])),
    "both probs and logits": lambda m: m.distributions.Bernoulli(m.tensor(0.5), m.tensor(0.0)),
    "Categorical 0-dim": lambda m: m.distributions.Categorical(m.tensor(0.5)),
    "Dirichlet 0-dim": lambda m: m.distributions.Dirichlet(m.tensor(0.5)),
    "MultivariateNormal two matrices": lambda m: m.distributions.MultivariateNormal(
        m.zeros(2), m.eye(2), scale_tril=m.eye(2)),
    "Independent too many dims": lambda m: m.distributions.Independent(
        m.distributions.Normal(m.zeros(2), m.ones(2)), 2),
}

BAD_VALUES = {
    "Normal nan": (lambda m: m.distributions.Normal(0.0, 1.0), lambda m: m.tensor(float("nan"))),
    "Exponential negative": (lambda m: m.distributions.Exponential(m.tensor([1.0, 2.0])),
                             lambda m: m.tensor([1.0, -1.0])),
    "Bernoulli 0.5": (lambda m: m.distributions.Bernoulli(m.tensor(0.3)),
                      lambda m: m.tensor(0.5)),
    "Categorical out of range": (lambda m: m.distributions.Categorical(m.tensor([0.5, 0.5])),
                                 lambda m: m.tensor(2)),
    "Dirichlet off the simplex": (lambda m: m.distributions.Dirichlet(m.ones(3)),
                                  lambda m: m.tensor([0.5, 0.5, 0.5])),
    "wrong event shape": (lambda m: m.distributions.Dirichlet(m.ones(3)),
                          lambda m: m.tensor([0.5, 0.5])),
    "not broadcastable": (lambda m: m.distributions.Normal(m.zeros(3), m.ones(3)),
                          lambda m: m.zeros(2)),
    "not a tensor": (lambda m: m.distributions.Normal(0.0, 1.0), lambda m: 0.5),
    "Uniform outside": (lambda m: m.distributions.Uniform(0.0, 1.0), lambda m: m.tensor(1.5)),
}


def _error(fn):
    try:
        fn()
    except (ValueError, NotImplementedError, AssertionError) as error:
        return type(error).__name__, str(error)
    return None


@pytest.mark.parametrize("name", sorted(BAD_PARAMETERS))
def test_invalid_parameters_raise_torch_message(name):
    mine, theirs = _error(lambda: BAD_PARAMETERS[name](gt)), _error(
        lambda: BAD_PARAMETERS[name](torch))
    assert theirs is not None and mine == theirs


@pytest.mark.parametrize("name", sorted(BAD_VALUES))
def test_values_outside_the_support_raise_torch_message(name):
    make, value = BAD_VALUES[name]
    mine = _error(lambda: make(gt).log_prob(value(gt)))
    theirs = _error(lambda: make(torch).log_prob(value(torch)))
    assert theirs is not None and mine == theirs


@pytest.mark.parametrize("name", ["Exponential negative", "Bernoulli 0.5",
                                  "Dirichlet off the simplex", "Uniform outside"])
def test_without_validation_torch_results_come_back(name):
    make, value = BAD_VALUES[name]
    results = []
    for m in (gt, torch):
        m.distributions.Distribution.set_default_validate_args(False)
        try:
            results.append(make(m).log_prob(value(m)).numpy())
        finally:
            m.distributions.Distribution.set_default_validate_args(True)
    np.testing.assert_allclose(results[0], results[1], 1e-6, 1e-7)


def test_validate_args_false_turns_off_one_distribution():
    d = gt.distributions.Normal(gt.tensor(0.0), gt.tensor(-1.0), validate_args=False)
    assert gt.isnan(d.log_prob(gt.tensor(0.0)))
    with pytest.raises(ValueError):
        gt.distributions.Distribution.set_default_validate_args("yes")


def test_wishart_warns_as_torch_does():
    """torch 2.13 redraws the samples that pass its singularity check (and warns):
    glasstorch does the same, so the warning and the draws agree."""
    outcomes = []
    for m in (gt, torch):
        m.manual_seed(0)
        w = m.distributions.Wishart(m.tensor(3.0), covariance_matrix=m.eye(2))
        with pytest.warns(UserWarning, match="^Singular sample detected.$"):
            outcomes.append(w.rsample().numpy())
        with pytest.warns(UserWarning, match="^Low df values detected"):
            m.distributions.Wishart(m.tensor(1.5), covariance_matrix=m.eye(2))
    np.testing.assert_allclose(outcomes[0], outcomes[1], 1e-6, 1e-7)
