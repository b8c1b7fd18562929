"""torch.histogramdd, the Python function over histogramdd's operators, against torch."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

POINTS = [[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0]]
CALLS = [
    lambda t, x: t.histogramdd(x, bins=2),
    lambda t, x: t.histogramdd(x, bins=[3, 3], weight=t.tensor([1.0, 2.0, 4.0, 8.0])),
    lambda t, x: t.histogramdd(x, [2, 2], [0.0, 1.0, 0.0, 1.0], None, True),
    lambda t, x: t.histogramdd(x, bins=[t.tensor([0.0, 1, 2]), t.tensor([0.0, 2])]),
    lambda t, x: t.histogramdd(x.reshape(2, 2, 2), bins=[2, 3]),
]


def _result(call, lib):
    try:
        hist, edges = result = call(lib, lib.tensor(POINTS))
    except Exception as e:              # noqa: BLE001 (the test compares any error)
        return type(e).__name__, str(e)
    assert type(result).__name__ == "histogramdd" and result.hist is hist
    assert isinstance(result.bin_edges, tuple)
    return hist.tolist(), [e.tolist() for e in edges]


@pytest.mark.parametrize("call", CALLS)
def test_histogramdd_as_torch(call):
    assert _result(call, gt) == _result(call, torch)
