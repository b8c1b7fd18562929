"""glasstorch vs torch's own OpInfo database: a ratchet, per family of records.

The harness (`op_db_harness.py`) runs every CPU sample (float32, float64, int64, bool,
complex64) of every record of a family that glasstorch has, and the records' error
inputs: "pointwise" (the unary and binary ufunc records, issue 4), "operators"
(reductions, scans, sorting, indexing, joining, matmul: issue 5), "resampling"
(interpolate, grid_sample, unfold, pixel and channel shuffles: issue 15), "pooling"
(pooling, embedding bags, the remaining losses: issue 15; the first 64 samples of each
record), "transformer" (multi_head_attention_forward: issue 16), "special", "masked"
"spectral" and "linalg" (torch.special, torch.masked, torch.fft, stft / istft,
torch.signal.windows, torch.linalg and the top-level linear algebra: issue 18). The rates may only go up: when a change
raises them, raise the floors below to the new values. `pytest -s`
prints the tables; the script prints every failure
(``python tests/conformance/op_db_harness.py --family operators --details``).
"""
import pytest

import op_db_harness as harness

torch = pytest.importorskip("torch")

LIMIT = None                   # samples per record and dtype (None: all)
# families whose records have thousands of samples (max pooling): the first ones of each
LIMITS = {"pooling": 64}
# Match rates measured (percent of samples, over the records glasstorch has), and the
# error inputs raising torch's exception type.
FLOORS = {
    "pointwise": {"all": 99.8, "float32": 100.0, "float64": 100.0, "int64": 100.0,
                  "bool": 100.0, "complex64": 98.8},
    "operators": {"all": 99.8, "float32": 99.8, "float64": 99.9, "int64": 99.4, "bool": 99.7,
                  "complex64": 99.8},
    "resampling": {"all": 100.0, "float32": 100.0, "float64": 100.0, "int64": 100.0,
                   "bool": 100.0, "complex64": 100.0},
    "transformer": {"all": 100.0, "float32": 100.0, "float64": 100.0, "int64": 100.0,
                    "bool": 100.0, "complex64": 100.0},
    "pooling": {"all": 100.0, "float32": 100.0, "float64": 100.0, "int64": 100.0,
                "bool": 100.0, "complex64": 100.0},
    "special": {"all": 99.8, "float32": 99.4, "float64": 100.0, "int64": 100.0,
                "bool": 100.0, "complex64": 100.0},
    "masked": {"all": 100.0, "float32": 100.0, "float64": 100.0, "int64": 100.0,
               "bool": 100.0, "complex64": 100.0},
    "spectral": {"all": 99.7, "float32": 99.6, "float64": 100.0, "int64": 99.3, "bool": 100.0,
                 "complex64": 99.2},
    # vectors compared up to their gauge (Note [Vectors up to their gauge]); the misses:
    # float32 and complex64 matrix_exp's rounding (torch's own Taylor scheme in single
    # precision)
    "linalg": {"all": 99.9, "float32": 99.9, "float64": 100.0, "int64": 100.0, "bool": 100.0,
               "complex64": 99.9},
}
ERROR_INPUTS_MATCHED = {"pointwise": 121, "operators": 258, "resampling": 0, "transformer": 0,
                        "pooling": 82, "special": 14, "masked": 0, "spectral": 79,
                        "linalg": 10}


@pytest.fixture(scope="module", params=sorted(FLOORS))
def family(request):
    found = harness.run(torch, limit=LIMITS.get(request.param, LIMIT), family=request.param)
    print()
    print(harness.format_table(found))
    return request.param, found


@pytest.mark.parametrize("key", sorted(FLOORS["pointwise"]))
def test_match_rate_never_drops(family, key):
    name, results = family
    samples, matched = harness.rates(results).get(key, (0, 0))
    rate = harness.percent(samples, matched)
    assert rate >= FLOORS[name][key], (
        f"{name} {key}: {rate:.1f}% of {samples} samples match torch, the floor is "
        f"{FLOORS[name][key]}%; failures:\n{harness.format_details(results)}")


def test_error_inputs_never_drop(family):
    name, results = family
    matched = sum(r.errors_matched for r in results)
    assert matched >= ERROR_INPUTS_MATCHED[name], harness.format_details(results)


def test_harness_converts_exact_geometry():
    """A transposed, offset torch tensor reaches glasstorch with its sizes, strides,
    offset and values."""
    base = torch.arange(24, dtype=torch.float64)
    t = base.as_strided((3, 4), (1, 5), 2)
    g = harness.to_glasstorch(t, torch)
    assert (tuple(g.shape), g.stride(), g.storage_offset()) == ((3, 4), (1, 5), 2)
    assert harness.to_torch(g, torch).tolist() == t.tolist()


def test_harness_converts_math_bits_as_they_are():
    """A conjugate (negated) view reaches glasstorch as a conjugate (negated) view of the
    same memory, and comes back to torch the same way."""
    shared: dict = {}
    view = torch.tensor([1 + 2j, 3 + 4j]).conj()
    converted = harness.to_glasstorch(view, torch, shared)
    assert converted.is_conj() and converted.tolist() == [1 - 2j, 3 - 4j]
    back = harness.to_torch(converted, torch)
    assert back.is_conj() and back.tolist() == [1 - 2j, 3 - 4j]
    held = torch.tensor([1.0, 2.0])._neg_view()     # alive: its address stays its own
    negated = harness.to_glasstorch(held, torch, shared)
    assert negated.is_neg() and negated.tolist() == [-1.0, -2.0]
    plain = torch.tensor([1.0, 2.0])
    harness.to_glasstorch(plain, torch, shared)
    assert len(shared) == 3                 # each storage converted once
