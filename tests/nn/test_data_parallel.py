"""torch.nn.parallel on a machine without accelerators, against torch: DataParallel runs
the module as it is (same outputs, gradients, state_dict keys, printing);
DistributedDataParallel and data_parallel refuse with torch's errors."""
import numpy as np
import pytest

import glasstorch as gt


def _error(call):
    try:
        call()
    except Exception as e:          # noqa: BLE001 (the test compares any error)
        return type(e).__name__, str(e)
    return None


def test_data_parallel_runs_the_module_as_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = gt.nn.Linear(3, 2), torch.nn.Linear(3, 2)
    with torch.no_grad():
        theirs.weight.copy_(torch.from_numpy(ours.weight.detach().numpy()))
        theirs.bias.copy_(torch.from_numpy(ours.bias.detach().numpy()))
    dp_ours, dp_theirs = gt.nn.DataParallel(ours), torch.nn.DataParallel(theirs)
    assert repr(dp_ours) == repr(dp_theirs)
    assert list(dp_ours.state_dict()) == list(dp_theirs.state_dict())
    assert dp_ours.device_ids == dp_theirs.device_ids == []
    assert dp_ours.module is ours and gt.nn.DataParallel is gt.nn.parallel.DataParallel
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    out_ours, out_theirs = dp_ours(gt.from_numpy(x)), dp_theirs(torch.from_numpy(x))
    np.testing.assert_allclose(out_ours.detach().numpy(), out_theirs.detach().numpy(), rtol=1e-6)
    out_ours.sum().backward()
    out_theirs.sum().backward()
    np.testing.assert_allclose(ours.weight.grad.numpy(), theirs.weight.grad.numpy(), rtol=1e-6)


def test_refusals_match_torch_without_accelerators_or_process_group():
    torch = pytest.importorskip("torch")
    import torch.nn.parallel as their
    import glasstorch.nn.parallel as ours
    calls = [
        lambda p, t: p.DistributedDataParallel(t.nn.Linear(2, 2)),
        lambda p, t: p.data_parallel(t.nn.Linear(2, 2), t.ones(1, 2)),
        lambda p, t: p.replicate(t.nn.Linear(2, 2), [0]),
        lambda p, t: p.gather([t.ones(2)], 0),
    ]
    for call in calls:
        expected = _error(lambda: call(their, torch))
        assert expected is not None
        assert _error(lambda: call(ours, gt)) == expected
    assert sorted(their.__all__) == sorted(n for n in their.__all__ if hasattr(ours, n))
