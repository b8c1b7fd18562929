"""The strides of FFT results, on CPU and on meta tensors, against torch's, over random
sizes, input permutations and transformed dims (Note [FFT result layout])."""
import random

import pytest

import glasstorch as gt


def _calls(torch_ops, glass_ops, dims, size_last):
    last = max(1, 2 * (size_last - 1))
    return ((torch_ops._fft_c2c, glass_ops._fft_c2c, True, (dims, 0, True)),
            (torch_ops._fft_r2c, glass_ops._fft_r2c, False, (dims, 0, True)),
            (torch_ops._fft_r2c, glass_ops._fft_r2c, False, (dims, 1, False)),
            (torch_ops._fft_c2r, glass_ops._fft_c2r, True, (dims, 2, last)))


@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_results_are_laid_out_as_torch_lays_them_out(device):
    torch = pytest.importorskip("torch")
    chooser = random.Random(0)
    for _ in range(60):
        ndim = chooser.randint(1, 4)
        size = [chooser.randint(1, 5) for _ in range(ndim)]
        order = chooser.sample(range(ndim), ndim)
        dims = chooser.sample(range(ndim), chooser.randint(1, ndim))
        for theirs, mine, complex_input, args in _calls(torch.ops.aten, gt.ops.aten, dims,
                                                         size[order[dims[-1]]]):
            dtype = "complex64" if complex_input else "float32"
            t = torch.empty(size, dtype=getattr(torch, dtype), device=device).permute(order)
            g = gt.empty(size, dtype=getattr(gt, dtype), device=device).permute(order)
            expected, got = theirs(t, *args), mine(g, *args)
            assert (tuple(got.shape), got.stride()) == (tuple(expected.shape),
                                                         expected.stride()), (size, order, args)
