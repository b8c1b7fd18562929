"""Every distribution against torch's: properties, densities, draws, gradients.

Each case of `distribution_cases.py` is built in both libraries from the same numbers;
every property and method is compared (values, or the exception type when torch
raises), log_prob / cdf / icdf at fixed values, sample shapes and the seeded draws
(equal seeds give equal numbers), and the gradients of log_prob and of rsample with
respect to each parameter.
"""
import numpy as np
import pytest

import glasstorch as gt
from distribution_cases import CASES, LINALG_CASES

torch = pytest.importorskip("torch")

DTYPES = ("float32", "float64")
PROPERTIES = ("mean", "mode", "variance", "stddev", "batch_shape", "event_shape",
              "has_rsample", "has_enumerate_support", "support", "arg_constraints")
METHODS = ("entropy", "perplexity")
ALL_CASES = {**CASES, **LINALG_CASES}


def _build(name, module, dtype):
    module.manual_seed(0)
    return ALL_CASES[name](module, getattr(module, dtype))


def _outcome(fn):
    """What `fn()` gives: its value as plain data, or the exception's type name."""
    try:
        value = fn()
    except (NotImplementedError, ValueError, RuntimeError, TypeError) as error:
        return type(error).__name__
    return _plain(value)


def _plain(value):
    if isinstance(value, (gt.Tensor, torch.Tensor)):
        return value.detach().numpy()
    if isinstance(value, dict):
        return {k: repr(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)) and not isinstance(value, (gt.Size, torch.Size)):
        return [_plain(v) for v in value]
    if hasattr(value, "check"):
        return repr(value)
    return tuple(value) if isinstance(value, (gt.Size, torch.Size)) else value


def _assert_same(mine, theirs, what, dtype, exact=False):
    if isinstance(theirs, np.ndarray):
        assert isinstance(mine, np.ndarray), f"{what}: {mine!r}"
        assert mine.shape == theirs.shape and mine.dtype == theirs.dtype, what
        tolerance = (1e-5, 1e-6) if dtype == "float32" else (1e-10, 1e-12)
        if exact:
            assert np.array_equal(mine, theirs, equal_nan=True), what
        else:
            np.testing.assert_allclose(mine, theirs, *tolerance, equal_nan=True, err_msg=what)
    elif isinstance(theirs, list):
        assert len(mine) == len(theirs), what
        for a, b in zip(mine, theirs):
            _assert_same(a, b, what, dtype, exact)
    else:
        assert mine == theirs, f"{what}: {mine!r} != {theirs!r}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_properties_and_densities(name, dtype):
    (mine, my_values), (theirs, their_values) = _build(name, gt, dtype), _build(name, torch, dtype)
    for prop in PROPERTIES:
        _assert_same(_outcome(lambda: getattr(mine, prop)),
                     _outcome(lambda: getattr(theirs, prop)), f"{name}.{prop}", dtype)
    for method in METHODS:
        _assert_same(_outcome(getattr(mine, method)), _outcome(getattr(theirs, method)),
                     f"{name}.{method}()", dtype)
    for method in ("log_prob", "cdf"):
        _assert_same(_outcome(lambda: getattr(mine, method)(my_values)),
                     _outcome(lambda: getattr(theirs, method)(their_values)),
                     f"{name}.{method}", dtype)
    probabilities = (0.1, 0.5, 0.93)
    _assert_same(_outcome(lambda: mine.icdf(gt.tensor(probabilities, dtype=getattr(gt, dtype)))),
                 _outcome(lambda: theirs.icdf(torch.tensor(probabilities,
                                                           dtype=getattr(torch, dtype)))),
                 f"{name}.icdf", dtype)
    for expand in (True, False):
        _assert_same(_outcome(lambda: mine.enumerate_support(expand)),
                     _outcome(lambda: theirs.enumerate_support(expand)),
                     f"{name}.enumerate_support({expand})", dtype)
    assert repr(mine) == repr(theirs)


@pytest.mark.filterwarnings("ignore:Singular sample detected")   # Wishart, both libraries
@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_expand(name):
    """expand: the new batch shape, shared parameters, densities of the expanded batch."""
    (mine, my_values), (theirs, their_values) = (_build(name, gt, "float64"),
                                                 _build(name, torch, "float64"))
    shape = (2,) + tuple(theirs.batch_shape)
    mine, theirs = mine.expand(shape), theirs.expand(shape)
    assert type(mine).__name__ == type(theirs).__name__
    assert tuple(mine.batch_shape) == shape and tuple(mine.event_shape) == tuple(
        theirs.event_shape)
    assert mine._validate_args == theirs._validate_args
    _assert_same(_outcome(lambda: mine.log_prob(my_values)),
                 _outcome(lambda: theirs.log_prob(their_values)), f"{name} expanded", "float64")
    _assert_same(_outcome(lambda: mine.mean), _outcome(lambda: theirs.mean),
                 f"{name} expanded mean", "float64")
    gt.manual_seed(1)
    torch.manual_seed(1)
    _assert_same(_outcome(lambda: mine.sample((2,))), _outcome(lambda: theirs.sample((2,))),
                 f"{name} expanded sample", "float64")


@pytest.mark.filterwarnings("ignore:Singular sample detected")
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_seeded_draws_equal_torch(name, dtype):
    (mine, _), (theirs, _) = _build(name, gt, dtype), _build(name, torch, dtype)
    for shape in ((), (3,), (2, 2)):
        gt.manual_seed(5)
        torch.manual_seed(5)
        drawn = _outcome(lambda: mine.sample(shape)), _outcome(lambda: theirs.sample(shape))
        _assert_same(*drawn, f"{name}.sample({shape})", dtype)
        again = _outcome(lambda: mine.rsample(shape)), _outcome(lambda: theirs.rsample(shape))
        _assert_same(*again, f"{name}.rsample({shape})", dtype)
    assert gt.get_rng_state().numpy().tobytes() == torch.get_rng_state().numpy().tobytes()


def _leaves(distribution, module):
    """The parameter tensors requiring grad reachable from the distribution's
    attributes (base distributions included), by name, in a stable order."""
    found = {}
    stack = [("", distribution)]
    while stack:
        prefix, obj = stack.pop()
        for key, value in sorted(vars(obj).items()):
            if isinstance(value, module.Tensor) and value.requires_grad:
                found.setdefault(prefix + key, value)
            elif isinstance(value, module.distributions.Distribution):
                stack.append((prefix + key + ".", value))
    return found


@pytest.mark.filterwarnings("ignore:Singular sample detected")
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_gradients(name, dtype):
    """d log_prob(values) / d parameters, and d rsample / d parameters (seeded)."""
    (mine, my_values), (theirs, their_values) = _build(name, gt, dtype), _build(name, torch, dtype)
    for kind in ("log_prob", "rsample"):
        gt.manual_seed(3)
        torch.manual_seed(3)
        outcomes = []
        for module, d, values in ((gt, mine, my_values), (torch, theirs, their_values)):
            def run():
                out = d.log_prob(values) if kind == "log_prob" else d.rsample((2,))
                weights = module.linspace(0.5, 1.5, out.numel(), dtype=out.dtype)
                leaves = _leaves(d, module)
                grads = module.autograd.grad((out * weights.reshape(out.shape)).sum(),
                                             list(leaves.values()), allow_unused=True)
                return [None if g is None else g for g in grads]
            outcomes.append(_outcome(run))
        if isinstance(outcomes[1], str):
            assert outcomes[0] == outcomes[1]
            continue
        assert len(outcomes[0]) == len(outcomes[1])
        for a, b in zip(*outcomes):
            if b is None:
                assert a is None or not np.any(a)
            else:
                tolerance = (2e-4, 1e-5) if dtype == "float32" else (1e-8, 1e-10)
                np.testing.assert_allclose(a, b, *tolerance, err_msg=f"{name} d{kind}")
