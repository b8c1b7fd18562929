"""Reductions along a dim shared over the thread pool in slabs of a kept dim
(`over_slabs`): the same bits and shapes as on one thread."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.reduction import cascade


def _on_threads(count, compute):
    before = gt.get_num_threads()
    try:
        gt.set_num_threads(count)
        return [r.numpy() for r in compute()]
    finally:
        gt.set_num_threads(before)


def _reductions(t, dim, keepdim):
    return [t.sum(dim, keepdim), t.amax(dim, keepdim), t.amin(dim, keepdim),
            *t.max(dim, keepdim), *t.min(dim, keepdim), t.argmax(dim, keepdim),
            t.argmin(dim, keepdim), t.std(dim, keepdim=keepdim),
            *gt.var_mean(t, dim, keepdim=keepdim)]


@pytest.mark.parametrize("shape", [(300, cascade.EXACT_SIZE // 100), (6, 250, 300),
                                   (8, 400, cascade.POOL_SIZE // 3200 + 1)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_reductions_over_slabs_give_one_threads_bits(shape, keepdim):
    values = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    values.reshape(-1)[::997] = np.nan            # NaN wins the extremes: its first index
    t = gt.from_numpy(values)
    for dim in range(len(shape)):
        alone = _on_threads(1, lambda: _reductions(t, dim, keepdim))
        shared = _on_threads(2, lambda: _reductions(t, dim, keepdim))
        for one, two in zip(alone, shared):
            assert one.shape == two.shape and one.dtype == two.dtype
            np.testing.assert_array_equal(one, two)


def test_large_sums_along_memory_add_numpys_way():
    """Past `EXACT_SIZE` a sum along contiguous rows is NumPy's, on any thread count."""
    values = np.random.default_rng(3).standard_normal(
        (300, cascade.EXACT_SIZE // 100)).astype(np.float32)
    shared = _on_threads(2, lambda: [gt.from_numpy(values).sum(1)])[0]
    np.testing.assert_array_equal(shared, values.sum(1))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_large_sums_to_one_value_are_shared_over_stretches(dtype):
    """Past `cascade.POOL_SIZE` a sum of everything gives each thread a stretch, summed
    NumPy's way, and adds the stretches' sums in order (integers: one thread's result)."""
    count = cascade.POOL_SIZE * 3 // 2 + 3            # halves NumPy would not cut
    values = (np.random.default_rng(5).standard_normal(count) * 1000).astype(dtype)
    half = -(-count // 2)
    expected = np.add.accumulate([values[:half].sum(), values[half:].sum()])[-1]
    shared = _on_threads(2, lambda: [gt.from_numpy(values).sum(),
                                     gt.from_numpy(values.reshape(3, -1)).mean()
                                     if dtype != "int64" else gt.from_numpy(values).sum()])
    assert shared[0].dtype == values.dtype and shared[0].tobytes() == expected.tobytes()
    if dtype == "int64":
        assert shared[0] == values.sum()
    else:
        assert shared[1].tobytes() == (expected / values.dtype.type(count)).tobytes()
