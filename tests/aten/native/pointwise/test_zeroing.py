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


@pytest.mark.parametrize("size", [6, 4000])
def test_zero_where_takes_a_mask_that_broadcasts(size):
    """A mask broadcasting to the result (a batched gradient under vmap: threshold_backward
    of a (20, n) gradient on an (n,) input) zeroes every row, small or large."""
    from glasstorch.aten.pointwise import zero_where
    values = np.arange(2 * size, dtype=np.float32).reshape(2, size) - size
    mask = np.arange(size) % 2 == 0
    out = np.empty_like(values)
    zero_where(mask, values, out)
    np.testing.assert_array_equal(out, np.where(mask, np.float32(0), values))


def test_vmapped_gradients_of_elementwise_activations():
    """jacrev of relu / hardtanh / silu: gradients batched beyond the input's shape."""
    x = gt.linspace(-2, 2, 7, dtype=gt.float64)
    for f, derivative in [(gt.nn.functional.relu, lambda v: (v > 0).double()),
                          (gt.nn.functional.hardtanh, lambda v: (v.abs() < 1).double()),
                          (gt.nn.functional.silu, lambda v: v.sigmoid() * (1 + v * (1 - v.sigmoid())))]:
        jacobian = gt.func.jacrev(f)(x)
        np.testing.assert_allclose(jacobian.numpy(), np.diag(derivative(x).numpy()), atol=1e-12)
