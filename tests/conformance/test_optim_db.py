"""glasstorch's optimizers vs torch's own optimizer database: a ratchet.

The harness (`optim_db_harness.py`) steps every configuration of every optimizer class
of torch's `optim_db` that glasstorch has, in float32, float64 and complex64, with each
implementation flag torch accepts on CPU, and raises every error input. The counts may
only go up: when a change raises them, raise the floors.
"""
import pytest

import optim_db_harness as harness

torch = pytest.importorskip("torch")

# configurations, steps and error inputs passing (of 540, 5400 and 118 run): the two
# error inputs left give SparseAdam sparse parameters, which glasstorch does not have.
CONFIGS_FLOOR = 555
STEPS_FLOOR = 5550
ERRORS_FLOOR = 122


def test_optim_db_counts_never_drop():
    results = harness.run(torch)
    print()
    print(harness.format_table(results))
    totals = harness.totals(results)
    details = harness.format_details(results)
    assert totals["configs"][0] >= CONFIGS_FLOOR, details
    assert totals["steps"][0] >= STEPS_FLOOR, details
    assert totals["errors"][0] >= ERRORS_FLOOR, details


def test_harness_sees_a_wrong_step(monkeypatch):
    """The harness is not vacuous: an RMSprop whose step is 1% too long fails."""
    update = harness.gt.optim.RMSprop._update
    monkeypatch.setattr(harness.gt.optim.RMSprop, "_update",
                        staticmethod(lambda group, param, grad, state, lr:
                                     update(group, param, grad, state, lr * 1.01)))
    counts = harness.run(torch, "RMSprop", dtypes=("float64",))["RMSprop"]
    assert counts["configs"][0] == 0 and counts["configs"][1] > 0


def test_harness_sees_a_missing_refusal(monkeypatch):
    """An error input glasstorch does not refuse counts as failed."""
    monkeypatch.setattr(harness.gt.optim.rprop, "check_lr", lambda lr: None)
    counts = harness.run(torch, "Rprop", dtypes=())["Rprop"]
    assert counts["errors"][0] == counts["errors"][1] - 1
