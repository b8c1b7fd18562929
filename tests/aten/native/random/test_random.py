"""Random streams: glasstorch's draws are torch's, bit for bit.

The differential tests run one recipe (a function of the library and a generator)
through glasstorch and real torch from the same seed, and compare the results'
bytes, dtypes, shapes and strides, and the generators' state bytes afterwards (so
the number of raw words drawn matches too). They skip without torch. The tests
below them need no torch: determinism, state round trips, statistics.
"""
import math

import numpy as np
import pytest

import glasstorch as gt

SEEDS = (0, 7, 2 ** 40 + 3)


def _t(module, dtype_name):
    return getattr(module, dtype_name)


def _transposed(m, rows, cols, dtype="float32"):
    return m.zeros(cols, rows, dtype=_t(m, dtype)).t()


# Each recipe: name -> function(module, generator) returning a tensor (or a tuple).
RECIPES = {}


def recipe(name):
    def register(fn):
        RECIPES[name] = fn
        return fn
    return register


for _n in (1, 5, 15, 16, 17, 100, 1000):
    for _dt in ("float32", "float64", "float16", "bfloat16"):
        RECIPES[f"rand-{_n}-{_dt}"] = (
            lambda m, g, n=_n, dt=_dt: m.rand(n, generator=g, dtype=_t(m, dt)))
        RECIPES[f"randn-{_n}-{_dt}"] = (
            lambda m, g, n=_n, dt=_dt: m.randn(n, generator=g, dtype=_t(m, dt)))
    RECIPES[f"randperm-{_n}"] = lambda m, g, n=_n: m.randperm(n, generator=g)
for _dt in ("int64", "int32", "int16", "int8", "uint8", "bool", "float32", "float64",
            "float16", "bfloat16"):
    RECIPES[f"random_-{_dt}"] = lambda m, g, dt=_dt: m.empty(37, dtype=_t(m, dt)).random_(
        generator=g)
    RECIPES[f"random_to-{_dt}"] = lambda m, g, dt=_dt: m.empty(37, dtype=_t(m, dt)).random_(
        2, generator=g)
for _low, _high in ((0, 10), (-5, 3), (0, 2 ** 33), (-(2 ** 40), 2 ** 40), (3, None),
                    (-(2 ** 63), None)):
    RECIPES[f"random_from-{_low}-{_high}"] = (
        lambda m, g, lo=_low, hi=_high: m.empty(2, 19, dtype=m.int64).random_(
            lo, hi, generator=g))
    RECIPES[f"random_from_double-{_low}-{_high}"] = (
        lambda m, g, lo=_low, hi=_high: m.empty(23, dtype=m.float64).random_(
            lo, hi, generator=g))


@recipe("randn sequence (cached second sample)")
def _randn_sequence(m, g):
    return (m.randn(3, generator=g, dtype=m.float64), m.randn(1, generator=g),
            m.randn(4, generator=g), m.randn(17, generator=g, dtype=m.float64),
            m.randn(5, generator=g))


@recipe("normal_ transposed, mean and std")
def _normal_transposed(m, g):
    return _transposed(m, 5, 7).normal_(1.5, 0.25, generator=g)


@recipe("normal_ float64 large, mean and std")
def _normal_double(m, g):
    return m.empty(3, 50, dtype=m.float64).normal_(-2.0, 3.0, generator=g)


@recipe("uniform_ bounds")
def _uniform_bounds(m, g):
    return (m.empty(40).uniform_(-3.7, 5.3, generator=g),
            m.empty(21, dtype=m.float64).uniform_(2.0, 2.5, generator=g),
            _transposed(m, 4, 6, "float16").uniform_(-1, 1, generator=g))


@recipe("complex rand / randn")
def _complex(m, g):
    return (m.rand(5, dtype=m.complex64, generator=g), m.randn(9, dtype=m.complex128,
                                                               generator=g))


@recipe("randint overloads")
def _randint(m, g):
    return (m.randint(10, (3, 4), generator=g), m.randint(-3, 3, (17,), generator=g),
            m.randint(2 ** 40, (5,), generator=g), m.randint(5, (6,), dtype=m.float32,
                                                             generator=g),
            m.randint(0, 2, (9,), dtype=m.uint8, generator=g))


@recipe("likes")
def _likes(m, g):
    base = _transposed(m, 3, 6, "float64")
    return (m.rand_like(base, generator=g), m.randn_like(base, generator=g),
            m.randint_like(base, 7, generator=g), m.randint_like(base, -4, 4, generator=g))


@recipe("exponential_ geometric_ log_normal_ cauchy_")
def _continuous(m, g):
    return (m.empty(33).exponential_(2.5, generator=g),
            _transposed(m, 3, 5, "float64").geometric_(0.2, generator=g),
            m.empty(19).log_normal_(0.5, 0.75, generator=g),
            m.empty(7, dtype=m.float64).cauchy_(1.0, 3.0, generator=g),
            m.empty(8, dtype=m.int32).geometric_(0.3, generator=g))


@recipe("bernoulli")
def _bernoulli(m, g):
    p = m.linspace(0, 1, 24).reshape(4, 6)
    return (m.bernoulli(p, generator=g), m.bernoulli(p.t(), generator=g),
            m.bernoulli(p.double(), generator=g), m.bernoulli(p, 0.3, generator=g),
            m.empty(4, 6, dtype=m.int64).bernoulli_(p[0], generator=g),
            _transposed(m, 5, 3).bernoulli_(0.7, generator=g))


@recipe("normal overloads")
def _normal_overloads(m, g):
    mean = m.arange(6.0).reshape(2, 3)
    std = m.linspace(0.5, 2, 3, dtype=m.float64)
    return (m.normal(mean, 2.0, generator=g), m.normal(1.5, std, generator=g),
            m.normal(mean, std, generator=g), m.normal(0.5, 2.0, (20,), generator=g),
            m.normal(m.zeros(20), m.ones(20), generator=g))


@recipe("multinomial")
def _multinomial(m, g):
    weights = m.tensor([[0.1, 0.5, 0.0, 2.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0]])
    return (m.multinomial(weights, 3, generator=g), m.multinomial(weights[0], 1, generator=g),
            m.multinomial(weights, 7, True, generator=g),
            m.multinomial(weights.double()[1], 4, generator=g),
            m.multinomial(weights.t().contiguous().t(), 2, generator=g))


@recipe("in-place samplers on strided and transposed tensors")
def _strided(m, g):
    gapped = m.zeros(6, 40)[:, ::2]                       # 120 elements, not contiguous
    return (gapped.normal_(generator=g), m.zeros(4, 30)[::2].uniform_(generator=g),
            _transposed(m, 6, 5, "int64").random_(-7, 7, generator=g),
            m.zeros(3, 8, dtype=m.float64)[:, 1::3].exponential_(generator=g),
            _transposed(m, 7, 3).log_normal_(generator=g),
            _transposed(m, 4, 9, "float64").cauchy_(generator=g),
            _transposed(m, 4, 5).bernoulli_(m.linspace(0, 1, 20).reshape(5, 4).t(),
                                            generator=g))


@recipe("random_ on unsigned and narrow dtypes")
def _unsigned(m, g):
    return (m.empty(9, dtype=m.uint16).random_(0, 60000, generator=g),
            m.empty(9, dtype=m.uint32).random_(5, 2 ** 32 - 1, generator=g),
            m.empty(9, dtype=m.uint64).random_(0, 2 ** 40, generator=g),
            m.empty(9, dtype=m.int32).random_(-(2 ** 31), 2 ** 31, generator=g),
            m.empty(9, dtype=m.float16).random_(-100, 2000, generator=g),
            m.empty(9, dtype=m.bfloat16).random_(generator=g),
            m.empty(9, dtype=m.float32).random_(0, 2 ** 30, generator=g),
            m.empty(9, dtype=m.int64).random_(3, 3 + 2 ** 28, generator=g),
            m.empty(9, dtype=m.int64).random_(3, 2 + 2 ** 28, generator=g))


@recipe("normal_ at the block boundaries")
def _block_sizes(m, g):
    return tuple(m.randn(n, generator=g) for n in (31, 32, 33, 48, 64, 65)) + tuple(
        m.empty(n, dtype=m.float64).normal_(3.0, 0.5, generator=g) for n in (16, 47))


@recipe("double draws stored in float16 and bfloat16 (rounded through float32)")
def _narrow(m, g):
    return (m.empty(4096, dtype=m.float16).cauchy_(generator=g),
            m.empty(4096, dtype=m.bfloat16).exponential_(generator=g),
            m.empty(9, dtype=m.bfloat16).random_(0, 2 ** 30, generator=g),
            m.poisson(m.full((5,), 3000.0, dtype=m.float16), generator=g))


@recipe("bernoulli of expanded probabilities (drawn into a fresh tensor)")
def _bernoulli_expanded(m, g):
    return m.bernoulli(m.tensor([0.2, 0.7]).expand(3, 2), generator=g)


@recipe("poisson")
def _poisson(m, g):
    return m.poisson(m.tensor([[0.0, 0.5, 3.0], [9.99, 10.0, 250.0]]), generator=g)


def _arrays(result):
    if isinstance(result, tuple):
        return [a for r in result for a in _arrays(r)]
    return [result]


@pytest.mark.filterwarnings("ignore:to - 1 is out of bounds")   # float random_, both libraries
@pytest.mark.parametrize("name", sorted(RECIPES))
def test_bitwise_equal_to_torch(name):
    torch = pytest.importorskip("torch")
    for seed in SEEDS:
        ours = gt.Generator().manual_seed(seed)
        theirs = torch.Generator().manual_seed(seed)
        got = _arrays(RECIPES[name](gt, ours))
        expected = _arrays(RECIPES[name](torch, theirs))
        for a, b in zip(got, expected):
            assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
            assert a.stride() == b.stride()
            assert _bytes(a, gt) == _bytes(b, torch), f"{name}, seed {seed}"
        assert ours.get_state().numpy().tobytes() == theirs.get_state().numpy().tobytes()


def _bytes(t, module):
    return t.contiguous().reshape(-1).view(module.uint8).numpy().tobytes()


def test_default_generator_and_states_move_between_libraries():
    torch = pytest.importorskip("torch")
    torch.manual_seed(11)
    torch.randn(5)
    gt.set_rng_state(gt.tensor(torch.get_rng_state().numpy()))   # torch -> glasstorch
    assert np.array_equal(gt.randn(3).numpy(), torch.randn(3).numpy())
    assert gt.get_rng_state().numpy().tobytes() == torch.get_rng_state().numpy().tobytes()
    torch.set_rng_state(torch.tensor(gt.get_rng_state().numpy()))  # and back
    assert np.array_equal(gt.rand(4).numpy(), torch.rand(4).numpy())
    assert gt.initial_seed() == torch.initial_seed() == 11


# ----------------------------------------------------------------------------------
# Without torch
# ----------------------------------------------------------------------------------
def test_manual_seed_makes_streams_repeat():
    gt.manual_seed(3)
    first = (gt.rand(4), gt.randn(20), gt.randperm(6))
    gt.manual_seed(3)
    again = (gt.rand(4), gt.randn(20), gt.randperm(6))
    for a, b in zip(first, again):
        assert gt.equal(a, b)


def test_known_values_of_seed_zero():
    gt.manual_seed(0)
    assert gt.rand(2).tolist() == [0.49625658988952637, 0.7682217955589294]
    assert gt.randn(1).tolist() == [-0.29050925374031067]


def test_state_round_trip_and_layout():
    g = gt.Generator().manual_seed(2 ** 63 + 5)
    assert g.initial_seed() == 2 ** 63 + 5
    gt.randn(3, generator=g, dtype=gt.float64)        # leaves a cached normal sample
    state = g.get_state()
    assert state.dtype == gt.uint8 and state.shape == (5056,)
    ahead = gt.randn(5, generator=g, dtype=gt.float64)
    assert gt.equal(gt.randn(5, generator=g.set_state(state), dtype=gt.float64), ahead)
    assert g.get_state().numpy().tobytes() != state.numpy().tobytes()


def test_generator_api():
    g = gt.Generator(device="cpu")
    assert g.manual_seed(-1) is g and g.initial_seed() == 2 ** 64 - 1
    assert g.device == gt.device("cpu")
    assert gt.manual_seed(1.0) is gt.default_generator
    assert isinstance(gt.seed(), int) and gt.seed() < 2 ** 53
    with pytest.raises(RuntimeError, match="manual_seed expected a long, but got str"):
        g.manual_seed("1")
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        g.set_state(gt.zeros(5056))
    with pytest.raises(RuntimeError, match="Expected a CPUGeneratorImplState of size 5056"):
        g.set_state(gt.zeros(3, dtype=gt.uint8))
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        g.set_state(gt.zeros(5056, dtype=gt.uint8))


def test_fork_rng_restores_the_default_generator():
    gt.manual_seed(5)
    expected = gt.rand(3)
    gt.manual_seed(5)
    with gt.random.fork_rng():
        gt.randn(100)
    assert gt.equal(gt.rand(3), expected)


def test_statistics_are_sane():
    g = gt.Generator().manual_seed(123)
    normal = gt.randn(100_000, generator=g, dtype=gt.float64).numpy()
    assert abs(normal.mean()) < 0.02 and abs(normal.std() - 1) < 0.02
    uniform = gt.rand(100_000, generator=g).numpy()
    assert 0 <= uniform.min() and uniform.max() < 1 and abs(uniform.mean() - 0.5) < 0.01
    counts = np.bincount(gt.randint(0, 4, (40_000,), generator=g).numpy(), minlength=4)
    assert np.all(np.abs(counts - 10_000) < 500)
    assert sorted(gt.randperm(50, generator=g).tolist()) == list(range(50))
    exponential = gt.empty(50_000).exponential_(2.0, generator=g).numpy()
    assert abs(exponential.mean() - 0.5) < 0.02
    poisson = gt.poisson(gt.full((20_000,), 4.0), generator=g).numpy()
    assert abs(poisson.mean() - 4) < 0.1
    picks = gt.multinomial(gt.tensor([1.0, 3.0]), 20_000, True, generator=g).numpy()
    assert math.isclose(picks.mean(), 0.75, abs_tol=0.02)


def test_refused_calls_draw_nothing():
    g = gt.Generator().manual_seed(9)
    before = g.get_state().numpy().tobytes()
    x = gt.zeros(4)
    with pytest.raises(RuntimeError, match="bernoulli_ expects p to be in"):
        x.bernoulli_(1.5, generator=g)
    with pytest.raises(RuntimeError, match="probability tensor contains"):
        gt.multinomial(gt.tensor([1.0, -1.0]), 1, generator=g)
    assert g.get_state().numpy().tobytes() == before and not x.any()


def test_generator_arguments_are_glasstorch_generators():
    with pytest.raises(TypeError, match=r"^rand\(\) received an invalid combination of "
                                        r"arguments - got \(int, generator=int\)"):
        gt.rand(2, generator=3)
    assert gt.rand(2, generator=gt.Generator()).shape == (2,)
