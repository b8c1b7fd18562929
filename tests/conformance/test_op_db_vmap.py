"""vmap over torch's op_db equal to a loop over the samples: a ratchet.

`op_db_vmap.py` batches the float32 samples of the "pointwise" and "operators" records
(batch at dim 0 and 1, out_dims 1) wherever torch's own vmap equals torch's loop, and
checks glasstorch's vmap against glasstorch's loop. Issue 21 asks for 95% of the
records passing and the per-sample fallback in no more than 15% of them. The counts
may only improve: raise `PASSING` and lower `FALLBACK` when a change does.
"""
import pytest

import op_db_vmap as harness

torch = pytest.importorskip("torch")

RECORDS = 366            # records torch's vmap supports on these samples (fewer: skipped)
PASSING = 364
# nn.functional.ctc_loss joined the operators' records: it runs the fallback, and its
# .Tensor overload fails when the lengths are batched (the composite reads their values)
FALLBACK = 43


@pytest.fixture(scope="module")
def results():
    found = harness.run(torch)
    print()
    print(harness.summary(found))
    print("fallback:", ", ".join(r.label for r in found if r.fallback))
    return found


def test_records_pass_and_the_fallback_stays_rare(results):
    counts = harness.summary(results)
    assert counts["records"] >= RECORDS, counts
    assert counts["passing"] >= PASSING, harness.format_details(results)
    assert counts["fallback"] <= FALLBACK, counts
    assert counts["passing"] >= 0.95 * counts["records"]
    assert counts["fallback"] <= 0.15 * counts["records"]
