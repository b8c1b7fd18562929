"""Transposed convolution's float16 rounding against torch 2.13, element for element:
torch's slow kernel rounds each column to float16 and adds them, and the bias, in
float16 (Note [Convolution as GEMM]); bfloat16 rounds once."""
import numpy as np
import pytest

import glasstorch.nn.functional as F

from nn_compare import numpy_of, to_glass

torch = pytest.importorskip("torch")
# glasstorch rounds as torch's kernels on an AVX-512 CPU do (their vector width and uint8
# path); torch on another CPU rounds differently, so bit-for-bit comparisons need that CPU
pytestmark = pytest.mark.skipif(torch.backends.cpu.get_cpu_capability() != "AVX512",
                                reason="torch's rounding here comes from its AVX-512 kernels")

# (function name, input shape, weight shape, keywords)
CASES = [
    ("conv_transpose1d", (2, 4, 9), (4, 3, 3), dict(stride=2, dilation=2)),
    ("conv_transpose2d", (2, 4, 5, 6), (4, 3, 3, 3), dict(stride=2)),
    ("conv_transpose2d", (2, 4, 5, 6), (4, 3, 3, 3),
     dict(stride=2, groups=2, padding=1, output_padding=1)),
    ("conv_transpose3d", (1, 4, 3, 4, 5), (4, 2, 2, 3, 2), dict(stride=(1, 2, 2))),
]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name,shape,weight_shape,kwargs", CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_transposed_convolution_rounds_as_torch(dtype, name, shape, weight_shape, kwargs):
    generator = torch.Generator().manual_seed(0)
    kind = getattr(torch, dtype)
    x = (torch.randn(shape, generator=generator) * 3).to(kind)
    weight = torch.randn(weight_shape, generator=generator).to(kind)
    bias = torch.randn(weight_shape[1] * kwargs.get("groups", 1), generator=generator).to(kind)
    theirs = getattr(torch.nn.functional, name)(x, weight, bias, **kwargs)
    mine = getattr(F, name)(to_glass(x), to_glass(weight), to_glass(bias), **kwargs)
    assert str(mine.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(numpy_of(mine), numpy_of(theirs))
