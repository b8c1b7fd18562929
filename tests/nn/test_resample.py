"""F.interpolate, the Upsample modules and the channel rearrangements against torch 2.13:
every mode with sizes, scale factors (the conventions differ between modes), align_corners
and recompute_scale_factor; values, shapes, gradients; the modules' reprs; torch's
refusals with their exception types and messages."""
import warnings

import numpy as np
import pytest

import glasstorch as gt
import glasstorch.nn as nn
import glasstorch.nn.functional as F

from nn_compare import numpy_of, to_glass

torch = pytest.importorskip("torch")

# (input shape, interpolate keywords)
CASES = [
    ((2, 3, 5), dict(scale_factor=2)),
    ((2, 3, 5), dict(size=8, mode="nearest-exact")),
    ((1, 2, 7), dict(scale_factor=0.6, mode="linear")),
    ((1, 2, 7), dict(scale_factor=1.7, mode="linear", align_corners=True)),
    ((2, 2, 5, 6), dict(scale_factor=(1.5, 0.7))),
    ((2, 2, 5, 6), dict(size=(9, 4), mode="bilinear")),
    ((2, 2, 5, 6), dict(scale_factor=2.1, mode="bilinear", recompute_scale_factor=True)),
    ((2, 2, 5, 6), dict(scale_factor=1.3, mode="bicubic", align_corners=True)),
    ((1, 2, 4, 5), dict(size=(7, 3), mode="bicubic")),
    ((1, 2, 3, 4, 5), dict(scale_factor=1.5, mode="trilinear")),
    ((1, 2, 3, 4, 5), dict(size=(5, 2, 7), mode="nearest")),
    ((1, 2, 3, 4, 5), dict(scale_factor=0.8, mode="nearest-exact")),
]


def _pair(shape, seed=0):
    array = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return (gt.from_numpy(array.copy()).requires_grad_(),
            torch.from_numpy(array.copy()).requires_grad_())


@pytest.mark.parametrize("shape,kwargs", CASES, ids=[str(k) for _, k in CASES])
def test_interpolate_matches_torch(shape, kwargs):
    mine, theirs = _pair(shape)
    out_mine, out_theirs = F.interpolate(mine, **kwargs), torch.nn.functional.interpolate(
        theirs, **kwargs)
    assert tuple(out_mine.shape) == tuple(out_theirs.shape)
    exact = kwargs.get("mode", "nearest").startswith("nearest")
    tolerance = 0 if exact else 1e-6
    np.testing.assert_allclose(numpy_of(out_mine), numpy_of(out_theirs), rtol=tolerance,
                               atol=tolerance)
    weights = np.random.default_rng(1).standard_normal(tuple(out_mine.shape)).astype(np.float32)
    (out_mine * gt.from_numpy(weights)).sum().backward()
    (out_theirs * torch.from_numpy(weights)).sum().backward()
    np.testing.assert_allclose(numpy_of(mine.grad), numpy_of(theirs.grad), rtol=1e-5,
                               atol=1e-5)


def test_nearest_source_positions_follow_torchs_float32_arithmetic():
    """A scale factor whose float32 reciprocal rounds across an integer: positions
    differ from exact arithmetic, and torch's are kept."""
    x = torch.arange(10.0).view(1, 1, 10)
    for factor in (0.3, 2.1, 1.0 / 3.0, 2.5):
        theirs = torch.nn.functional.interpolate(x, scale_factor=factor)
        mine = F.interpolate(to_glass(x), scale_factor=factor)
        assert numpy_of(mine).tolist() == numpy_of(theirs).tolist()


def test_float64_linear_is_torchs_to_the_last_bits():
    x = torch.randn(1, 1, 10, dtype=torch.float64)
    theirs = torch.nn.functional.interpolate(x, scale_factor=2.1, mode="linear")
    mine = F.interpolate(to_glass(x), scale_factor=2.1, mode="linear")
    np.testing.assert_allclose(numpy_of(mine), numpy_of(theirs), rtol=0, atol=1e-15)


def test_meta_shapes():
    out = F.interpolate(gt.empty(2, 3, 5, 6, device="meta"), scale_factor=1.7, mode="bicubic")
    assert out.device.type == "meta" and tuple(out.shape) == (2, 3, 8, 10)


@pytest.mark.parametrize("call", [
    lambda F, x: F.interpolate(x, size=3, scale_factor=2),
    lambda F, x: F.interpolate(x),
    lambda F, x: F.interpolate(x, size=3, align_corners=True),
    lambda F, x: F.interpolate(x, size=(3, 3)),
    lambda F, x: F.interpolate(x, scale_factor=(2, 2)),
    lambda F, x: F.interpolate(x, size=3, recompute_scale_factor=True),
    lambda F, x: F.interpolate(x, size=3, mode="bilinear"),
    lambda F, x: F.interpolate(x, size=3, mode="trilinear"),
    lambda F, x: F.interpolate(x, size=3, mode="cubic"),
    lambda F, x: F.interpolate(x, size=3, mode="linear", antialias=True),
    lambda F, x: F.interpolate(x, size=[2.5]),
    lambda F, x: F.interpolate(x.int(), size=4, mode="linear"),
])
def test_refusals_match_torch(call):
    x = torch.randn(1, 2, 3)
    with pytest.raises(Exception) as theirs:
        call(torch.nn.functional, x)
    with pytest.raises(type(theirs.value)) as mine:
        call(F, to_glass(x))
    assert str(mine.value) == str(theirs.value)


def test_deprecated_spellings_warn_and_resize():
    x = torch.randn(1, 1, 2, 3)
    for name in ("upsample", "upsample_nearest", "upsample_bilinear"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            mine = getattr(F, name)(to_glass(x), size=4)
        theirs = getattr(torch.nn.functional, name)(x, size=4)
        assert [str(w.message) for w in caught] == [
            f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` instead."]
        np.testing.assert_allclose(numpy_of(mine), numpy_of(theirs), atol=1e-6)


@pytest.mark.parametrize("make", [
    lambda nn: nn.Upsample(scale_factor=2),
    lambda nn: nn.Upsample(size=(4, 5), mode="bilinear", align_corners=True),
    lambda nn: nn.Upsample(scale_factor=(1.5, 2), mode="bicubic"),
    lambda nn: nn.UpsamplingNearest2d(scale_factor=2),
    lambda nn: nn.UpsamplingBilinear2d(size=5),
    lambda nn: nn.PixelShuffle(2),
    lambda nn: nn.PixelUnshuffle(2),
    lambda nn: nn.ChannelShuffle(2),
])
def test_modules_match_torch(make):
    mine, theirs = make(nn), make(torch.nn)
    assert repr(mine) == repr(theirs)
    x = torch.randn(2, 4, 4, 6)
    np.testing.assert_allclose(numpy_of(mine(to_glass(x))), numpy_of(theirs(x)), atol=1e-6)


def test_channel_shuffle_records_its_gradient_and_native_refuses():
    x = gt.randn(2, 4, 3, requires_grad=True)
    gt.channel_shuffle(x, 2).sum().backward()
    assert x.grad.tolist() == gt.ones(2, 4, 3).tolist()
    y = gt.native_channel_shuffle(x, 2)
    with pytest.raises(RuntimeError, match="^derivative for aten::native_channel_shuffle is "
                                           "not implemented$"):
        y.sum().backward()


@pytest.mark.parametrize("shape,kwargs", [
    ((2, 3, 5, 6), dict(kernel_size=2)),
    ((3, 5, 6), dict(kernel_size=(2, 3), dilation=2, padding=1, stride=(2, 1))),
    ((1, 2, 7, 7), dict(kernel_size=3, stride=2, padding=1)),
])
def test_unfold_and_fold_match_torch(shape, kwargs):
    """Values bit for bit (overlaps summed in torch's order), gradients, layouts."""
    mine, theirs = _pair(shape)
    columns_mine = F.unfold(mine, **kwargs)
    columns_theirs = torch.nn.functional.unfold(theirs, **kwargs)
    assert numpy_of(columns_mine).tolist() == numpy_of(columns_theirs).tolist()
    assert columns_mine.stride() == columns_theirs.stride()
    image_mine = F.fold(columns_mine, shape[-2:], **kwargs)
    image_theirs = torch.nn.functional.fold(columns_theirs, shape[-2:], **kwargs)
    assert numpy_of(image_mine).tolist() == numpy_of(image_theirs).tolist()
    assert image_mine.stride() == image_theirs.stride()
    image_mine.square().sum().backward()
    image_theirs.square().sum().backward()
    np.testing.assert_allclose(numpy_of(mine.grad), numpy_of(theirs.grad), rtol=1e-6)


@pytest.mark.parametrize("make,shape", [
    (lambda nn: nn.Unfold(2), (2, 3, 4, 5)),
    (lambda nn: nn.Unfold((2, 3), padding=1, stride=(1, 2)), (3, 4, 5)),
    (lambda nn: nn.Fold((4, 5), 2), (2, 12, 12)),
    (lambda nn: nn.Fold(output_size=(5, 5), kernel_size=(2, 3), dilation=2), (12, 3)),
])
def test_fold_modules_match_torch(make, shape):
    mine, theirs = make(nn), make(torch.nn)
    assert repr(mine) == repr(theirs)
    x = torch.randn(shape)
    assert numpy_of(mine(to_glass(x))).tolist() == numpy_of(theirs(x)).tolist()
