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


# the same, for the families of later issues run on their own: family -> mode -> floors
FAMILY_FLOORS = {"spectral": {"reverse": (100.0, 163), "forward": (100.0, 163)}}


@pytest.mark.parametrize("family,mode", [(family, mode) for family in sorted(FAMILY_FLOORS)
                                         for mode in sorted(FAMILY_FLOORS[family])])
def test_family_rate_never_drops(family, mode):
    results = harness.run(torch, mode, families=(family,))
    samples, matched = harness.totals(results)
    rate, fewest = FAMILY_FLOORS[family][mode]
    assert samples >= fewest, f"only {samples} {family} samples ran; at least {fewest} should"
    assert 100.0 * matched / samples >= rate, harness.format_details(results)
