"""Normalization's float16 / bfloat16 rounding against torch 2.13, element for element:
batch statistics summed in torch's order and kept in its dtypes (Note [Reduced-precision
batch statistics]), the affine map with torch's fused multiply-adds."""
import numpy as np
import pytest

import glasstorch as gt
import glasstorch.nn.functional as F

from nn_compare import numpy_of, to_glass

torch = pytest.importorskip("torch")
# glasstorch rounds as torch's kernels on an AVX-512 CPU do (their vector width and uint8
# path); torch on another CPU rounds differently, so bit-for-bit comparisons need that CPU
pytestmark = pytest.mark.skipif(torch.backends.cpu.get_cpu_capability() != "AVX512",
                                reason="torch's rounding here comes from its AVX-512 kernels")

# (input shape, channels last): whole vector loads and leftovers, one sample, 1-d
SHAPES = [((8, 16, 4, 4), False), ((3, 12, 5, 6), False), ((16, 8, 33), False),
          ((1, 40, 30), False), ((4, 20, 5, 6), True)]


def _case(shape, dtype, parameters, seed=0):
    generator = torch.Generator().manual_seed(seed)
    x = (torch.randn(shape, generator=generator) * 3 + 2).to(getattr(torch, dtype))
    channels = shape[1]
    weight, bias, mean = (torch.randn(channels, generator=generator) for _ in range(3))
    var = torch.rand(channels, generator=generator) + 0.5
    return x, [t.to(getattr(torch, parameters)) for t in (weight, bias, mean, var)]


def _assert_same(mine, theirs):
    assert str(mine.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(numpy_of(mine), numpy_of(theirs))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape,last", SHAPES, ids=[str(s) for s in SHAPES])
def test_batch_norm_training_rounds_as_torch(dtype, shape, last):
    x, (weight, bias, mean, var) = _case(shape, dtype, dtype)
    mine_x, mine_params = to_glass(x), [to_glass(t) for t in (weight, bias, mean, var)]
    if last:
        x = x.contiguous(memory_format=torch.channels_last)
        mine_x = mine_x.contiguous(memory_format=gt.channels_last)
    theirs = torch.native_batch_norm(x, weight, bias, mean, var, True, 0.1, 1e-5)
    mine = gt.native_batch_norm(mine_x, *mine_params, True, 0.1, 1e-5)
    for a, b in zip(mine, theirs):          # output, saved mean and inverse std
        _assert_same(a, b)
    _assert_same(mine_params[2], mean)      # the running statistics
    _assert_same(mine_params[3], var)
    # evaluation normalizes with the running statistics just updated
    _assert_same(gt.native_batch_norm(mine_x, *mine_params, False, 0.1, 1e-5)[0],
                 torch.native_batch_norm(x, weight, bias, mean, var, False, 0.1, 1e-5)[0])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_instance_norm_rounds_as_torch(dtype):
    x, (weight, bias, _, _) = _case((4, 3, 5, 6), dtype, dtype, seed=1)
    theirs = torch.nn.functional.instance_norm(x, weight=weight, bias=bias)
    _assert_same(F.instance_norm(to_glass(x), weight=to_glass(weight), bias=to_glass(bias)),
                 theirs)
