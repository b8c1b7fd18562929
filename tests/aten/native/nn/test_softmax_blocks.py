"""The row-blocked softmax kernels (Note [Row-blocked softmax] and Note [Reductions along
short rows] in aten/native/nn/softmax.py): the thread count, a row's place in memory and
how a tensor is cut into blocks change no bit of any result (but for a slab cut into
single columns, which NumPy sums in another order); the one-loop row
maximum is NumPy's maximum exactly; a softmax scales by the sum's reciprocal along the
last dim and divides by the sum along any other, as torch's two kernels do."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.nn import softmax as kernels

_aten = gt.ops.aten

# (shape, dim, cut into single columns when blocks are small): short rows along the
# last dim, a row longer than a block, a middle dim whose slab is cut into wide columns,
# a first dim with too few columns for wide cuts
SHAPES = [((300, 37), -1, False), ((3, 700), -1, False), ((6, 30, 100), 1, False),
          ((70, 9), 0, True)]
SMALL = {"BLOCK": 96, "GRAIN_SIZE": 64}      # a few rows, or columns, a block; two threads


def _results(x: gt.Tensor, grad: gt.Tensor, dim: int) -> list:
    """Every kernel of the family on `x` along `dim`, as NumPy arrays."""
    y = gt.softmax(x, dim)
    logs = gt.log_softmax(x, dim)
    grads = (_aten._softmax_backward_data(grad, y, dim, x.dtype),
             _aten._log_softmax_backward_data(grad, logs, dim, x.dtype))
    return [t.float().numpy() for t in (y, logs, *grads)]


def _with_threads(count: int, function):
    before = gt.get_num_threads()
    gt.set_num_threads(count)
    try:
        return function()
    finally:
        gt.set_num_threads(before)


def _case(shape, dtype):
    gt.manual_seed(len(shape) + shape[-1])
    return (gt.randn(shape) * 4).to(dtype), gt.randn(shape).to(dtype)


@pytest.mark.parametrize("dtype", [gt.float32, gt.float64, gt.bfloat16])
@pytest.mark.parametrize("shape, dim, single", SHAPES)
def test_threads_change_no_bit(monkeypatch, shape, dim, single, dtype):
    x, grad = _case(shape, dtype)
    for name, value in SMALL.items():
        monkeypatch.setattr(kernels, name, value)
    alone = _with_threads(1, lambda: _results(x, grad, dim))
    shared = _with_threads(2, lambda: _results(x, grad, dim))
    for mine, reference in zip(shared, alone):
        np.testing.assert_array_equal(mine, reference)


@pytest.mark.parametrize("dtype", [gt.float32, gt.float64, gt.bfloat16])
@pytest.mark.parametrize("shape, dim, single", SHAPES)
def test_blocks_change_no_bit(monkeypatch, shape, dim, single, dtype):
    """Except in single columns, which NumPy sums pairwise, not in order."""
    x, grad = _case(shape, dtype)
    whole = _with_threads(1, lambda: _results(x, grad, dim))
    monkeypatch.setattr(kernels, "BLOCK", SMALL["BLOCK"])
    cut = _with_threads(1, lambda: _results(x, grad, dim))
    for mine, reference in zip(cut, whole):
        if single:
            np.testing.assert_allclose(mine, reference, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(mine, reference)


@pytest.mark.parametrize("dtype", [gt.float32, gt.float64])
def test_a_row_does_not_depend_on_its_neighbours_or_alignment(dtype):
    gt.manual_seed(2)
    rows = (gt.randn(64 * 37 + 1) * 4).to(dtype)
    x = rows[1:].view(64, 37)                  # another alignment than a fresh tensor
    grad = gt.randn(64, 37).to(dtype)
    together = _results(x, grad, 1)
    for row in (0, 13, 63):
        alone = _results(x[row:row + 1].clone(), grad[row:row + 1], 1)
        for mine, reference in zip(alone, together):
            np.testing.assert_array_equal(mine[0], reference[row])


def test_row_maximum_is_numpys():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((40, 33, 1)).astype(np.float32)
    x[3, 5] = np.nan
    x[7] = -np.inf
    x[9, 2] = np.inf
    np.testing.assert_array_equal(kernels._max_along(x), x.max(axis=1, keepdims=True))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_scales_by_the_reciprocal_along_the_last_dim_only(dtype):
    x = (np.random.default_rng(4).standard_normal((200, 37)) * 3).astype(dtype)
    shifted = np.exp(x - x.max(axis=1, keepdims=True))
    total = np.einsum("ij->i", shifted)[:, None]
    last = gt.softmax(gt.from_numpy(x), -1).numpy()
    np.testing.assert_array_equal(last, shifted * (1 / total))
    assert not np.array_equal(last, shifted / total)      # the rounding differs somewhere
    columns = shifted.T.copy()                  # the softmax dim first: summed in order
    first = gt.softmax(gt.from_numpy(x.T.copy()), 0).numpy()
    np.testing.assert_array_equal(first, columns / columns.sum(axis=0))
