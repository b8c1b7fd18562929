"""glasstorch's nn modules vs torch's own module database: a ratchet.

The harness (`module_db_harness.py`) builds every module class of torch's `module_db`
that glasstorch has from the records' samples, in both libraries, and compares repr,
parameters, buffers, state-dict keys, seeded initial values, outputs and gradients.
Here it runs the float32 samples in training mode (the script runs float64 and eval
too: ``python tests/conformance/module_db_harness.py --details``). The rate may only go
up: when a change raises it, raise the floor.
"""
import pytest

import module_db_harness as harness

torch = pytest.importorskip("torch")

FLOOR = 100.0      # percent of the samples run that pass, over the classes glasstorch has
# pass_rate is 100 when nothing runs (no records, every sample skipped): the count of
# passing samples is ratcheted too, so an empty run cannot pass.
PASSED_FLOOR = 1259


def test_module_db_match_rate_never_drops():
    results = harness.run(torch, dtypes=("float32",), modes=(True,))
    print()
    print(harness.format_table(results))
    assert harness.pass_rate(results) >= FLOOR, harness.format_details(results)
    passed = sum(counts["passed"] for counts, _ in results.values())
    assert passed >= PASSED_FLOOR, f"only {passed} samples passed"


def test_harness_sees_a_wrong_output(monkeypatch):
    """The harness is not vacuous: a Linear off by 0.1% fails its forward check."""
    forward = harness.gt.nn.Linear.forward
    monkeypatch.setattr(harness.gt.nn.Linear, "forward",
                        lambda self, input: forward(self, input) * 1.001)
    counts, failures = harness.run(torch, "Linear", dtypes=("float32",), modes=(True,))["Linear"]
    assert counts["passed"] == 0 and counts["forward"] == len(failures) > 0
