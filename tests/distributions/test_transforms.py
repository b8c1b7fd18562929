"""Transforms, constraints and the constraint registry against torch's."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _transforms(m):
    T = m.distributions.transforms
    loc = m.tensor([0.5, -1.0])
    return {
        "Exp": (T.ExpTransform(), m.tensor([0.3, -1.2])),
        "Power": (T.PowerTransform(m.tensor(2.5)), m.tensor([0.3, 1.7])),
        "Sigmoid": (T.SigmoidTransform(), m.tensor([0.3, -4.0])),
        "Softplus": (T.SoftplusTransform(), m.tensor([0.3, -2.0])),
        "Tanh": (T.TanhTransform(), m.tensor([0.3, -1.5])),
        "Abs": (T.AbsTransform(), m.tensor([0.3, -1.5])),
        "Affine": (T.AffineTransform(loc, m.tensor([2.0, -0.5])), m.tensor([0.3, -1.5])),
        "Affine event_dim": (T.AffineTransform(loc, 3.0, event_dim=1), m.tensor([0.3, -1.5])),
        "Softmax": (T.SoftmaxTransform(), m.tensor([0.3, -1.5, 2.0])),
        "StickBreaking": (T.StickBreakingTransform(), m.tensor([0.3, -1.5, 2.0])),
        "LowerCholesky": (T.LowerCholeskyTransform(), m.tensor([[0.3, 2.0], [-1.5, 0.1]])),
        "PositiveDefinite": (T.PositiveDefiniteTransform(),
                             m.tensor([[0.3, 2.0], [-1.5, 0.1]])),
        "CorrCholesky": (T.CorrCholeskyTransform(), m.tensor([0.3, -1.5, 0.8])),
        "Compose": (T.ComposeTransform([T.ExpTransform(), T.AffineTransform(1.0, 2.0)]),
                    m.tensor([0.3, -1.5])),
        "Cat": (T.CatTransform([T.ExpTransform(), T.identity_transform], dim=0,
                               lengths=[2, 1]), m.tensor([0.3, -1.5, 2.0])),
        "Stack": (T.StackTransform([T.ExpTransform(), T.SigmoidTransform()], dim=1),
                  m.tensor([[0.3, -1.5], [2.0, 0.1]])),
        "Reshape": (T.ReshapeTransform((4,), (2, 2)), m.tensor([0.3, -1.5, 2.0, 0.1])),
        "Independent": (T.IndependentTransform(T.ExpTransform(), 1),
                        m.tensor([[0.3, -1.5], [2.0, 0.1]])),
        "CumulativeDistribution": (
            T.CumulativeDistributionTransform(m.distributions.Normal(0.0, 1.0)),
            m.tensor([0.3, -1.5])),
        "inverse of Exp": (T.ExpTransform().inv, m.tensor([0.3, 1.5])),
    }


def _outcome(fn):
    try:
        value = fn()
    except (NotImplementedError, ValueError, AssertionError) as error:
        return type(error).__name__
    if isinstance(value, (gt.Tensor, torch.Tensor)):
        return value.detach().numpy()
    return repr(value) if hasattr(value, "check") or hasattr(value, "inv") else value


def _same(a, b, what):
    if isinstance(b, np.ndarray):
        np.testing.assert_allclose(a, b, 1e-5, 1e-6, err_msg=what)
    else:
        assert a == b, f"{what}: {a!r} != {b!r}"


@pytest.mark.parametrize("name", sorted(_transforms(torch)))
def test_transform_matches_torch(name):
    (mine, x), (theirs, tx) = _transforms(gt)[name], _transforms(torch)[name]
    y, ty = mine(x), theirs(tx)
    _same(y.numpy(), ty.numpy(), f"{name} forward")
    _same(_outcome(lambda: mine.inv(y)), _outcome(lambda: theirs.inv(ty)), f"{name} inverse")
    _same(_outcome(lambda: mine.log_abs_det_jacobian(x, y)),
          _outcome(lambda: theirs.log_abs_det_jacobian(tx, ty)), f"{name} log|det J|")
    for attribute in ("bijective", "sign", "domain", "codomain", "event_dim"):
        _same(_outcome(lambda: getattr(mine, attribute)),
              _outcome(lambda: getattr(theirs, attribute)), f"{name}.{attribute}")
    for method in ("forward_shape", "inverse_shape"):
        _same(_outcome(lambda: tuple(getattr(mine, method)(x.shape))),
              _outcome(lambda: tuple(getattr(theirs, method)(tx.shape))), f"{name}.{method}")
    assert repr(mine) == repr(theirs)


def test_cache_returns_the_input_a_sample_came_from():
    T = gt.distributions.transforms
    softmax = T.SoftmaxTransform(cache_size=1)
    x = gt.tensor([1.0, 2.0, 3.0])
    assert softmax.inv(softmax(x)) is x
    assert not gt.equal(T.SoftmaxTransform().inv(T.SoftmaxTransform()(x)), x)
    with pytest.raises(ValueError, match="^cache_size must be 0 or 1$"):
        T.ExpTransform(cache_size=2)
    assert T.ExpTransform().with_cache(1)._cache_size == 1
    assert T.ExpTransform() == T.ExpTransform() and T.ExpTransform().inv.inv == T.ExpTransform()


def _constraint_cases(m):
    C = m.distributions.constraints
    values = {
        0: m.tensor([-1.0, 0.0, 0.5, 1.0, 2.0, 3.5, float("nan")]),
        1: m.tensor([[0.2, 0.8], [0.5, 0.6], [1.0, 0.0], [-0.1, 1.1]]),
        2: m.stack([m.eye(2), m.tensor([[1.0, 0.0], [2.0, 1.0]]),
                    m.tensor([[2.0, 1.0], [1.0, 2.0]]), m.tensor([[0.6, 0.0], [0.6, 0.8]]),
                    m.tensor([[1.0, 0.0], [0.6, 0.8]]), m.tensor([[1.0, 3.0], [3.0, 1.0]])]),
    }
    names = [n for n in C.__all__ if isinstance(getattr(C, n), C.Constraint)]
    cases = {n: getattr(C, n) for n in names if n != "dependent"}
    cases.update({
        "greater_than(1)": C.greater_than(1.0), "greater_than_eq(1)": C.greater_than_eq(1.0),
        "less_than(1)": C.less_than(1.0), "interval(-1, 2)": C.interval(-1.0, 2.0),
        "half_open_interval(-1, 2)": C.half_open_interval(-1.0, 2.0),
        "integer_interval(0, 2)": C.integer_interval(0, 2), "multinomial(1)": C.multinomial(1),
        "independent(positive, 1)": C.independent(C.positive, 1),
        "cat": C.cat([C.real, C.positive], 1, [1, 1]), "stack": C.stack([C.real, C.positive], 1),
    })
    return cases, values


@pytest.mark.parametrize("name", sorted(_constraint_cases(torch)[0]))
def test_constraint_check_and_registry_match_torch(name):
    (mine, values), (theirs, their_values) = _constraint_cases(gt), _constraint_cases(torch)
    mine, theirs = mine[name], theirs[name]
    assert repr(mine) == repr(theirs)
    for key in ("is_discrete", "event_dim"):
        assert getattr(mine, key) == getattr(theirs, key)
    for dim in values:
        if dim >= theirs.event_dim and (dim == theirs.event_dim or theirs.event_dim == 0):
            _same(_outcome(lambda: mine.check(values[dim])),
                  _outcome(lambda: theirs.check(their_values[dim])), f"{name} at {dim}")
    for registry in ("biject_to", "transform_to"):
        _same(_outcome(lambda: getattr(gt.distributions, registry)(mine)),
              _outcome(lambda: getattr(torch.distributions, registry)(theirs)),
              f"{registry}({name})")
    try:
        torch.distributions.biject_to(theirs)
    except NotImplementedError:
        return
    x = {1: gt.tensor([[0.3, -1.5, 2.0]]), 2: gt.tensor([[[0.3, 0.0], [2.0, -0.4]]])}
    unconstrained = x.get(mine.event_dim, gt.tensor([[0.3, -1.5], [2.0, -0.1]]))
    if name == "corr_cholesky":
        unconstrained = x[1]
    y = gt.distributions.biject_to(mine)(unconstrained)
    assert bool(mine.check(y).all())


def test_dependent_constraints():
    C = gt.distributions.constraints
    assert C.is_dependent(C.dependent) and not C.is_dependent(C.real)
    with pytest.raises(ValueError, match="^Cannot determine validity of dependent constraint$"):
        C.dependent.check(gt.zeros(1))
    with pytest.raises(NotImplementedError, match="cannot be determined statically"):
        C.dependent.event_dim
    assert C.dependent(is_discrete=True, event_dim=1).event_dim == 1
    assert C.is_dependent(gt.distributions.Uniform.support)
