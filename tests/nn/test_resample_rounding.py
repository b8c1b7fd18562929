"""F.interpolate's rounding against torch 2.13, element for element: uint8 images through
torch's fixed-point passes (Note [uint8 resampling]) and float16 / bfloat16 through
torch's weights and accumulation (Note [Reduced-precision resampling])."""
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

# (input shape, interpolate keywords) of uint8 images: shrinking and growing, each dim
# alone, sizes and scale factors, edges folded into the edge taps (bicubic)
UINT8_CASES = [
    ((1, 3, 5, 7), dict(size=(9, 4), mode="bilinear")),
    ((2, 1, 12, 9), dict(size=(3, 3), mode="bilinear", align_corners=True)),
    ((1, 4, 16, 16), dict(scale_factor=(1.7, 0.6), mode="bilinear")),
    ((1, 3, 5, 7), dict(size=(5, 20), mode="bicubic")),
    ((2, 1, 12, 9), dict(size=(3, 9), mode="bicubic", align_corners=True)),
    ((1, 4, 16, 16), dict(scale_factor=(0.45, 2.2), mode="bicubic")),
    ((1, 3, 16, 16), dict(size=(5, 7), mode="bilinear", antialias=True)),
    ((2, 1, 12, 9), dict(scale_factor=(1.7, 0.6), mode="bilinear", antialias=True,
                         align_corners=True)),
    ((1, 3, 16, 16), dict(size=(5, 21), mode="bicubic", antialias=True)),
    ((1, 2, 30, 20), dict(size=(7, 40), mode="lanczos", antialias=True)),
]


def _image(shape, seed=0):
    return torch.randint(0, 256, shape, dtype=torch.uint8,
                         generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("shape,kwargs", UINT8_CASES, ids=[str(k) for _, k in UINT8_CASES])
def test_uint8_images_round_as_torchs_fixed_point(shape, kwargs):
    image = _image(shape)
    theirs = torch.nn.functional.interpolate(image, **kwargs)
    mine = F.interpolate(to_glass(image), **kwargs)
    assert mine.dtype == gt.uint8
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


def test_uint8_channels_last_keeps_its_layout_and_values():
    image = _image((2, 4, 6, 5)).contiguous(memory_format=torch.channels_last)
    theirs = torch.nn.functional.interpolate(image, size=(9, 3), mode="bicubic")
    mine = F.interpolate(to_glass(image).contiguous(memory_format=gt.channels_last),
                         size=(9, 3), mode="bicubic")
    assert mine.stride() == theirs.stride()
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


def test_uint8_same_size_is_a_fresh_copy():
    image = to_glass(_image((1, 3, 4, 5)))
    out = F.interpolate(image, size=(4, 5), mode="bilinear")
    assert out.data_ptr() != image.data_ptr()
    np.testing.assert_array_equal(out.numpy(), image.numpy())


def test_uint8_meta_shape():
    out = F.interpolate(gt.empty(2, 3, 5, 6, dtype=gt.uint8, device="meta"), size=(7, 2),
                        mode="bicubic", antialias=True)
    assert out.device.type == "meta" and out.dtype == gt.uint8
    assert tuple(out.shape) == (2, 3, 7, 2)


# (input shape, interpolate keywords, channels last): each of torch's two float32 kernels
# (Note [Reduced-precision resampling]): small outputs, three channels and channels-last
# inputs take the channels-last kernel (its vector loop, its leftover channels, both);
# larger outputs, linear, bicubic and channels-first trilinear the generic one
REDUCED_CASES = [
    ((2, 3, 7, 9), dict(size=(13, 11), mode="bilinear"), False),
    ((2, 40, 7, 9), dict(size=(13, 11), mode="bilinear", align_corners=True), False),
    ((1, 3, 40, 50), dict(size=(100, 90), mode="bilinear"), False),
    ((1, 20, 30, 40), dict(size=(70, 80), mode="bilinear"), True),
    ((2, 3, 8, 8), dict(scale_factor=(1.0, 1.7), mode="bilinear"), False),
    ((3, 4, 30), dict(scale_factor=2.3, mode="linear"), False),
    ((2, 3, 8, 9), dict(scale_factor=(1.7, 0.6), mode="bicubic"), False),
    ((1, 2, 30, 40), dict(size=(90, 100), mode="bicubic", align_corners=True), False),
    ((1, 2, 4, 5, 6), dict(size=(9, 3, 11), mode="trilinear"), False),
    ((1, 17, 4, 5, 6), dict(size=(9, 3, 11), mode="trilinear", align_corners=True), True),
]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape,kwargs,last", REDUCED_CASES,
                         ids=[f"{s}-{k}-{c}" for s, k, c in REDUCED_CASES])
def test_reduced_precision_rounds_as_torch(dtype, shape, kwargs, last):
    x = (torch.randn(shape, generator=torch.Generator().manual_seed(0)) * 4).to(
        getattr(torch, dtype))
    mine = to_glass(x)
    if last:
        layout = "channels_last" if x.dim() == 4 else "channels_last_3d"
        x = x.contiguous(memory_format=getattr(torch, layout))
        mine = mine.contiguous(memory_format=getattr(gt, layout))
    theirs = torch.nn.functional.interpolate(x, **kwargs)
    out = F.interpolate(mine, **kwargs)
    assert out.dtype == getattr(gt, dtype) and out.stride() == theirs.stride()
    np.testing.assert_array_equal(numpy_of(out), numpy_of(theirs))


def test_three_channels_on_one_thread_take_the_channels_last_kernel():
    x = (torch.randn(1, 3, 40, 50, generator=torch.Generator().manual_seed(1)) * 4).half()
    threads, mine = torch.get_num_threads(), gt.get_num_threads()
    torch.set_num_threads(1)
    gt.set_num_threads(1)
    try:
        theirs = torch.nn.functional.interpolate(x, size=(100, 90), mode="bilinear")
        out = F.interpolate(to_glass(x), size=(100, 90), mode="bilinear")
    finally:
        torch.set_num_threads(threads)
        gt.set_num_threads(mine)
    np.testing.assert_array_equal(numpy_of(out), numpy_of(theirs))


# (input shape, interpolate keywords, channels last): the gradients of every interpolating
# mode, growing and shrinking, with repeated edge taps (linear past the last position,
# bicubic's clamped taps) and a channels-last gradient (Note [Resampling gradients in
# torch's order])
GRADIENT_CASES = [
    ((2, 3, 7, 9), dict(size=(13, 11), mode="bilinear"), False),
    ((2, 3, 12, 9), dict(size=(5, 4), mode="bilinear", align_corners=True), False),
    ((1, 20, 30, 40), dict(size=(70, 80), mode="bilinear"), True),
    ((3, 4, 30), dict(scale_factor=2.3, mode="linear"), False),
    ((1, 2, 4, 5, 6), dict(size=(9, 3, 11), mode="trilinear"), False),
    ((1, 5, 4, 5, 6), dict(size=(9, 7, 3), mode="trilinear", align_corners=True), True),
    ((2, 3, 7, 9), dict(size=(13, 11), mode="bicubic"), False),
    ((2, 3, 8, 9), dict(scale_factor=(1.7, 0.6), mode="bicubic", align_corners=True), False),
]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("shape,kwargs,last", GRADIENT_CASES,
                         ids=[f"{s}-{k}-{c}" for s, k, c in GRADIENT_CASES])
def test_gradients_sum_as_torch(dtype, shape, kwargs, last):
    generator = torch.Generator().manual_seed(2)
    x = (torch.randn(shape, generator=generator) * 3).to(getattr(torch, dtype))
    mine = to_glass(x)
    if last:
        layout = "channels_last" if x.dim() == 4 else "channels_last_3d"
        x = x.contiguous(memory_format=getattr(torch, layout))
        mine = mine.contiguous(memory_format=getattr(gt, layout))
    x.requires_grad_()
    mine.requires_grad_()
    theirs = torch.nn.functional.interpolate(x, **kwargs)
    grad = torch.randn(theirs.shape, generator=generator).to(theirs.dtype)
    if last:
        grad = grad.contiguous(memory_format=getattr(torch, layout))
    theirs.backward(grad)
    F.interpolate(mine, **kwargs).backward(to_glass(grad).contiguous(
        memory_format=getattr(gt, layout) if last else gt.contiguous_format))
    assert mine.grad.dtype == getattr(gt, dtype) and mine.grad.stride() == x.grad.stride()
    np.testing.assert_array_equal(numpy_of(mine.grad), numpy_of(x.grad))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_antialiasing_refuses_reduced_precision_as_torch(dtype, mode):
    x = torch.randn(1, 2, 4, 4).to(getattr(torch, dtype))
    with pytest.raises(NotImplementedError) as theirs:
        torch.nn.functional.interpolate(x, size=(2, 4), mode=mode, antialias=True)
    with pytest.raises(NotImplementedError) as mine:
        F.interpolate(to_glass(x), size=(2, 4), mode=mode, antialias=True)
    assert str(mine.value) == str(theirs.value)
    # an unchanged size is copied before the weights are computed
    same = F.interpolate(to_glass(x), size=(4, 4), mode=mode, antialias=True)
    np.testing.assert_array_equal(numpy_of(same), numpy_of(x))


# area interpolation is adaptive average pooling: torch sums 2-d windows in float32 and
# 3-d ones in the input's dtype (Note [Adaptive windows])
AREA_CASES = [((2, 3, 20, 30), (7, 11)), ((2, 3, 17), (5,)), ((1, 2, 6, 7, 8), (3, 4, 5)),
              ((2, 3, 4, 9, 9), (3, 4, 4))]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape,size", AREA_CASES, ids=[str(c) for c in AREA_CASES])
def test_area_rounds_as_torch(dtype, shape, size):
    x = (torch.randn(shape, generator=torch.Generator().manual_seed(3)) * 3).to(
        getattr(torch, dtype))
    theirs = torch.nn.functional.interpolate(x, size=size, mode="area")
    out = F.interpolate(to_glass(x), size=size, mode="area")
    np.testing.assert_array_equal(numpy_of(out), numpy_of(theirs))
