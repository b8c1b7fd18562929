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


@pytest.mark.parametrize("shape", [(300, cascade.EXACT_SIZE // 100), (6, 250, 300)])
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
