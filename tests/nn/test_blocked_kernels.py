"""The kernels that work in cache-sized blocks shared by the pool's threads (Note [Max
pooling in blocks], Note [Batch norm in channel blocks]): max pooling's values, indices
and gradients equal torch's on random windows, layouts, dtypes and special values, in
one block and in many; batch norm's float32 statistics and outputs equal torch's bit for
bit; and every result is the same on one thread and on two."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.nn import batch_norm_kernels, pooling_windows

from nn_compare import assert_close, to_glass

torch = pytest.importorskip("torch")
AVX512 = torch.backends.cpu.get_cpu_capability() == "AVX512"


def _pool_case(seed: int) -> tuple:
    """A random max pooling: input (with NaN, -inf or ties by turns), window, dtype."""
    rng = np.random.default_rng(seed)
    k = 2 if seed % 4 else 3
    spatial = tuple(int(rng.integers(3, 10)) for _ in range(k))
    kernel = [int(rng.integers(1, 4)) for _ in range(k)]
    dilation = [int(rng.integers(1, 3)) for _ in range(k)]
    stride = [int(rng.integers(1, 4)) for _ in range(k)]
    padding = [int(rng.integers(0, n // 2 + 1)) for n in kernel]
    kernel = [min(n, (s + 2 * p - 1) // d + 1) for n, s, p, d in
              zip(kernel, spatial, padding, dilation)]
    padding = [min(p, n // 2) for p, n in zip(padding, kernel)]
    x = rng.standard_normal((int(rng.integers(1, 4)), int(rng.integers(1, 4))) + spatial)
    if seed % 3 == 0:
        x = np.round(x)                                    # ties: the first one wins
    if seed % 5 == 0:
        x[rng.random(x.shape) < 0.2] = np.nan              # the last NaN wins
    if seed % 7 == 0:
        x[rng.random(x.shape) < 0.6] = -np.inf             # nothing above -inf
    dtype = ("float32", "float64", "bfloat16", "int64")[seed % 4] if seed % 5 else "float32"
    if dtype == "int64":
        x = np.nan_to_num(x * 4, nan=0.0, neginf=-9.0)
    window = (kernel, stride, padding, dilation, bool(rng.integers(0, 2)))
    return torch.from_numpy(x).to(getattr(torch, dtype)), window, seed % 6 == 1


def _max_pool(lib, x, window, last: bool):
    k = x.dim() - 2
    if last:
        x = x.contiguous(memory_format=lib.channels_last if k == 2 else lib.channels_last_3d)
    pool = getattr(lib.nn.functional, f"max_pool{k}d")
    values, indices = pool(x, *window, return_indices=True)
    grad = None
    if x.dtype in (lib.float32, lib.float64):
        backward = getattr(lib.ops.aten, f"max_pool{k}d_with_indices_backward")
        seeded = lib.arange(values.numel(), dtype=x.dtype).reshape(values.shape).sin()
        grad = backward(seeded, x, *window, indices)
    return values, indices, grad


@pytest.mark.parametrize("seed", range(40))
def test_max_pool_matches_torch(seed):
    x, window, last = _pool_case(seed)
    theirs = _max_pool(torch, x, window, last)
    mine = _max_pool(gt, to_glass(x), window, last)
    assert_close(mine[0], theirs[0], rtol=0, atol=0)
    assert np.array_equal(mine[1].numpy(), theirs[1].numpy())
    assert mine[0].stride() == theirs[0].stride() and mine[1].stride() == theirs[1].stride()
    if theirs[2] is not None:
        assert_close(mine[2], theirs[2], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("last", (False, True))
@pytest.mark.parametrize("window", [([2, 2], [2, 2], [0, 0], [1, 1], False),
                                    ([2, 3], [3, 4], [1, 1], [2, 1], True)])
def test_max_pool_gradient_of_disjoint_windows_is_torch_bits(window, last):
    x = torch.randn(4, 3, 9, 11)
    theirs_values, theirs_indices = torch.nn.functional.max_pool2d(x, *window,
                                                                   return_indices=True)
    grad = torch.randn(theirs_values.shape)
    grad[0, 0] = -0.0                            # put onto zeros: lands as 0.0
    theirs = torch.ops.aten.max_pool2d_with_indices_backward(grad, x, *window, theirs_indices)
    mine_x = to_glass(x)
    if last:
        mine_x = mine_x.contiguous(memory_format=gt.channels_last)
    _, mine_indices = gt.nn.functional.max_pool2d(mine_x, *window, return_indices=True)
    mine = gt.ops.aten.max_pool2d_with_indices_backward(to_glass(grad), mine_x, *window,
                                                        mine_indices)
    assert np.array_equal(mine.numpy().view(np.uint32), theirs.numpy().view(np.uint32))


@pytest.mark.parametrize("threads", (1, 2))
def test_max_pool_gradient_scattered_in_blocks_is_torch_bits(monkeypatch, threads):
    x = torch.randn(5, 4, 8, 6)
    values, indices = torch.nn.functional.max_pool2d(x, 2, return_indices=True)
    grad = torch.randn(values.shape)
    theirs = torch.ops.aten.max_pool2d_with_indices_backward(grad, x, [2, 2], [2, 2], [0, 0],
                                                             [1, 1], False, indices)
    monkeypatch.setattr(pooling_windows, "BLOCK", 100)          # two planes per block
    monkeypatch.setattr(pooling_windows, "GRAIN_SIZE", 1)       # every block its own task
    mine = _on_threads(threads, lambda: gt.ops.aten.max_pool2d_with_indices_backward(
        to_glass(grad), to_glass(x), [2, 2], [2, 2], [0, 0], [1, 1], False,
        to_glass(indices)))
    assert np.array_equal(mine.numpy().view(np.uint32), theirs.numpy().view(np.uint32))


def _on_threads(threads: int, function):
    before = gt.get_num_threads()
    gt.set_num_threads(threads)
    try:
        return function()
    finally:
        gt.set_num_threads(before)


@pytest.mark.parametrize("last", (False, True))
def test_max_pool_over_many_blocks_matches_torch_on_any_thread_count(monkeypatch, last):
    x = torch.randn(6, 5, 12, 10)
    window = ([3, 2], [2, 2], [1, 0], [1, 2], True)       # overlapping rows of windows
    theirs = _max_pool(torch, x, window, last)
    whole = _on_threads(1, lambda: _max_pool(gt, to_glass(x), window, last))
    assert np.array_equal(whole[0].numpy(), theirs[0].numpy())
    assert np.array_equal(whole[1].numpy(), theirs[1].numpy())
    assert_close(whole[2], theirs[2], rtol=1e-6, atol=1e-6)
    monkeypatch.setattr(pooling_windows, "BLOCK", 300)          # a few planes per block
    monkeypatch.setattr(pooling_windows, "GRAIN_SIZE", 1)       # every block its own task
    for threads in (1, 2):
        mine = _on_threads(threads, lambda: _max_pool(gt, to_glass(x), window, last))
        for found, expected in zip(mine, whole):
            assert np.array_equal(found.numpy(), expected.numpy())


def _batch_norm(lib, x, grad, train: bool = True):
    """native_batch_norm's results, the running statistics after it, and the
    gradients of its input, weight and bias."""
    channels = x.shape[1]
    generator = np.random.default_rng(channels)
    weight, bias, mean = (lib.from_numpy(generator.standard_normal(channels, np.float32))
                          for _ in range(3))
    var = lib.from_numpy(generator.random(channels, np.float32) + 0.5)
    x = x.detach().requires_grad_()
    weight.requires_grad_()
    bias.requires_grad_()
    out, save_mean, save_invstd = lib.native_batch_norm(x, weight, bias, mean, var, train,
                                                        0.1, 1e-5)
    out.backward(grad)
    return out, save_mean, save_invstd, mean, var, x.grad, weight.grad, bias.grad


@pytest.mark.skipif(not AVX512, reason="torch's fused multiply-adds here: its AVX-512 kernel")
@pytest.mark.parametrize("shape", [(16, 8, 32, 32), (7, 3, 5, 5), (3, 4, 300), (2, 5, 3)])
@pytest.mark.parametrize("train", (True, False))
def test_batch_norm_forward_rounds_as_torch(shape, train):
    torch.manual_seed(0)
    x, grad = torch.randn(shape) * 3 + 1, torch.randn(shape)
    theirs = _batch_norm(torch, x, grad, train)
    mine = _batch_norm(gt, to_glass(x), to_glass(grad), train)
    for found, expected in zip(mine[:5], theirs[:5]):     # output, statistics, running ones
        assert_close(found, expected, rtol=0, atol=0)
    for found, expected in zip(mine[5:], theirs[5:]):     # gradients: torch's formula
        assert_close(found, expected, rtol=1e-5, atol=1e-5)


def test_batch_norm_blocks_and_threads_change_nothing(monkeypatch):
    x, grad = gt.randn(6, 10, 7, 9) * 2 + 1, gt.randn(6, 10, 7, 9)
    whole = _on_threads(1, lambda: _batch_norm(gt, x, grad))
    monkeypatch.setattr(batch_norm_kernels, "BLOCK", 600)     # two channels per block
    monkeypatch.setattr(batch_norm_kernels, "GRAIN_SIZE", 1)  # every block its own task
    for threads in (1, 2):
        parts = _on_threads(threads, lambda: _batch_norm(gt, x, grad))
        for found, expected in zip(parts, whole):
            assert np.array_equal(found.detach().numpy(), expected.detach().numpy())


@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_batch_norm_of_one_sample_leaves_its_inputs_and_matches_torch(dtype):
    """A batch of one is already one row per channel: the kernels work on copies."""
    torch.manual_seed(0)
    x = torch.randn(1, 6, 5, dtype=getattr(torch, dtype))

    def second_order(lib, x):
        x = x.detach().requires_grad_()
        before = x.detach().clone()
        y = lib.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, False)
        grad, = lib.autograd.grad((y * y.detach().sin()).sum(), x, create_graph=True)
        second, = lib.autograd.grad((grad * grad).sum(), x)
        assert lib.equal(x.detach(), before)
        return y, grad, second
    for found, expected in zip(second_order(gt, to_glass(x)), second_order(torch, x)):
        assert_close(found, expected, rtol=1e-4, atol=1e-5)
