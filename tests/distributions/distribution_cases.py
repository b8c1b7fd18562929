"""The distributions the differential tests build, each in a few parameter settings.

A case is a function of the library (glasstorch or torch) and a dtype returning
``(distribution, values)``: the distribution, and values in its support at which
log_prob, cdf and icdf are compared (icdf at probabilities in (0, 1)). Parameters
are leaf tensors with requires_grad, so the tests can differentiate through them.
"""


def _t(m, data, dtype, grad=True):
    return m.tensor(data, dtype=dtype, requires_grad=grad)


def _normal(m, dt):
    return m.distributions.Normal(_t(m, [0.0, 1.5, -2.0], dt), _t(m, [1.0, 0.5, 3.0], dt)), \
        m.tensor([[0.3, -1.0, 2.0], [1.0, 1.5, -7.0]], dtype=dt)


def _normal_scalar(m, dt):
    return m.distributions.Normal(0.5, 2.0), m.tensor([0.1, -3.0], dtype=m.float32)


CASES = {
    "Normal": _normal,
    "Normal scalars": _normal_scalar,
    "Uniform": lambda m, dt: (m.distributions.Uniform(_t(m, [0.0, -2.0], dt),
                                                      _t(m, [1.0, 3.0], dt)),
                              m.tensor([[0.25, 2.5], [0.0, -2.0]], dtype=dt)),
    "Exponential": lambda m, dt: (m.distributions.Exponential(_t(m, [0.5, 2.0, 4.0], dt)),
                                  m.tensor([0.1, 1.0, 3.0], dtype=dt)),
    "Laplace": lambda m, dt: (m.distributions.Laplace(_t(m, [0.0, 1.0], dt),
                                                      _t(m, [1.0, 2.5], dt)),
                              m.tensor([[-1.0, 3.0], [0.5, 1.0]], dtype=dt)),
    "Cauchy": lambda m, dt: (m.distributions.Cauchy(_t(m, [0.0, 1.0], dt),
                                                    _t(m, [1.0, 0.3], dt)),
                             m.tensor([0.4, -2.0], dtype=dt)),
    "Gamma": lambda m, dt: (m.distributions.Gamma(_t(m, [0.5, 2.0, 7.0], dt),
                                                  _t(m, [1.0, 3.0, 0.5], dt)),
                            m.tensor([0.2, 1.0, 12.0], dtype=dt)),
    "Chi2": lambda m, dt: (m.distributions.Chi2(_t(m, [1.0, 4.5], dt)),
                           m.tensor([0.5, 3.0], dtype=dt)),
    "Beta": lambda m, dt: (m.distributions.Beta(_t(m, [0.5, 2.0, 5.0], dt),
                                                _t(m, [0.7, 3.0, 1.5], dt)),
                           m.tensor([0.2, 0.5, 0.9], dtype=dt)),
    "Dirichlet": lambda m, dt: (m.distributions.Dirichlet(_t(m, [[0.5, 2.0, 1.0],
                                                                  [3.0, 0.8, 4.0]], dt)),
                                m.tensor([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], dtype=dt)),
    "Bernoulli probs": lambda m, dt: (m.distributions.Bernoulli(probs=_t(m, [0.2, 0.5, 0.9], dt)),
                                      m.tensor([1.0, 0.0, 1.0], dtype=dt)),
    "Bernoulli logits": lambda m, dt: (m.distributions.Bernoulli(logits=_t(m, [-1.0, 0.3], dt)),
                                       m.tensor([0.0, 1.0], dtype=dt)),
    "Categorical": lambda m, dt: (m.distributions.Categorical(
        probs=_t(m, [[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], dt)), m.tensor([2, 0])),
    "Categorical logits": lambda m, dt: (m.distributions.Categorical(
        logits=_t(m, [1.0, -0.5, 0.2, 3.0], dt)), m.tensor([3, 1])),
    "Binomial": lambda m, dt: (m.distributions.Binomial(
        m.tensor([10.0, 25.0], dtype=dt), probs=_t(m, [0.3, 0.6], dt)),
        m.tensor([3.0, 20.0], dtype=dt)),
    "Binomial homogeneous": lambda m, dt: (m.distributions.Binomial(
        6, logits=_t(m, [0.3, -1.2], dt)), m.tensor([2.0, 6.0], dtype=dt)),
    "Poisson": lambda m, dt: (m.distributions.Poisson(_t(m, [0.5, 4.0, 30.0], dt)),
                              m.tensor([1.0, 3.0, 28.0], dtype=dt)),
    "Geometric": lambda m, dt: (m.distributions.Geometric(_t(m, [0.2, 0.7], dt)),
                                m.tensor([3.0, 0.0], dtype=dt)),
    "NegativeBinomial": lambda m, dt: (m.distributions.NegativeBinomial(
        _t(m, [3.0, 7.5], dt), probs=_t(m, [0.4, 0.2], dt)), m.tensor([2.0, 0.0], dtype=dt)),
    "Multinomial": lambda m, dt: (m.distributions.Multinomial(
        5, probs=_t(m, [[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]], dt)),
        m.tensor([[1.0, 1.0, 3.0], [5.0, 0.0, 0.0]], dtype=dt)),
    "OneHotCategorical": lambda m, dt: (m.distributions.OneHotCategorical(
        _t(m, [[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]], dt)),
        m.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], dtype=dt)),
    "OneHotCategoricalStraightThrough": lambda m, dt: (
        m.distributions.OneHotCategoricalStraightThrough(logits=_t(m, [0.5, -1.0, 2.0], dt)),
        m.tensor([0.0, 0.0, 1.0], dtype=dt)),
    "LogNormal": lambda m, dt: (m.distributions.LogNormal(_t(m, [0.0, 1.0], dt),
                                                          _t(m, [0.5, 1.5], dt)),
                                m.tensor([0.7, 4.0], dtype=dt)),
    "HalfNormal": lambda m, dt: (m.distributions.HalfNormal(_t(m, [1.0, 2.5], dt)),
                                 m.tensor([0.3, 4.0], dtype=dt)),
    "HalfCauchy": lambda m, dt: (m.distributions.HalfCauchy(_t(m, [1.0, 0.4], dt)),
                                 m.tensor([0.3, 4.0], dtype=dt)),
    "Gumbel": lambda m, dt: (m.distributions.Gumbel(_t(m, [0.0, 2.0], dt),
                                                    _t(m, [1.0, 0.5], dt)),
                             m.tensor([0.3, 4.0], dtype=dt)),
    "Pareto": lambda m, dt: (m.distributions.Pareto(_t(m, [1.0, 2.0], dt),
                                                    _t(m, [3.0, 1.5], dt)),
                             m.tensor([1.5, 4.0], dtype=dt)),
    "Weibull": lambda m, dt: (m.distributions.Weibull(_t(m, [1.0, 2.0], dt),
                                                      _t(m, [0.8, 3.0], dt)),
                              m.tensor([0.5, 2.5], dtype=dt)),
    "Kumaraswamy": lambda m, dt: (m.distributions.Kumaraswamy(_t(m, [2.0, 0.5], dt),
                                                              _t(m, [3.0, 1.5], dt)),
                                  m.tensor([0.3, 0.8], dtype=dt)),
    "InverseGamma": lambda m, dt: (m.distributions.InverseGamma(_t(m, [3.0, 1.5], dt),
                                                                _t(m, [2.0, 0.5], dt)),
                                   m.tensor([0.8, 2.0], dtype=dt)),
    "LogisticNormal": lambda m, dt: (m.distributions.LogisticNormal(
        _t(m, [0.0, 1.0, -0.5], dt), _t(m, [1.0, 0.5, 2.0], dt)),
        m.tensor([0.1, 0.4, 0.2, 0.3], dtype=dt)),
    "RelaxedBernoulli": lambda m, dt: (m.distributions.RelaxedBernoulli(
        m.tensor(0.7, dtype=dt), probs=_t(m, [0.2, 0.6], dt)), m.tensor([0.3, 0.9], dtype=dt)),
    "RelaxedOneHotCategorical": lambda m, dt: (m.distributions.RelaxedOneHotCategorical(
        m.tensor(0.5, dtype=dt), probs=_t(m, [0.2, 0.3, 0.5], dt)),
        m.tensor([0.1, 0.6, 0.3], dtype=dt)),
    "StudentT": lambda m, dt: (m.distributions.StudentT(_t(m, [0.8, 1.5, 5.0], dt),
                                                        _t(m, [0.0, 1.0, -1.0], dt),
                                                        _t(m, [1.0, 2.0, 0.5], dt)),
                               m.tensor([0.3, -1.0, 2.0], dtype=dt)),
    "FisherSnedecor": lambda m, dt: (m.distributions.FisherSnedecor(_t(m, [1.0, 5.0], dt),
                                                                    _t(m, [3.0, 8.0], dt)),
                                     m.tensor([0.5, 2.0], dtype=dt)),
    "ContinuousBernoulli": lambda m, dt: (m.distributions.ContinuousBernoulli(
        _t(m, [0.2, 0.4995, 0.8], dt)), m.tensor([0.3, 0.5, 0.9], dtype=dt)),
    "VonMises": lambda m, dt: (m.distributions.VonMises(_t(m, [0.0, 1.0, -2.0], dt),
                                                        _t(m, [0.5, 4.0, 10.0], dt)),
                               m.tensor([0.3, 1.2, -3.0], dtype=dt)),
    "GeneralizedPareto": lambda m, dt: (m.distributions.GeneralizedPareto(
        _t(m, [0.0, 1.0, 0.5], dt), _t(m, [1.0, 2.0, 0.5], dt), _t(m, [0.0, 0.3, -0.2], dt)),
        m.tensor([0.5, 2.0, 1.2], dtype=dt)),
    "Independent": lambda m, dt: (m.distributions.Independent(m.distributions.Normal(
        _t(m, [[0.0, 1.0], [2.0, -1.0]], dt), _t(m, [[1.0, 2.0], [0.5, 1.0]], dt)), 1),
        m.tensor([[0.3, 1.0], [2.0, 0.0]], dtype=dt)),
    "MixtureSameFamily": lambda m, dt: (m.distributions.MixtureSameFamily(
        m.distributions.Categorical(_t(m, [0.3, 0.7], dt)),
        m.distributions.Normal(_t(m, [-1.0, 2.0], dt), _t(m, [0.5, 1.0], dt))),
        m.tensor([0.3, -1.0, 2.5], dtype=dt)),
    "TransformedDistribution": lambda m, dt: (m.distributions.TransformedDistribution(
        m.distributions.Uniform(m.zeros(2, dtype=dt), m.ones(2, dtype=dt)),
        [m.distributions.transforms.SigmoidTransform().inv,
         m.distributions.transforms.AffineTransform(_t(m, [1.0, 2.0], dt), 3.0)]),
        m.tensor([0.3, 1.5], dtype=dt)),
}

LINALG_CASES = {
    "MultivariateNormal covariance": lambda m, dt: (m.distributions.MultivariateNormal(
        _t(m, [0.0, 1.0], dt), covariance_matrix=_t(m, [[2.0, 0.3], [0.3, 0.5]], dt)),
        m.tensor([[0.3, 1.0], [2.0, -1.0]], dtype=dt)),
    "MultivariateNormal scale_tril": lambda m, dt: (m.distributions.MultivariateNormal(
        _t(m, [[0.0, 1.0, 2.0], [1.0, 0.0, -1.0]], dt),
        scale_tril=_t(m, [[1.0, 0.0, 0.0], [0.5, 2.0, 0.0], [-0.3, 0.2, 0.7]], dt)),
        m.tensor([0.3, 1.0, -0.5], dtype=dt)),
    "MultivariateNormal precision": lambda m, dt: (m.distributions.MultivariateNormal(
        _t(m, [0.0, 1.0], dt), precision_matrix=_t(m, [[2.0, -0.3], [-0.3, 0.5]], dt)),
        m.tensor([0.3, 1.0], dtype=dt)),
    "LowRankMultivariateNormal": lambda m, dt: (m.distributions.LowRankMultivariateNormal(
        _t(m, [0.0, 1.0, 2.0], dt), _t(m, [[1.0], [0.5], [-0.2]], dt),
        _t(m, [1.0, 0.5, 2.0], dt)), m.tensor([0.3, 1.0, 2.5], dtype=dt)),
    "Wishart": lambda m, dt: (m.distributions.Wishart(
        _t(m, 4.0, dt), covariance_matrix=_t(m, [[2.0, 0.3], [0.3, 0.5]], dt)),
        m.tensor([[3.0, 0.5], [0.5, 1.0]], dtype=dt)),
    "LKJCholesky": lambda m, dt: (m.distributions.LKJCholesky(3, _t(m, [0.5, 2.0], dt)),
                                  m.tensor([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0],
                                            [0.0, 0.6, 0.8]], dtype=dt)),
}
