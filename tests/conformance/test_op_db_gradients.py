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
FLOORS = {"reverse": (99.7, 3709), "forward": (99.0, 3211)}


@pytest.mark.parametrize("mode", sorted(FLOORS))
def test_rate_never_drops(mode):
    results = harness.run(torch, mode)
    print()
    print(harness.format_table(results, mode))
    samples, matched = harness.totals(results)
    rate, fewest = FLOORS[mode]
    assert samples >= fewest, f"only {samples} samples ran; at least {fewest} should"
    assert 100.0 * matched / samples >= rate, harness.format_details(results)


# The linear algebra records (issue 18), float64: the misses are singular vectors' and
# eigenvectors' signs (they follow the LAPACK build: svd, eigh, svd_lowrank and
# pca_lowrank's vectors), lstsq's gradients with driver='gels' (not understood yet), torch's
# tangents of cholesky and triangular_solve for non-Hermitian / non-triangular tangents
# (tests/opinfo's KNOWN_FORWARD says why) and the norms' subgradients at zero.
LINALG_FLOORS = {"reverse": (94.3, 1813), "forward": (90.2, 1656)}


@pytest.mark.parametrize("mode", sorted(LINALG_FLOORS))
def test_linalg_rate_never_drops(mode):
    results = harness.run(torch, mode, families=("linalg",))
    print()
    print(harness.format_table(results, mode))
    samples, matched = harness.totals(results)
    rate, fewest = LINALG_FLOORS[mode]
    assert samples >= fewest, f"only {samples} samples ran; at least {fewest} should"
    assert 100.0 * matched / samples >= rate, harness.format_details(results)
