"""relu and threshold_backward on large tensors: zeros made in cache-sized bands shared by
the pool's threads, the same bits as one whole `zero_where` (-0.0 and NaN kept, in place
too)."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.pointwise import zeroing
from glasstorch.aten.parallel import SPLIT_SIZE


def _activations() -> np.ndarray:
    values = np.random.default_rng(0).standard_normal(SPLIT_SIZE + 1000).astype(np.float32)
    values[:6] = [-0.0, 0.0, np.nan, -np.nan, -np.inf, np.inf]
    return values.reshape(-1, 8)


def _bits(tensor) -> np.ndarray:
    return tensor.detach().numpy().view(np.uint32).copy()


@pytest.mark.parametrize("threads", (1, 2))
def test_relu_and_its_backward_in_bands_are_one_zero_where(monkeypatch, threads):
    values = _activations()
    expected = np.where(values < 0, np.float32(0), values)     # -0.0 and NaN stay
    grad = np.random.default_rng(1).standard_normal(values.shape).astype(np.float32)
    expected_grad = np.where(values <= 0, np.float32(0), grad)
    monkeypatch.setattr(zeroing, "BAND", 4096)
    monkeypatch.setattr(zeroing, "GRAIN_SIZE", 1)
    before = gt.get_num_threads()
    gt.set_num_threads(threads)
    try:
        x = gt.from_numpy(values.copy()).requires_grad_()
        y = gt.relu(x)
        y.backward(gt.from_numpy(grad))
        in_place = gt.from_numpy(values.copy())
        in_place.relu_()
    finally:
        gt.set_num_threads(before)
    assert np.array_equal(_bits(y), expected.view(np.uint32))
    assert np.array_equal(_bits(in_place), expected.view(np.uint32))
    assert np.array_equal(_bits(x.grad), expected_grad.view(np.uint32))
