"""nn.utils.fusion, skip_init and the memory-format conversions against torch."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _values(t):
    return t.detach().numpy().copy()


def _eval_pair(lib, layer, bn, spatial: int):
    """`layer` and a batch norm with non-trivial statistics, both in eval mode."""
    shape = (2, 3) + (3,) * spatial
    bn.train()
    bn(layer(lib.linspace(-2, 3, int(np.prod(shape))).reshape(shape)))
    with lib.no_grad():
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-1, 1)
    return layer.eval(), bn.eval()


@pytest.mark.parametrize("kind", ["conv2d", "conv1d no bias", "conv_transpose2d", "linear"])
def test_fused_layer_computes_layer_then_bn(kind):
    found = []
    for lib in (gt, torch):
        lib.manual_seed(0)
        nn = lib.nn
        if kind == "conv2d":
            layer, bn = nn.Conv2d(3, 4, 2), nn.BatchNorm2d(4)
        elif kind == "conv1d no bias":
            layer, bn = nn.Conv1d(3, 4, 2, bias=False), nn.BatchNorm1d(4)
        elif kind == "conv_transpose2d":
            layer, bn = nn.ConvTranspose2d(3, 4, 2), nn.BatchNorm2d(4)
        else:
            layer, bn = nn.Linear(3, 4), nn.BatchNorm1d(4)
        if kind == "linear":
            bn.train()
            bn(layer(lib.linspace(-2, 3, 15).reshape(5, 3)))
            layer.eval(), bn.eval()
            fused = nn.utils.fuse_linear_bn_eval(layer, bn)
            x = lib.linspace(-1, 1, 6).reshape(2, 3)
        else:
            spatial = 1 if kind == "conv1d no bias" else 2
            layer, bn = _eval_pair(lib, layer, bn, spatial)
            fused = nn.utils.fuse_conv_bn_eval(layer, bn, transpose=kind == "conv_transpose2d")
            x = lib.linspace(-1, 1, 2 * 3 * 4 ** spatial).reshape((2, 3) + (4,) * spatial)
        assert fused is not layer and isinstance(fused.weight, nn.Parameter)
        found.append((_values(fused(x)), _values(bn(layer(x))), _values(fused.bias)))
    for a, b in zip(*found):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(found[0][0], found[0][1], rtol=1e-5, atol=1e-5)


def test_fusion_refusals():
    conv, bn = gt.nn.Conv2d(2, 2, 1), gt.nn.BatchNorm2d(2)
    with pytest.raises(AssertionError, match="^Fusion only for eval!$"):
        gt.nn.utils.fuse_conv_bn_eval(conv, bn)
    with pytest.raises(AssertionError, match="^To fuse, linear.out_features == bn.num_features "
                                             "or bn.num_features == 1, got linear.out_features="
                                             "3 and bn.num_features=2$"):
        gt.nn.utils.fuse_linear_bn_eval(gt.nn.Linear(2, 3).eval(), bn.eval())
    stateless = gt.nn.BatchNorm2d(2, track_running_stats=False).eval()
    with pytest.raises(AssertionError, match="^bn.running_mean and bn.running_var must not be "
                                             "None$"):
        gt.nn.utils.fuse_conv_bn_eval(conv.eval(), stateless)


def test_fuse_weights_keep_dtypes_and_requires_grad():
    weight = gt.ones(2, 1, 1, 1).half().requires_grad_()
    w, b = gt.nn.utils.fuse_conv_bn_weights(weight, None, gt.zeros(2),
                                            gt.ones(2), 1e-5, None, None)
    assert w.dtype == gt.float16 and b.dtype == gt.float16
    assert w.requires_grad and not b.requires_grad


def test_skip_init():
    m = gt.nn.utils.skip_init(gt.nn.Linear, 5, 2, bias=False)
    assert m.weight.device.type == "cpu" and tuple(m.weight.shape) == (2, 5)
    assert m.bias is None
    with pytest.raises(RuntimeError, match="^Expected a Module; got"):
        gt.nn.utils.skip_init(int)

    class NoDevice(gt.nn.Module):
        def __init__(self):
            super().__init__()
    with pytest.raises(RuntimeError, match="^Module must support a 'device' arg to skip "
                                           "initialization$"):
        gt.nn.utils.skip_init(NoDevice)


@pytest.mark.parametrize("dims", [2, 3])
def test_convert_weight_memory_format(dims):
    found = []
    for lib in (gt, torch):
        lib.manual_seed(0)
        nn = lib.nn
        conv, transposed = (nn.Conv2d, nn.ConvTranspose2d) if dims == 2 else \
            (nn.Conv3d, nn.ConvTranspose3d)
        model = nn.Sequential(conv(2, 3, 2), nn.ReLU(), nn.Sequential(transposed(3, 2, 2)),
                              nn.Linear(2, 2))
        fmt = lib.channels_last if dims == 2 else lib.channels_last_3d
        convert = getattr(nn.utils, f"convert_conv{dims}d_weight_memory_format")
        before = _values(model[0].weight)
        assert convert(model, fmt) is model
        np.testing.assert_array_equal(before, _values(model[0].weight))
        found.append([model[0].weight.stride(), model[2][0].weight.stride(),
                      model[3].weight.stride()])
    assert found[0] == found[1]
