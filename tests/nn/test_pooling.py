"""Pooling layers and torch.nn.functional's pooling functions against torch: values,
indices, gradients, reprs, the argument forms of the Python layer (``None`` in adaptive
sizes, ``return_indices``, output ratios, unpooling sizes) and its refusals; fractional
max pooling draws the windows torch draws for a seed."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

# (module name, constructor arguments, input shape)
MODULES = [
    ("MaxPool1d", (3, 2, 1), {}, (2, 3, 9)),
    ("MaxPool2d", (3, 2, 1, 2), {"ceil_mode": True}, (2, 3, 9, 8)),
    ("MaxPool2d", (2,), {"return_indices": True}, (3, 8, 8)),
    ("MaxPool3d", ((2, 3, 2),), {}, (2, 2, 5, 6, 5)),
    ("AvgPool1d", (3, 2, 1), {"count_include_pad": False}, (2, 3, 9)),
    ("AvgPool2d", (3,), {"divisor_override": 2}, (2, 3, 9, 8)),
    ("AvgPool3d", (2, 1), {"ceil_mode": True}, (2, 2, 5, 6, 5)),
    ("AdaptiveAvgPool1d", (4,), {}, (2, 3, 9)),
    ("AdaptiveAvgPool2d", ((None, 3),), {}, (2, 3, 9, 8)),
    ("AdaptiveAvgPool2d", (1,), {}, (2, 3, 9, 8)),
    ("AdaptiveAvgPool3d", ((2, 3, None),), {}, (2, 2, 5, 6, 5)),
    ("AdaptiveMaxPool1d", (3, True), {}, (2, 3, 9)),
    ("AdaptiveMaxPool2d", ((4, None),), {}, (2, 3, 9, 8)),
    ("AdaptiveMaxPool3d", (2,), {"return_indices": True}, (2, 2, 5, 6, 5)),
    ("LPPool1d", (2, 3), {}, (2, 3, 9)),
    ("LPPool2d", (3, (3, 2), 2), {"ceil_mode": True}, (2, 3, 9, 8)),
    ("LPPool3d", (1, 2), {}, (2, 2, 5, 6, 5)),
    ("FractionalMaxPool2d", (2,), {"output_ratio": 0.5}, (2, 3, 9, 8)),
    ("FractionalMaxPool2d", ((2, 3), (4, 3)), {"return_indices": True}, (3, 9, 8)),
    ("FractionalMaxPool3d", (2, 3), {}, (2, 2, 5, 6, 5)),
]


def _first(result):
    return result[0] if isinstance(result, tuple) else result


def _run(module, x):
    """Output, indices (or None) and the input's gradient of summing the output."""
    x = x.clone().requires_grad_(True)
    result = module(x)
    _first(result).sum().backward()
    indices = result[1] if isinstance(result, tuple) else None
    return _first(result).detach(), indices, x.grad


@pytest.mark.parametrize("name, args, kwargs, shape", MODULES,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(MODULES)])
@pytest.mark.parametrize("training", (True, False))
def test_module_matches_torch(name, args, kwargs, shape, training):
    x = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
    if name.startswith("LPPool"):
        x = np.abs(x) + 0.1            # a fractional power of a negative sum is NaN in both
    gt.manual_seed(5)
    torch.manual_seed(5)
    mine_module = getattr(gt.nn, name)(*args, **kwargs).train(training)
    their_module = getattr(torch.nn, name)(*args, **kwargs).train(training)
    assert repr(mine_module) == repr(their_module)
    mine = _run(mine_module, gt.tensor(x))
    theirs = _run(their_module, torch.tensor(x))
    np.testing.assert_allclose(mine[0].numpy(), theirs[0].numpy(), rtol=1e-5, atol=1e-6)
    if theirs[1] is not None:
        np.testing.assert_array_equal(mine[1].numpy(), theirs[1].numpy())
    np.testing.assert_allclose(mine[2].numpy(), theirs[2].numpy(), rtol=1e-5, atol=1e-6)


def test_module_attributes_match_torch():
    for name, args, kwargs, _ in MODULES:
        mine = getattr(gt.nn, name)(*args, **kwargs)
        theirs = getattr(torch.nn, name)(*args, **kwargs)
        public = {k: v for k, v in vars(theirs).items() if not k.startswith("_")}
        assert {k: getattr(mine, k) for k in public} == public, name


def test_fractional_samples_follow_the_seed():
    """F.fractional_max_pool2d draws its samples with torch.rand: a seeded call pools
    the windows torch pools, and the module keeps given samples as a buffer."""
    x = np.random.default_rng(0).standard_normal((2, 3, 11, 10)).astype(np.float32)
    gt.manual_seed(11)
    torch.manual_seed(11)
    mine = gt.nn.functional.fractional_max_pool2d(gt.tensor(x), 3, output_ratio=(0.5, 0.6),
                                                  return_indices=True)
    theirs = torch.nn.functional.fractional_max_pool2d(torch.tensor(x), 3,
                                                       output_ratio=(0.5, 0.6),
                                                       return_indices=True)
    np.testing.assert_array_equal(mine[1].numpy(), theirs[1].numpy())
    samples = gt.rand(2, 3, 2)
    layer = gt.nn.FractionalMaxPool2d(2, output_size=4, _random_samples=samples)
    assert "_random_samples" in dict(layer.named_buffers())
    first, second = layer(gt.tensor(x)), layer(gt.tensor(x))
    assert gt.equal(first, second)


def test_unpool_inverts_pool():
    x = np.random.default_rng(1).standard_normal((2, 3, 9, 8)).astype(np.float32)
    for k in (1, 2, 3):
        source = {1: x.reshape(2, 3, 72), 2: x, 3: x[None]}[k]
        pool = getattr(torch.nn.functional, f"max_pool{k}d")
        values, indices = pool(torch.tensor(source), 2, return_indices=True)
        size = source.shape[-k:]
        theirs = getattr(torch.nn.functional, f"max_unpool{k}d")(values, indices, 2,
                                                                 output_size=size)
        mine = getattr(gt.nn.functional, f"max_unpool{k}d")(
            gt.tensor(values.numpy()), gt.tensor(indices.numpy()), 2, output_size=size)
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
        module = getattr(gt.nn, f"MaxUnpool{k}d")(2)
        assert repr(module) == repr(getattr(torch.nn, f"MaxUnpool{k}d")(2))


def test_lp_pool_infinite_norm_is_the_max_of_magnitudes():
    x = np.random.default_rng(2).standard_normal((2, 3, 8)).astype(np.float32)
    for norm in (float("inf"), -float("inf")):
        mine = gt.nn.functional.lp_pool1d(gt.tensor(x), norm, 2)
        theirs = torch.nn.functional.lp_pool1d(torch.tensor(x), norm, 2)
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


def _raises_like_torch(call):
    """The same exception type and message from both libraries."""
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as mine:
        call(gt)
    assert str(mine.value) == str(theirs.value)


@pytest.mark.parametrize("call", [
    lambda t: t.nn.FractionalMaxPool2d(2),
    lambda t: t.nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5),
    lambda t: t.nn.FractionalMaxPool3d(2, output_ratio=1.5),
    lambda t: t.nn.functional.fractional_max_pool2d(t.ones(1, 4, 4), 2),
    lambda t: t.nn.functional.max_unpool2d(t.ones(1, 1, 2, 2), t.zeros(1, 1, 2, 2).long(), 2,
                                           output_size=(9, 9)),
    lambda t: t.nn.functional.max_unpool2d(t.ones(1, 1, 2, 2), t.zeros(1, 1, 2, 2).long(), 2,
                                           output_size=(4,)),
    lambda t: t.nn.functional.adaptive_avg_pool2d(t.ones(4, 4), (None, 2)),
    lambda t: t.nn.functional.max_pool2d(t.ones(1, 4, 4), 5),
    lambda t: t.nn.functional.avg_pool1d(t.ones(4), 2),
    lambda t: t.max_pool1d(t.ones(2, 3), [5]),
    lambda t: t.adaptive_avg_pool1d(t.ones(2, 3, 4), [2, 2]),
])
def test_refusals_match_torch(call):
    _raises_like_torch(call)


def test_global_average_records_a_mean():
    """adaptive_avg_pool2d to 1x1 is a mean over the last two dims, as torch records it."""
    x = gt.ones(2, 3, 4, 4, requires_grad=True)
    y = gt.nn.functional.adaptive_avg_pool2d(x, 1)
    assert type(y.grad_fn).__name__ == "MeanBackward1"
    assert type(gt.nn.functional.adaptive_avg_pool2d(x, 2).grad_fn).__name__ == \
        "AdaptiveAvgPool2DBackward0"
    assert type(gt.nn.functional.max_pool2d(x, 2).grad_fn).__name__ == \
        "MaxPool2DWithIndicesBackward0"


@pytest.mark.parametrize("call", [
    lambda F, t: F.max_pool2d(t, 2, return_indices=True),
    lambda F, t: F.avg_pool2d(t, 3, 2, 1),
    lambda F, t: F.adaptive_avg_pool2d(t, 3),
    lambda F, t: F.adaptive_max_pool2d(t, 3, return_indices=True),
    lambda F, t: F.fractional_max_pool2d(t, 2, output_size=3, return_indices=True,
                                         _random_samples=t.new_full((2, 3, 2), 0.5)),
])
def test_channels_last_layout_matches_torch(call):
    """Results keep a channels-last input's layout where torch's kernels do."""
    x = np.random.default_rng(3).standard_normal((2, 3, 8, 8)).astype(np.float32)
    results = []
    for lib in (gt, torch):
        result = call(lib.nn.functional, lib.tensor(x).to(memory_format=lib.channels_last))
        results.append(result if isinstance(result, tuple) else (result,))
    for mine, theirs in zip(*results):
        assert mine.stride() == theirs.stride()
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


def test_channels_last_3d_layout_matches_torch():
    x = np.random.default_rng(4).standard_normal((2, 3, 4, 6, 6)).astype(np.float32)
    for name in ("max_pool3d", "avg_pool3d"):
        mine, theirs = (getattr(lib.nn.functional, name)(
            lib.tensor(x).to(memory_format=lib.channels_last_3d), 2) for lib in (gt, torch))
        assert mine.stride() == theirs.stride()
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("k", [2, 3])
def test_fractional_output_overload_writes_both_results(k):
    """``fractional_max_pool{k}d.output``: out= of the values and the indices, resized
    from empty, equal to the functional results (and to torch's)."""
    torch = pytest.importorskip("torch")
    shape, kernel, size = (2, 3) + (7,) * k, [2] * k, [3] * k
    array = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    samples = np.random.default_rng(1).uniform(size=(2, 3, k)).astype(np.float32)
    found = []
    for lib in (gt, torch):
        x, random_samples = lib.tensor(array), lib.tensor(samples)
        op = getattr(lib.ops.aten, f"fractional_max_pool{k}d")
        values, indices = lib.empty(0), lib.empty(0, dtype=lib.int64)
        returned = op.output(x, kernel, size, random_samples, output=values, indices=indices)
        assert returned[0] is values and returned[1] is indices
        expected = op(x, kernel, size, random_samples)
        assert lib.equal(values, expected[0]) and lib.equal(indices, expected[1])
        found.append((values.numpy(), indices.numpy()))
    np.testing.assert_array_equal(found[0][0], found[1][0])
    np.testing.assert_array_equal(found[0][1], found[1][1])


_AVG_CALLS = {
    "3x3/2": (lambda F, t: F.avg_pool2d(t, 3, 2, 1), (2, 3, 11, 10), False),
    "channels_last": (lambda F, t: F.avg_pool2d(t, 3, 2, 1), (2, 3, 11, 10), True),
    "no pad count, ceil": (lambda F, t: F.avg_pool2d(t, 3, 1, 1, ceil_mode=True,
                                                     count_include_pad=False), (2, 3, 9, 8),
                           False),
    "override": (lambda F, t: F.avg_pool2d(t, (3, 2), 1, 1, divisor_override=5),
                 (2, 3, 9, 8), False),
    "3d": (lambda F, t: F.avg_pool3d(t, 3, 2, 1), (2, 2, 7, 6, 5), False),
}
_AVG_CASES = [(name, dtype) for name in _AVG_CALLS
              for dtype in ("float32", "float64", "float16", "bfloat16")
              if name != "3d" or dtype in ("float32", "float64")]   # no half avg_pool3d


@pytest.mark.parametrize("name, dtype", _AVG_CASES)
def test_avg_pool_gradient_is_torch_bits(name, dtype):
    """Overlapping windows: each element adds its shares in torch's order (the windows'
    row-major order), each share divided and each sum rounded in the gradient's dtype."""
    call, shape, last = _AVG_CALLS[name]
    values = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    found = []
    for lib in (gt, torch):
        x = lib.tensor(values).to(getattr(lib, dtype))
        if last:
            x = x.contiguous(memory_format=lib.channels_last)
        x.requires_grad_()
        y = call(lib.nn.functional, x)
        grad = np.cos(np.arange(y.numel())).reshape(tuple(y.shape)) * 3
        y.backward(lib.tensor(grad, dtype=getattr(lib, dtype)))
        found.append(x.grad.double().numpy())
    np.testing.assert_array_equal(found[0], found[1])


def test_max_pool_backward_adds_gradients_of_repeated_indices():
    """The backward operator takes any indices, not only its forward's: over disjoint
    windows a repeated index still receives the sum of its gradients, as in torch."""
    grad = gt.ones(1, 1, 2, 2)
    indices = gt.zeros(1, 1, 2, 2, dtype=gt.int64)
    result = gt.ops.aten.max_pool2d_with_indices_backward(
        grad, gt.zeros(1, 1, 4, 4), [2, 2], [2, 2], [0, 0], [1, 1], False, indices)
    assert result.flatten().tolist() == [4.0] + [0.0] * 15
