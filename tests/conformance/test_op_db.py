"""glasstorch vs torch's own OpInfo database (unary and binary ufuncs): a ratchet.

The harness (`op_db_harness.py`, family "pointwise") runs every CPU sample (float32, float64, int64, bool,
complex64) of every unary/binary ufunc record of torch's `op_db` that glasstorch has,
and the records' error inputs. The rates may only go up: when a change raises them, raise the floors below to
the new values. `pytest -s` prints the table; the script prints every failure
(``python tests/conformance/op_db_harness.py --details``).
"""
import pytest

import op_db_harness as harness

torch = pytest.importorskip("torch")

LIMIT = None                   # samples per record and dtype (None: all, ~10 s of CPU)
# Match rates measured (percent of samples, over the records glasstorch has).
FLOORS = {"all": 98.9, "float32": 99.2, "float64": 99.2, "int64": 99.2, "bool": 99.0,
          "complex64": 97.3}
ERROR_INPUTS_MATCHED = 94      # error inputs raising torch's exception type


@pytest.fixture(scope="module")
def results():
    found = harness.run(torch, limit=LIMIT)
    print()
    print(harness.format_table(found))
    return found


@pytest.mark.parametrize("key", sorted(FLOORS))
def test_match_rate_never_drops(results, key):
    samples, matched = harness.rates(results).get(key, (0, 0))
    rate = harness.percent(samples, matched)
    assert rate >= FLOORS[key], (
        f"{key}: {rate:.1f}% of {samples} samples match torch, the floor is {FLOORS[key]}%; "
        f"failures:\n{harness.format_details(results)}")


def test_error_inputs_never_drop(results):
    matched = sum(r.errors_matched for r in results)
    assert matched >= ERROR_INPUTS_MATCHED, harness.format_details(results)


def test_harness_converts_exact_geometry():
    """A transposed, offset torch tensor reaches glasstorch with its sizes, strides,
    offset and values."""
    base = torch.arange(24, dtype=torch.float64)
    t = base.as_strided((3, 4), (1, 5), 2)
    g = harness.to_glasstorch(t, torch)
    assert (tuple(g.shape), g.stride(), g.storage_offset()) == ((3, 4), (1, 5), 2)
    assert harness.to_torch(g, torch).tolist() == t.tolist()
