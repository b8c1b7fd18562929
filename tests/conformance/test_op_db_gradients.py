"""glasstorch's gradients and tangents vs torch's, on torch's own op_db: a ratchet.

`op_db_gradients.py` runs every float64 CPU sample of the ufunc and operator records
glasstorch has through reverse mode (`autograd.grad`) and forward mode (dual tensors)
in both libraries. The rates may only go up: when a change raises them, raise the
floors. Issue 6 asks for 95% (reverse) and 90% (forward); the misses left are listed,
with their reasons, in docs/progress.md. `pytest -s` prints the tables; the script
prints every failure (``python tests/conformance/op_db_gradients.py --details``).
"""
import pytest

import op_db_gradients as harness

torch = pytest.importorskip("torch")

# percent of samples matching, and the number of samples (a run that silently skips
# records must not pass)
FLOORS = {"reverse": (99.8, 4089), "forward": (99.2, 3592)}
# The families of later issues, each with its own floors: family -> {mode: (rate, fewest)}
# The masked records run their first 40 samples each (all 1270 take a minute; then 98.3%
# forward: vector_norm's tangent is NaN at a zero vector where torch's is 0).
FAMILY_FLOORS = {"special": {"reverse": (100.0, 39), "forward": (100.0, 39)},
                 "masked": {"reverse": (100.0, 524), "forward": (100.0, 524)},
                 "spectral": {"reverse": (100.0, 163), "forward": (100.0, 163)},
                 # linalg's misses: householder_product with no reflectors (torch's
                 # result requires grad, with no gradient), eig's tangents (derived from
                 # its backward, which refuses a phase-dependent cotangent), cholesky_inverse's
                 # tangents on an ill-conditioned sample
                 "linalg": {"reverse": (99.8, 1816), "forward": (99.2, 1656)},
                 # issue 15's areas, the first 48 samples of each record (max pooling alone
                 # has thousands); pooling's misses: embedding_bag's sparse gradients, and
                 # a few max_unpool2d tangents where indices repeat (which write wins)
                 "resampling": {"reverse": (100.0, 313), "forward": (100.0, 235)},
                 "pooling": {"reverse": (99.5, 642), "forward": (99.0, 586)}}
FAMILY_LIMITS = {"masked": 40, "resampling": 48, "pooling": 48}


@pytest.mark.parametrize("mode", sorted(FLOORS))
def test_rate_never_drops(mode):
    results = harness.run(torch, mode)
    print()
    print(harness.format_table(results, mode))
    samples, matched = harness.totals(results)
    rate, fewest = FLOORS[mode]
    assert samples >= fewest, f"only {samples} samples ran; at least {fewest} should"
    assert 100.0 * matched / samples >= rate, harness.format_details(results)


@pytest.mark.parametrize("mode", sorted(FLOORS))
@pytest.mark.parametrize("family", sorted(FAMILY_FLOORS))
def test_family_rate_never_drops(family, mode):
    results = harness.run(torch, mode, limit=FAMILY_LIMITS.get(family), families=(family,))
    print()
    print(harness.format_table(results, mode))
    samples, matched = harness.totals(results)
    rate, fewest = FAMILY_FLOORS[family][mode]
    assert samples >= fewest, f"only {samples} samples of {family} ran; at least {fewest} should"
    assert 100.0 * matched / samples >= rate, harness.format_details(results)
