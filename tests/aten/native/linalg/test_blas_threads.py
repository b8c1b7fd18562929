"""Large matrix products cut over glasstorch's pool (Note [One owner for the cores])."""
import os
import subprocess
import sys

import numpy as np
import pytest

import glasstorch as torch
from glasstorch.aten.native.linalg import blas_threads
from glasstorch.aten.native.linalg.blas_threads import matmul_into


@pytest.fixture
def two_threads():
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize("a_shape, b_shape", [
    ((600, 128), (128, 384)),          # cut along rows
    ((128, 600), (600, 512)),          # cut along columns
    ((64, 64, 96), (64, 96, 64)),      # cut along batches
])
@pytest.mark.parametrize("transposed", [False, True])
def test_cut_product_matches_whole(two_threads, a_shape, b_shape, transposed):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(a_shape, dtype=np.float32)
    if transposed:                     # an F-ordered operand, as grad.t() in a backward
        a = np.ascontiguousarray(np.swapaxes(a, -1, -2)).swapaxes(-1, -2)
    b = rng.standard_normal(b_shape, dtype=np.float32)
    out = np.full(a_shape[:-1] + b_shape[-1:], np.nan, np.float32)
    matmul_into(out, a, b)
    np.testing.assert_allclose(out, np.matmul(a, b), rtol=1e-5, atol=1e-4)


def test_overlapping_out_is_not_cut(two_threads):
    a = np.ones((512, 512), np.float32)
    matmul_into(a, a.copy(), np.eye(512, dtype=np.float32) * 2)
    assert (a == 2).all()


def test_mm_through_the_pool(two_threads):
    x, w = torch.randn(1024, 256), torch.randn(256, 300)
    np.testing.assert_allclose(torch.mm(x.t().contiguous().t(), w).numpy(),
                               x.numpy() @ w.numpy(), rtol=1e-5, atol=1e-4)


def test_broadcast_batch_is_not_cut(two_threads):
    a = np.random.default_rng(1).standard_normal((1, 256, 256), dtype=np.float32)
    b = np.random.default_rng(2).standard_normal((4, 256, 256), dtype=np.float32)
    out = np.empty((4, 256, 256), np.float32)
    matmul_into(out, a, b)
    np.testing.assert_allclose(out, np.matmul(a, b), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("a_shape, b_shape", [((600, 128), (128, 384)), ((128, 600), (600, 512))])
def test_row_added_per_slab(two_threads, a_shape, b_shape):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(a_shape, dtype=np.float32)
    b = rng.standard_normal(b_shape, dtype=np.float32)
    row = rng.standard_normal(b_shape[1], dtype=np.float32)
    expected = np.empty((a_shape[0], b_shape[1]), np.float32)
    matmul_into(expected, a, b)
    np.add(expected, row, out=expected)
    out = np.empty_like(expected)
    matmul_into(out, a, b, row)
    assert (out == expected).all()              # the same sums, the same additions


def test_small_product_stays_whole(two_threads, monkeypatch):
    """A linear layer's (64, 128) @ (128, 256) costs less whole than handed out in slabs."""
    handed_out = []
    monkeypatch.setattr(blas_threads, "parallel_share", lambda *args: handed_out.append(args))
    a, b = np.ones((64, 128), np.float32), np.ones((128, 256), np.float32)
    out = np.empty((64, 256), np.float32)
    matmul_into(out, a, b)
    assert not handed_out and (out == 128).all()


@pytest.mark.parametrize("threads", [2, 3])
def test_slabs_shared_over_any_thread_count(threads):
    """A slab per thread, each taken by whichever thread comes free first."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        rng = np.random.default_rng(4)
        a = rng.standard_normal((517, 300), dtype=np.float32)
        b = rng.standard_normal((300, 400), dtype=np.float32)
        row = rng.standard_normal(400, dtype=np.float32)
        out = np.full((517, 400), np.nan, np.float32)
        matmul_into(out, a, b, row)
    finally:
        torch.set_num_threads(before)
    np.testing.assert_allclose(out, np.matmul(a, b) + row, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("length, grain, threads, expected", [
    (512, 8, 2, [0, 256, 512]),
    (517, 8, 3, [0, 173, 346, 517]),             # the last takes the rest
    (12, 8, 2, [0, 8, 12]),                      # none shorter than the grain but the last
    (7, 1, 3, [0, 3, 6, 7]),
])
def test_slab_bounds(length, grain, threads, expected):
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        assert blas_threads._bounds(length, grain) == expected
    finally:
        torch.set_num_threads(before)


def test_every_openblas_loaded_is_held_to_one_thread():
    """SciPy's OpenBLAS loaded before glasstorch is held to one thread too, and the
    library glasstorch calls is NumPy's, whichever order the process map lists them."""
    script = (
        "import ctypes, scipy.linalg, numpy\n"
        "import glasstorch\n"
        "from glasstorch.aten.native.linalg import blas_threads as bt\n"
        "loaded = bt._loaded_openblas()\n"
        "getters = ('scipy_openblas_get_num_threads64_', 'scipy_openblas_get_num_threads',\n"
        "           'openblas_get_num_threads64_', 'openblas_get_num_threads')\n"
        "counts = [next(getattr(lib, g) for g in getters if hasattr(lib, g))()\n"
        "          for lib in loaded]\n"
        "print(len(loaded), counts, bt.OPENBLAS._name == loaded[0]._name,\n"
        "      'numpy' in bt.OPENBLAS._name)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120, env={**os.environ, "OPENBLAS_NUM_THREADS": "2"})
    assert result.returncode == 0, result.stderr
    count, *rest = result.stdout.split(" ", 1)
    if int(count) < 2:
        pytest.skip("SciPy and NumPy share one OpenBLAS here")
    assert rest[0].strip() == f"{[1] * int(count)} True True"


def test_slabs_cut_where_parallel_for_cuts(two_threads):
    """OpenBLAS's float64 kernels round some elements of a ragged product differently
    when it is cut elsewhere: the slabs stay where `parallel_for` put them."""
    if blas_threads.OPENBLAS is None:
        pytest.skip("products are cut only over OpenBLAS")
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((517, 300)), rng.standard_normal((300, 515))
    out = np.empty((517, 515))
    matmul_into(out, a, b)
    expected = np.empty_like(out)
    for start, stop in ((0, 259), (259, 517)):          # parallel_for's two chunks
        np.matmul(a[start:stop], b, out=expected[start:stop])
    assert (out == expected).all()
