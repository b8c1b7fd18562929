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
    ((2, 2, 9, 8), dict(size=(4, 5), mode="bilinear", antialias=True)),
    ((2, 2, 9, 8), dict(scale_factor=(0.4, 1.5), mode="bicubic", antialias=True,
                        align_corners=True)),
    ((2, 2, 9, 8), dict(size=(4, 13), mode="lanczos", antialias=True)),
    ((1, 3, 16, 5), dict(scale_factor=(0.3, 2.5), mode="lanczos", antialias=True)),
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


@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic"])
def test_channels_last_stays_channels_last(mode):
    x = torch.randn(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
    theirs = torch.nn.functional.interpolate(x, scale_factor=2, mode=mode)
    mine = F.interpolate(to_glass(x.contiguous()).contiguous(memory_format=gt.channels_last),
                         scale_factor=2, mode=mode)
    assert mine.stride() == theirs.stride()
    np.testing.assert_allclose(numpy_of(mine), numpy_of(theirs), atol=1e-5)


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
    lambda F, x: F.interpolate(x.view(1, 1, 2, 3), size=3, mode="lanczos"),
    lambda F, x: F.interpolate(x.view(1, 1, 2, 3), size=3, mode="lanczos", align_corners=True,
                               antialias=True),
    lambda F, x: F.interpolate(x, size=3, mode="lanczos", antialias=True),
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


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_matches_torch(mode, padding_mode, align_corners):
    """Values and the gradients of both the input and the grid (nearest: zeros)."""
    image_mine, image_theirs = _pair((2, 3, 5, 4))
    rng = np.random.default_rng(2)
    positions = (rng.uniform(-1.4, 1.4, (2, 3, 6, 2))).astype(np.float32)
    grid_mine = gt.from_numpy(positions.copy()).requires_grad_()
    grid_theirs = torch.from_numpy(positions.copy()).requires_grad_()
    kwargs = dict(mode=mode, padding_mode=padding_mode, align_corners=align_corners)
    out_mine = F.grid_sample(image_mine, grid_mine, **kwargs)
    out_theirs = torch.nn.functional.grid_sample(image_theirs, grid_theirs, **kwargs)
    np.testing.assert_allclose(numpy_of(out_mine), numpy_of(out_theirs), atol=1e-5)
    out_mine.square().sum().backward()
    out_theirs.square().sum().backward()
    np.testing.assert_allclose(numpy_of(image_mine.grad), numpy_of(image_theirs.grad),
                               atol=1e-4)
    np.testing.assert_allclose(numpy_of(grid_mine.grad), numpy_of(grid_theirs.grad),
                               atol=1e-3, rtol=1e-4)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_grid_sample_3d_matches_torch(mode):
    image_mine, image_theirs = _pair((2, 2, 3, 4, 5))
    positions = np.random.default_rng(3).uniform(-1.2, 1.2, (2, 2, 3, 2, 3)).astype(np.float32)
    grid_mine = gt.from_numpy(positions.copy()).requires_grad_()
    grid_theirs = torch.from_numpy(positions.copy()).requires_grad_()
    kwargs = dict(mode=mode, padding_mode="reflection", align_corners=False)
    out_mine = F.grid_sample(image_mine, grid_mine, **kwargs)
    out_theirs = torch.nn.functional.grid_sample(image_theirs, grid_theirs, **kwargs)
    np.testing.assert_allclose(numpy_of(out_mine), numpy_of(out_theirs), atol=1e-5)
    out_mine.square().sum().backward()
    out_theirs.square().sum().backward()
    np.testing.assert_allclose(numpy_of(grid_mine.grad), numpy_of(grid_theirs.grad),
                               atol=1e-3, rtol=1e-4)


def test_affine_grid_then_grid_sample_rotates_like_torch():
    angle = 0.3
    theta = torch.tensor([[[np.cos(angle), -np.sin(angle), 0.1],
                           [np.sin(angle), np.cos(angle), -0.2]]], dtype=torch.float32)
    image = torch.randn(1, 2, 6, 7)
    grid = torch.nn.functional.affine_grid(theta, (1, 2, 5, 5), align_corners=False)
    mine_grid = F.affine_grid(to_glass(theta), (1, 2, 5, 5), align_corners=False)
    np.testing.assert_allclose(numpy_of(mine_grid), numpy_of(grid), atol=1e-6)
    theirs = torch.nn.functional.grid_sample(image, grid, align_corners=False)
    mine = F.grid_sample(to_glass(image), mine_grid, align_corners=False)
    np.testing.assert_allclose(numpy_of(mine), numpy_of(theirs), atol=1e-5)


@pytest.mark.parametrize("call", [
    lambda F, torch: F.affine_grid(torch.zeros(2, 2, 3, dtype=torch.int32), (2, 3, 4, 5), False),
    lambda F, torch: F.affine_grid(torch.zeros(2, 2, 3), (2, 3, 4), False),
    lambda F, torch: F.affine_grid(torch.zeros(2, 3, 3), (2, 3, 4, 5), False),
    lambda F, torch: F.affine_grid(torch.zeros(2, 2, 3), (2, 3, 0, 5), True),
    lambda F, torch: F.grid_sample(torch.zeros(1, 1, 2, 2), torch.zeros(1, 1, 1, 2), "foo"),
    lambda F, torch: F.grid_sample(torch.zeros(1, 1, 2, 2), torch.zeros(1, 1, 1, 2),
                                   padding_mode="foo"),
    lambda F, torch: F.grid_sample(torch.zeros(1, 1, 2, 2, 2), torch.zeros(1, 1, 1, 1, 3),
                                   "bicubic", align_corners=False),
    lambda F, torch: F.grid_sample(torch.zeros(1, 1, 2, 2, dtype=torch.int32),
                                   torch.zeros(1, 1, 1, 2, dtype=torch.int32),
                                   align_corners=False),
])
def test_grid_refusals_match_torch(call):
    with pytest.raises(Exception) as theirs:
        call(torch.nn.functional, torch)
    with pytest.raises(type(theirs.value)) as mine:
        call(F, gt)
    assert str(mine.value) == str(theirs.value)


def test_grid_defaults_warn_as_torch():
    messages = []
    for module, library in ((F, gt), (torch.nn.functional, torch)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            grid = module.affine_grid(library.zeros(1, 2, 3), (1, 1, 1, 2))
            module.grid_sample(library.zeros(1, 1, 2, 2), grid)
            module.affine_grid(library.zeros(1, 2, 3), (1, 1, 1, 2), align_corners=True)
        messages.append([str(w.message) for w in caught])
    assert messages[0] == messages[1] and len(messages[0]) == 3
