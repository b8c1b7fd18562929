"""What the OpInfo records of db_triangular.py / db_distance.py cannot say: torch.cdist's
compute_mode strings and its two roads on larger inputs, the deprecated dim-less cross
and its once-per-process warning, cov / corrcoef in float16 and bfloat16, version counts
of fill_diagonal_, and the triangle kernels on sizes that split over the thread pool.

Differential checks skip without torch; the rest compare with NumPy.
"""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.shape import shape as shape_module


def _torch():
    return pytest.importorskip("torch")


def _pair(shape, dtype="float32", seed=0):
    values = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return gt.from_numpy(values.copy()), values


# ----- cdist ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                                  "donot_use_mm_for_euclid_dist"])
@pytest.mark.parametrize("rows", [5, 40])
def test_cdist_compute_modes_match_torch(mode, rows):
    torch = _torch()
    x1, a1 = _pair((2, rows, 8))
    x2, a2 = _pair((1, 30, 8), seed=1)
    mine = gt.cdist(x1, x2, compute_mode=mode).numpy()
    theirs = torch.cdist(torch.from_numpy(a1), torch.from_numpy(a2), compute_mode=mode).numpy()
    np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-5)


def test_cdist_matmul_road_loses_digits_as_torch_does():
    """A row's distance to itself: exactly 0 on the direct road, rounding noise by
    matrix products (Note [cdist's two roads]); glasstorch takes torch's road."""
    x, _ = _pair((30, 16))
    direct = gt.cdist(x, x, compute_mode="donot_use_mm_for_euclid_dist")
    assert (direct.diagonal() == 0).all()
    by_matmul = gt.cdist(x, x)
    assert float(by_matmul.diagonal().abs().max()) < 1e-2


def test_cdist_refuses_unknown_compute_mode():
    x, _ = _pair((3, 2))
    with pytest.raises(ValueError, match=r"^bogus is not a valid value for compute_mode$"):
        gt.cdist(x, x, compute_mode="bogus")


def test_cdist_large_matches_scipy_reference():
    x1, a1 = _pair((300, 64), "float64")
    x2, a2 = _pair((200, 64), "float64", seed=1)
    expected = np.sqrt(((a1[:, None, :] - a2[None, :, :]) ** 2).sum(-1))
    np.testing.assert_allclose(gt.cdist(x1, x2).numpy(), expected, rtol=1e-9)
    np.testing.assert_allclose(gt.cdist(x1, x2, p=1).numpy(),
                               np.abs(a1[:, None, :] - a2[None, :, :]).sum(-1), rtol=1e-12)


# ----- cross without dim ----------------------------------------------------------------------
def test_cross_default_dim_is_first_of_size_three(monkeypatch):
    monkeypatch.setattr(shape_module, "_WARNED", set())
    x, a = _pair((3, 4))
    y, b = _pair((3, 4), seed=1)
    with pytest.warns(UserWarning, match="Using torch.cross without specifying the dim arg"):
        result = gt.cross(x, y)
    np.testing.assert_allclose(result.numpy(), np.cross(a, b, axis=0), rtol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # once per process, as TORCH_WARN_ONCE
        gt.cross(x, y)
    with pytest.raises(RuntimeError, match=r"^no dimension of size 3 in input$"):
        gt.cross(gt.ones(2, 4), gt.ones(2, 4))


def test_linalg_cross_takes_the_last_dim():
    x, a = _pair((4, 3))
    y, b = _pair((1, 3), seed=1)
    result = gt.linalg.cross(x, y)
    np.testing.assert_allclose(result.numpy(), np.cross(a, b), rtol=1e-6)


# ----- cov / corrcoef in narrow floats --------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["cov", "corrcoef"])
def test_statistics_narrow_floats_match_torch(dtype, name):
    torch = _torch()
    values = np.random.default_rng(3).uniform(-4, 4, (3, 6)).astype(np.float32)
    mine = getattr(gt, name)(gt.from_numpy(values).to(getattr(gt, dtype)))
    theirs = getattr(torch, name)(torch.from_numpy(values).to(getattr(torch, dtype)))
    assert str(mine.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(mine.float().numpy(), theirs.float().numpy(), rtol=2e-2,
                               atol=2e-2)


def test_cov_warns_without_degrees_of_freedom():
    with pytest.warns(UserWarning, match=r"^cov\(\): degrees of freedom is <= 0"):
        result = gt.cov(gt.tensor([1.0, 2.0, 3.0]), correction=5)
    assert np.isinf(result.item())


# ----- fill_diagonal_, tril / triu on large inputs ---------------------------------------------
@pytest.mark.parametrize("shape, wrap, versions", [((3, 3), False, 1), ((8, 3), True, 2),
                                                   ((8, 3), False, 1)])
def test_fill_diagonal_bumps_once_per_fill(shape, wrap, versions):
    x = gt.zeros(shape)
    x.fill_diagonal_(1, wrap)
    assert x._version == versions           # torch writes the wrapped part with a 2nd fill
    expected = np.zeros(shape, np.float32)
    np.fill_diagonal(expected, 1, wrap=wrap)
    np.testing.assert_array_equal(x.numpy(), expected)


@pytest.mark.parametrize("diagonal", [-700, -3, 0, 5, 1200])
def test_triangles_of_large_batched_matrices(diagonal):
    x, a = _pair((3, 900, 1100))
    np.testing.assert_array_equal(gt.tril(x, diagonal).numpy(), np.tril(a, diagonal))
    np.testing.assert_array_equal(gt.triu(x, diagonal).numpy(), np.triu(a, diagonal))
    y = x.transpose(1, 2).clone().transpose(1, 2)       # column-major matrices, in place
    y.triu_(diagonal)
    np.testing.assert_array_equal(y.numpy(), np.triu(a, diagonal))


def test_triangle_indices_of_large_matrices():
    for offset in (-100, 0, 37):
        rows, cols = np.tril_indices(500, offset, 300)
        np.testing.assert_array_equal(gt.tril_indices(500, 300, offset).numpy(),
                                      np.stack([rows, cols]))
        rows, cols = np.triu_indices(500, offset, 300)
        np.testing.assert_array_equal(gt.triu_indices(500, 300, offset).numpy(),
                                      np.stack([rows, cols]))


# ----- out= overloads only torch.ops.aten has -------------------------------------------------
@pytest.mark.parametrize("call", [lambda m, o: m.trace(m.ones(2, 2), out=o),
                                  lambda m, o: m.diag_embed(m.ones(2), out=o),
                                  lambda m, o: m.diagonal_scatter(m.ones(2, 2), m.ones(2), out=o)])
def test_out_overloads_left_to_ops_aten(call):
    """torch binds no out= for these in Python (registry's ``bind_out=False``), yet
    ``torch.ops.aten.<name>.out`` exists and writes `out`."""
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        call(gt, gt.empty(0))
    out = gt.empty(0)
    assert gt.ops.aten.trace.out(gt.ones(3, 3), out=out) is out and out.item() == 3.0
