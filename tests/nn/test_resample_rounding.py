"""F.interpolate's rounding against torch 2.13, element for element: uint8 images through
torch's fixed-point passes (Note [uint8 resampling]) and float16 / bfloat16 through
torch's weights and accumulation (Note [Reduced-precision resampling])."""
import numpy as np
import pytest

import glasstorch as gt
import glasstorch.nn.functional as F

from nn_compare import numpy_of, to_glass

torch = pytest.importorskip("torch")

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
