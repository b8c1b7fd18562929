"""The random family's arithmetic (aten/native/random/bits.py): fused multiply-add
rounded once, and float64 normals bit for bit torch's, with the generator's state."""
from fractions import Fraction

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.random.bits import _fma64


def _exact_fma(a: float, b: float, c: float) -> float:
    return float(Fraction(a) * Fraction(b) + Fraction(c))    # rounded once, to nearest even


def test_fma64_rounds_a_halfway_tail_correctly():
    # a*b = 1 - 2**-60 lies just under 1: the sum is just under 2**53 + 3, a halfway
    # point, so it rounds down to 2**53 + 2 (a plain tail addition gives 2**53 + 4)
    a, b, c = 1 + 2.0 ** -30, 1 - 2.0 ** -30, 2.0 ** 53 + 2
    assert _fma64(np.array([a]), b, c)[0] == _exact_fma(a, b, c) == 2.0 ** 53 + 2


def test_fma64_is_exact_on_near_ties_and_random_operands():
    rng = np.random.default_rng(0)
    n = 4000
    # (1 + k e)(1 - k e) = 1 - k^2 e^2 just under 1, added to 2**53 + 2 + 4m: just under
    # a halfway point; then plain operands, and sums that nearly cancel
    k = rng.integers(1, 2 ** 10, n)
    a = np.concatenate([1 + k * 2.0 ** -30, rng.normal(size=n) * 3])
    b = np.concatenate([1 - k * 2.0 ** -30, rng.uniform(0.01, 10, n)])
    c = np.concatenate([2.0 ** 53 + 2 + 4 * rng.integers(0, 2 ** 20, n),
                        -(a[n:] * b[n:]) * (1 + rng.normal(size=n) * 1e-15)])
    got = _fma64(a, b, c)
    want = np.array([_exact_fma(x, y, z) for x, y, z in zip(a, b, c)])
    np.testing.assert_array_equal(got, want)


def test_fma64_keeps_infinities_and_nan():
    with np.errstate(invalid="ignore"):
        got = _fma64(np.array([np.inf, 1.0, -np.inf]), 2.0, np.array([1.0, np.nan, 3.0]))
    assert np.isposinf(got[0]) and np.isnan(got[1]) and np.isneginf(got[2])


@pytest.mark.parametrize("size", [1, 2, 7, 15, 16, 17, 31, 32, 100, 4099])
def test_float64_normals_and_state_match_torch(size):
    """randn and normal_(mean, std), one after the other on one generator, over many
    seeds: every bit of the values and of the generator's state bytes after them."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(size)
    for _ in range(12):
        seed, mean, std = int(rng.integers(0, 2 ** 63)), rng.normal() * 10, rng.uniform(0.01, 50)
        found = []
        for lib in (gt, torch):
            lib.manual_seed(seed)
            draws = [lib.randn(size, dtype=lib.float64),
                     lib.empty(size, dtype=lib.float64).normal_(mean, std),
                     lib.empty(size, 2, dtype=lib.float64).t().normal_(mean, std),
                     lib.randn(size, dtype=lib.float64)]
            found.append(([d.tolist() for d in draws], lib.get_rng_state().tolist()))
        assert found[0] == found[1]
