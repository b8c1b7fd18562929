"""nn.init: each initializer against torch's after the same seed (bitwise where the
values come straight from the random stream), its errors and warnings, and the
properties that hold without torch (no graph recorded, meta tensors untouched)."""
import math
import warnings

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.nn import init

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="differential test: needs torch")

SEEDED = [
    ("uniform_", {"a": -0.5, "b": 2.0}),
    ("normal_", {"mean": 1.0, "std": 0.5}),
    ("xavier_uniform_", {"gain": 2.0}),
    ("xavier_normal_", {}),
    ("kaiming_uniform_", {"a": math.sqrt(5)}),
    ("kaiming_uniform_", {"mode": "fan_out", "nonlinearity": "relu"}),
    ("kaiming_normal_", {"a": 0.2, "mode": "FAN_OUT"}),
    ("trunc_normal_", {}),                                       # redraw-outside path
    ("trunc_normal_", {"std": 0.02, "a": 0.01, "b": 0.03}),      # uniform-proposal path
    ("trunc_normal_", {"mean": 0.0, "std": 1.0, "a": 0.5, "b": 0.9}),
    ("sparse_", {"sparsity": 0.3}),
    ("eye_", {}),
    ("constant_", {"val": 0.3}),
    ("ones_", {}),
    ("zeros_", {}),
]
SHAPES = [(3, 5), (20, 30), (40, 3)]


def _fill(lib, name: str, shape, dtype: str, seed: int, kwargs: dict) -> np.ndarray:
    lib.manual_seed(seed)
    tensor = lib.empty(*shape, dtype=getattr(lib, dtype))
    result = getattr(lib.nn.init, name)(tensor, **kwargs)
    assert result is tensor
    return tensor.float().numpy() if dtype == "float16" else tensor.numpy()


@needs_torch
@pytest.mark.parametrize("name,kwargs", SEEDED, ids=lambda v: str(v))
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_bitwise_equal_to_torch(name, kwargs, dtype):
    for shape in SHAPES:
        for seed in (0, 7):
            ours = _fill(gt, name, shape, dtype, seed, kwargs)
            theirs = _fill(torch, name, shape, dtype, seed, kwargs)
            assert ours.tobytes() == theirs.tobytes(), (shape, seed)


@needs_torch
@pytest.mark.parametrize("shape", [(3, 5), (6, 2), (4, 3, 2), (5, 5)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_orthogonal_matches_torch(shape, dtype):
    for seed in (0, 3):
        ours = _fill(gt, "orthogonal_", shape, dtype, seed, {"gain": 1.5})
        theirs = _fill(torch, "orthogonal_", shape, dtype, seed, {"gain": 1.5})
        np.testing.assert_allclose(ours, theirs, atol=1e-5 if dtype == "float32" else 1e-12)
    # the random stream is left where torch leaves it
    assert gt.rand(3).numpy().tobytes() == torch.rand(3).numpy().tobytes()


@needs_torch
@pytest.mark.parametrize("shape,groups", [((3, 16, 5, 5), 1), ((6, 4, 3), 3),
                                          ((4, 2, 3, 3, 3), 2), ((6, 8, 2, 2), 2)])
def test_dirac_matches_torch(shape, groups):
    ours = init.dirac_(gt.empty(*shape), groups).numpy()
    theirs = torch.nn.init.dirac_(torch.empty(*shape), groups).numpy()
    np.testing.assert_array_equal(ours, theirs)


@needs_torch
def test_explicit_generator_and_sparse_permutations_from_the_global_one():
    ours = init.trunc_normal_(gt.empty(40, 3), std=0.1, a=-0.05, b=0.2,
                              generator=gt.Generator().manual_seed(3))
    theirs = torch.nn.init.trunc_normal_(torch.empty(40, 3), std=0.1, a=-0.05, b=0.2,
                                         generator=torch.Generator().manual_seed(3))
    assert ours.numpy().tobytes() == theirs.numpy().tobytes()
    gt.manual_seed(5)
    torch.manual_seed(5)
    ours = init.sparse_(gt.empty(6, 4), 0.5, generator=gt.Generator().manual_seed(1))
    theirs = torch.nn.init.sparse_(torch.empty(6, 4), 0.5,
                                   generator=torch.Generator().manual_seed(1))
    assert ours.numpy().tobytes() == theirs.numpy().tobytes()


ERRORS = [
    ("xavier_uniform_", (3,), {}, ValueError, "float32"),
    ("kaiming_normal_", (3, 4), {"mode": "fan_avg"}, ValueError, "float32"),
    ("kaiming_uniform_", (3, 4), {"nonlinearity": "swish"}, ValueError, "float32"),
    ("kaiming_uniform_", (3, 4), {"a": "x"}, ValueError, "float32"),
    ("eye_", (3,), {}, ValueError, "float32"),
    ("dirac_", (3, 4), {}, ValueError, "float32"),
    ("dirac_", (3, 4, 3), {"groups": 2}, ValueError, "float32"),
    ("orthogonal_", (3,), {}, ValueError, "float32"),
    ("orthogonal_", (3, 4), {}, NotImplementedError, "complex64"),     # sign of complex
    ("sparse_", (3, 4, 5), {"sparsity": 0.1}, ValueError, "float32"),
    ("normal_", (3, 4), {"std": -1.0}, RuntimeError, "float32"),
    ("uniform_", (3,), {}, NotImplementedError, "int64"),
    ("trunc_normal_", (3,), {}, NotImplementedError, "int64"),
]


@needs_torch
@pytest.mark.parametrize("name,shape,kwargs,kind,dtype", ERRORS, ids=lambda v: str(v))
def test_errors_as_torch(name, shape, kwargs, kind, dtype):
    messages = []
    for lib in (gt, torch):
        lib.manual_seed(0)
        with pytest.raises(kind) as caught:
            getattr(lib.nn.init, name)(lib.empty(*shape, dtype=getattr(lib, dtype)), **kwargs)
        messages.append((type(caught.value).__name__, str(caught.value)))
    assert messages[0] == messages[1]


@needs_torch
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_orthogonal_refuses_half_as_torch(dtype):
    messages = []
    for lib in (gt, torch):
        with pytest.raises(NotImplementedError) as caught:
            lib.nn.init.orthogonal_(lib.empty(3, 4, dtype=getattr(lib, dtype)))
        messages.append((type(caught.value).__name__, str(caught.value)))
    assert messages[0] == messages[1]


@needs_torch
@pytest.mark.parametrize("args", [("linear",), ("conv_transpose2d",), ("sigmoid",),
                                  ("tanh",), ("relu",), ("leaky_relu",),
                                  ("leaky_relu", 0.2), ("leaky_relu", 3), ("selu",)])
def test_calculate_gain_as_torch(args):
    ours = init.calculate_gain(*args)
    theirs = torch.nn.init.calculate_gain(*args)
    assert ours == theirs and type(ours) is type(theirs)


@pytest.mark.parametrize("args,message", [
    (("leaky_relu", True), "negative_slope True not a valid number"),
    (("leaky_relu", "0.1"), "negative_slope 0.1 not a valid number"),
    (("softplus",), "Unsupported nonlinearity softplus"),
])
def test_calculate_gain_errors(args, message):
    with pytest.raises(ValueError, match=message):
        init.calculate_gain(*args)


def test_fan_in_and_fan_out():
    assert init._calculate_fan_in_and_fan_out(gt.empty(8, 3, 5, 5)) == (75, 200)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init._calculate_fan_in_and_fan_out(gt.empty(4))


def test_fills_a_parameter_without_recording():
    weight = gt.empty(4, 6).requires_grad_()
    for fill in (init.kaiming_uniform_, init.orthogonal_, init.trunc_normal_,
                 init.eye_, init.zeros_):
        assert fill(weight) is weight
        assert weight.grad_fn is None and weight.is_leaf and weight.requires_grad


def test_meta_tensors_pass_through():
    meta = gt.empty(3, 4, device="meta")
    for fill in (init.orthogonal_, init.trunc_normal_, init.xavier_normal_, init.eye_):
        assert fill(meta) is meta
    assert init.sparse_(meta, 0.5) is meta
    conv_weight = gt.empty(2, 2, 3, device="meta")
    assert init.dirac_(conv_weight) is conv_weight


def test_warnings():
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        init.kaiming_uniform_(gt.empty(0, 3))
    with pytest.warns(UserWarning, match="mean is more than 2 std from"):
        init.trunc_normal_(gt.empty(3), mean=10.0)
    with pytest.warns(FutureWarning, match="`nn.init.xavier_normal` is now deprecated in "
                                           "favor of `nn.init.xavier_normal_`"):
        init.xavier_normal(gt.empty(3, 3))
    assert init.xavier_normal.__name__ == "xavier_normal"


def test_orthogonal_is_orthogonal():
    gt.manual_seed(0)
    for shape in [(3, 7), (7, 3), (4, 2, 3)]:
        weight = init.orthogonal_(gt.empty(*shape, dtype=gt.float64)).reshape(shape[0], -1)
        small = weight @ weight.t() if shape[0] < weight.shape[1] else weight.t() @ weight
        np.testing.assert_allclose(small.numpy(), np.eye(small.shape[0]), atol=1e-12)


def test_trunc_normal_stays_inside():
    gt.manual_seed(0)
    for a, b in [(-2.0, 2.0), (0.5, 0.6)]:
        values = init.trunc_normal_(gt.empty(5000), a=a, b=b).numpy()
        assert values.min() >= a and values.max() <= b
