"""Activation layers and functions: modules vs torch (outputs, gradients, repr, in-place
behaviour, node names), F's inplace= and implicit-dim softmax warning, and the out=
form of the backward operators (named grad_input, as torch's schemas). Torch-free
checks run without torch."""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, same_outcome

HAS_TORCH = True
try:
    import torch
except ImportError:
    HAS_TORCH = False
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="compares with torch")

# (class name, constructor args, kwargs) for each module, as torch spells them
MODULES = [
    ("Threshold", (0.1, 20.0), {}), ("Threshold", (0.1, 20.0, True), {}),
    ("ReLU", (), {}), ("ReLU", (True,), {}), ("Hardtanh", (), {}),
    ("Hardtanh", (-2.0, 2.0, True), {}), ("ReLU6", (), {}), ("ReLU6", (True,), {}),
    ("Sigmoid", (), {}), ("Tanh", (), {}), ("Hardsigmoid", (True,), {}), ("SiLU", (), {}),
    ("SiLU", (True,), {}), ("Mish", (True,), {}), ("Hardswish", (), {}), ("ELU", (), {}),
    ("ELU", (0.5, True), {}), ("CELU", (0.7,), {}), ("SELU", (True,), {}), ("GLU", (), {}),
    ("GLU", (1,), {}), ("GELU", (), {}), ("GELU", ("tanh",), {}), ("Hardshrink", (0.3,), {}),
    ("LeakyReLU", (), {}), ("LeakyReLU", (0.2, True), {}), ("LogSigmoid", (), {}),
    ("Softplus", (), {}), ("Softplus", (2, 1.5), {}), ("Softshrink", (0.25,), {}),
    ("PReLU", (), {}), ("PReLU", (4, 0.1), {}), ("Softsign", (), {}), ("Tanhshrink", (), {}),
    ("Softmin", (1,), {}), ("Softmax", (), {"dim": -1}), ("Softmax2d", (), {}),
    ("LogSoftmax", (1,), {}),
]


def _ids(case) -> str:
    name, args, kwargs = case
    return f"{name}{args}{kwargs or ''}"


def _input(lib, requires_grad: bool = True):
    values = np.random.default_rng(0).uniform(-4, 4, (3, 4, 2, 2))
    return lib.tensor(values, dtype=lib.float64, requires_grad=requires_grad)


@needs_torch
@pytest.mark.parametrize("case", MODULES, ids=_ids)
def test_module_matches_torch(case):
    """Same repr, parameters, output, node name and input/parameter gradients as torch."""
    name, args, kwargs = case
    mine = getattr(gt.nn, name)(*args, **kwargs).double()
    theirs = getattr(torch.nn, name)(*args, **kwargs).double()
    assert repr(mine) == repr(theirs)
    assert mine.extra_repr() == theirs.extra_repr()
    assert [n for n, _ in mine.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    x, y = _input(gt), _input(torch)
    # in-place modules write a non-leaf: run them on a copy that carries the graph
    out, expected = mine(x * 1), theirs(y * 1)
    assert_close(out, expected, rtol=1e-12, atol=1e-12)
    assert type(out.grad_fn).__name__ == type(expected.grad_fn).__name__
    upstream = np.random.default_rng(1).uniform(-1, 1, tuple(expected.shape))
    out.backward(gt.tensor(upstream))
    expected.backward(torch.tensor(upstream))
    assert_close(x.grad, y.grad, rtol=1e-10, atol=1e-12)
    for (_, p), (_, q) in zip(mine.named_parameters(), theirs.named_parameters()):
        assert_close(p.grad, q.grad, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("case", [c for c in MODULES if c[0] != "Softmax2d"], ids=_ids)
def test_inplace_modules_write_their_input(case):
    """An inplace=True module returns its input, written; the others leave it alone."""
    name, args, kwargs = case
    module = getattr(gt.nn, name)(*args, **kwargs)
    x = _input(gt, requires_grad=False).float()
    before = x.clone()
    out = module(x)
    if getattr(module, "inplace", False):
        assert out is x and x._version > 0
    else:
        assert out is not x and gt.equal(x, before)


@needs_torch
@pytest.mark.parametrize("scenario", [
    lambda lib: lib.nn.Hardtanh(1.0, 1.0),
    lambda lib: lib.nn.Hardtanh(min_value=-3.0, max_value=3.0),
    lambda lib: lib.nn.Softmax2d()(lib.zeros(2, 2)),
    lambda lib: lib.nn.functional.hardtanh(lib.zeros(2), 2.0, 1.0),
    lambda lib: lib.nn.functional.glu(lib.tensor(1.0)),
    lambda lib: lib.nn.functional.gelu(lib.zeros(2), approximate="tanh"),
    lambda lib: lib.nn.PReLU(2, 0.5).weight,
    lambda lib: lib.nn.functional.relu(lib.tensor([-1, 2, -3]), inplace=True),
    lambda lib: lib.nn.functional.softsign(lib.tensor([-3, 1])),
    lambda lib: lib.nn.functional.softmin(lib.tensor([[1.0, 2.0]]), 1, dtype=lib.float64).dtype,
])
def test_scenarios_match_torch(scenario):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        same_outcome(scenario)


def test_implicit_softmax_dim_warns():
    """dim=None picks 0 for 0-, 1- and 3-dim inputs, else 1, with torch's warning pointing
    at the caller."""
    x = gt.arange(24.0).reshape(2, 3, 4)
    for function, name in ((gt.nn.functional.softmax, "softmax"),
                           (gt.nn.functional.log_softmax, "log_softmax"),
                           (gt.nn.functional.softmin, "softmin")):
        with pytest.warns(UserWarning, match=rf"^Implicit dimension choice for {name} has "
                                             r"been deprecated") as caught:
            out = function(x)
        assert caught[0].filename == __file__
        assert gt.allclose(out, function(x, 0))
        with pytest.warns(UserWarning):
            assert gt.allclose(function(x[0]), function(x[0], 1))
    with pytest.warns(UserWarning) as caught:
        gt.nn.Softmax()(x)
    assert caught[0].filename == __file__


def test_inplace_functions_return_their_input():
    F = gt.nn.functional
    for call in (lambda t: F.relu(t, inplace=True), lambda t: F.relu_(t),
                 lambda t: F.hardtanh(t, inplace=True), lambda t: F.hardtanh_(t),
                 lambda t: F.relu6(t, inplace=True), lambda t: F.elu(t, inplace=True),
                 lambda t: F.elu_(t), lambda t: F.selu(t, inplace=True),
                 lambda t: F.celu(t, inplace=True), lambda t: F.leaky_relu(t, 0.2, True),
                 lambda t: F.leaky_relu_(t), lambda t: F.threshold(t, 0.0, 1.0, True),
                 lambda t: F.threshold_(t, 0.0, 1.0), lambda t: F.hardsigmoid(t, True),
                 lambda t: F.silu(t, True), lambda t: F.mish(t, True),
                 lambda t: F.hardswish(t, True)):
        x = gt.tensor([-2.0, 0.5, 3.0])
        assert call(x) is x and x._version == 1


@needs_torch
@pytest.mark.parametrize("name, args", [
    ("threshold_backward", (0.5,)), ("hardtanh_backward", (-1.0, 1.0)),
    ("leaky_relu_backward", (0.1, False)), ("hardshrink_backward", (0.5,)),
    ("softshrink_backward", (0.5,)), ("gelu_backward", ()), ("silu_backward", ()),
    ("softplus_backward", (1.0, 20.0)), ("hardsigmoid_backward", ()),
    ("_softmax_backward_data", (1, None)),
])
def test_backward_ops_write_grad_input(name, args):
    """The out= overloads of the backward operators take ``grad_input=``, as torch's."""
    grad = np.random.default_rng(2).uniform(-1, 1, (3, 4)).astype(np.float32)
    x = np.random.default_rng(3).uniform(-2, 2, (3, 4)).astype(np.float32)
    results = []
    for lib in (gt, torch):
        call_args = [a if a is not None else lib.float32 for a in args]
        target = lib.empty(2, dtype=lib.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            overload = "out" if name == "_softmax_backward_data" else "grad_input"
            returned = getattr(getattr(lib.ops.aten, name), overload)(
                lib.tensor(grad), lib.tensor(x), *call_args, grad_input=target)
        assert returned is target
        results.append(target)
    assert_close(results[0], results[1])


@needs_torch
def test_softmax_precision_and_speed_path():
    """float32 stays float32 (no float64 round trip), large rows stay finite, and the
    blocked kernel agrees with torch on a tensor big enough to be split."""
    values = np.random.default_rng(4).normal(0, 30, (40, 3000)).astype(np.float32)
    for dim in (0, 1):
        mine = gt.softmax(gt.tensor(values), dim)
        theirs = torch.softmax(torch.tensor(values), dim)
        assert mine.dtype == gt.float32
        assert_close(mine, theirs, rtol=1e-5, atol=1e-7)
        assert_close(gt.log_softmax(gt.tensor(values), dim),
                     torch.log_softmax(torch.tensor(values), dim), rtol=1e-5, atol=1e-5)


@needs_torch
def test_gelu_training_step_matches_torch():
    """A small MLP with GELU and log_softmax: loss and gradients as torch's."""
    rng = np.random.default_rng(5)
    w1, w2 = rng.normal(0, 0.5, (16, 8)), rng.normal(0, 0.5, (5, 16))
    x = rng.normal(0, 1, (6, 8))
    grads = []
    for lib in (gt, torch):
        a = lib.tensor(w1, dtype=lib.float32, requires_grad=True)
        b = lib.tensor(w2, dtype=lib.float32, requires_grad=True)
        hidden = lib.nn.functional.gelu(lib.tensor(x, dtype=lib.float32) @ a.t())
        loss = -lib.nn.functional.log_softmax(hidden @ b.t(), dim=-1)[:, 0].mean()
        loss.backward()
        grads.append((loss, a.grad, b.grad))
    for mine, theirs in zip(*grads, strict=True):
        assert_close(mine, theirs, rtol=1e-5, atol=1e-6)


def test_torch_free_values():
    """A few values known by hand, without torch."""
    F = gt.nn.functional
    x = gt.tensor([-2.0, 0.0, 2.0])
    assert F.relu6(gt.tensor([-1.0, 3.0, 9.0])).tolist() == [0.0, 3.0, 6.0]
    assert F.hardtanh(x).tolist() == [-1.0, 0.0, 1.0]
    assert F.leaky_relu(x, 0.5).tolist() == [-1.0, 0.0, 2.0]
    assert F.softshrink(x, 0.5).tolist() == [-1.5, 0.0, 1.5]
    assert F.glu(gt.tensor([1.0, 3.0, 0.0, 0.0])).tolist() == [0.5, 1.5]
    assert abs(F.gelu(gt.tensor([1.0])).item() - 0.8413447) < 1e-6
    assert gt.softmax(gt.tensor([[0.0, 0.0]]), 1).tolist() == [[0.5, 0.5]]
    assert gt.nn.PReLU(2).weight.tolist() == [0.25, 0.25]


# ----- RReLU: torch's random slopes, bit for bit ----------------------------------------
def _rrelu_run(lib, dtype: str, layout: str, inplace: bool, training: bool = True):
    """Seeded RReLU forward and backward: (output, input grad, node name, a draw after)."""
    lib.manual_seed(7)
    values = np.random.default_rng(2).uniform(-4, 4, (6, 5))
    flip = layout == "transposed"
    x = lib.tensor(values.T if flip else values, dtype=getattr(lib, dtype), requires_grad=True)
    module = lib.nn.RReLU(0.1, 0.45, inplace).train(training)
    out = module((x.t() if flip else x) * 1)            # x * 1 keeps x's layout
    out.backward(lib.ones_like(out))
    return out, x.grad, type(out.grad_fn).__name__, lib.randn(3)


@needs_torch
@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
@pytest.mark.parametrize("inplace", [False, True])
def test_rrelu_draws_match_torch(dtype, layout, inplace):
    """The same slopes as torch from the same seed (one draw per element that is not
    positive), the same gradients and node name, and the stream left where torch's is."""
    mine, theirs = _rrelu_run(gt, dtype, layout, inplace), _rrelu_run(torch, dtype, layout,
                                                                         inplace)
    for a, b in zip(mine[:2] + mine[3:], theirs[:2] + theirs[3:], strict=True):
        assert str(a.dtype) == str(b.dtype)
        assert np.array_equal(a.detach().float().numpy(), b.detach().float().numpy(),
                              equal_nan=True)
    assert mine[2] == theirs[2] == ("RreluWithNoiseBackward1" if inplace else
                                    "RreluWithNoiseBackward0")


@needs_torch
@pytest.mark.parametrize("inplace", [False, True])
def test_rrelu_eval_matches_torch(inplace):
    mine = _rrelu_run(gt, "float32", "contiguous", inplace, training=False)
    theirs = _rrelu_run(torch, "float32", "contiguous", inplace, training=False)
    assert_close(mine[0], theirs[0], rtol=0, atol=0)
    assert_close(mine[1], theirs[1], rtol=0, atol=0)
    assert mine[2] == theirs[2]
    assert repr(gt.nn.RReLU(0.1, 0.3, True)) == repr(torch.nn.RReLU(0.1, 0.3, True))
    assert repr(gt.nn.RReLU()) == repr(torch.nn.RReLU())


@needs_torch
def test_rrelu_refusals_match_torch():
    """noise requiring grad, bounds the wrong way round, dtypes the kernel lacks."""
    same_outcome(lambda lib: lib.ops.aten.rrelu_with_noise(
        lib.ones(3), lib.zeros(3, requires_grad=True), 0.1, 0.3, True))
    same_outcome(lambda lib: lib.nn.functional.rrelu(lib.ones(3), 0.5, 0.1))
    same_outcome(lambda lib: lib.rrelu(lib.ones(3, dtype=lib.float16), training=True))
    same_outcome(lambda lib: lib.rrelu(lib.arange(3)))


def test_rrelu_torch_free():
    """Eval mode is leaky_relu with the middle slope; training slopes lie in the range,
    land in `noise` (whose version torch does not bump), and backward uses them."""
    F = gt.nn.functional
    x = gt.tensor([-3.0, 2.0, -1.0, 0.0])
    assert F.rrelu(x).tolist() == F.leaky_relu(x, (1 / 8 + 1 / 3) / 2).tolist()
    noise = gt.zeros(4)
    leaf = x.clone().requires_grad_()
    out = gt.ops.aten.rrelu_with_noise(leaf, noise, 0.2, 0.3, True)
    assert noise._version == 0 and noise[1].item() == 1.0
    assert all(0.2 <= s < 0.3 for s in noise[[0, 2, 3]].tolist())
    out.sum().backward()
    assert leaf.grad.tolist() == noise.tolist()
    assert not hasattr(gt.Tensor, "rrelu_") and F.rrelu_ is gt.rrelu_


def test_silu_rounds_in_torchs_order():
    """torch's silu kernel divides ``x / (1 + exp(-x))`` (one rounding, not x times the
    sigmoid), and its backward multiplies ``(grad * s) * (1 + x * (1 - s))``: with the
    same exponential, each elementwise rounding as torch's."""
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(100_000) * 4).astype(np.float32)
    g = rng.standard_normal(100_000).astype(np.float32)
    one = np.float32(1)
    denominator = one + np.exp(-x)
    sigmoid = one / denominator
    expected = {"silu": x / denominator,
                "silu_backward": (g * sigmoid) * (one + x * (one - sigmoid))}
    got = {"silu": gt.nn.functional.silu(gt.from_numpy(x)).numpy(),
           "silu_backward": gt.ops.aten.silu_backward(gt.from_numpy(g),
                                                      gt.from_numpy(x)).numpy()}
    for name in expected:
        assert got[name].view(np.uint32).tobytes() == expected[name].view(np.uint32).tobytes()


@needs_torch
def test_sigmoid_backward_as_torch():
    """sigmoid's gradient is torch's fused operator: ``(grad * (1 - y)) * y`` bit for
    bit on float32, and its own derivatives (complex too) as torch's."""
    rng = np.random.default_rng(1)
    y = rng.random(5000).astype(np.float32)
    g = rng.standard_normal(5000).astype(np.float32)
    ours = gt.ops.aten.sigmoid_backward(gt.from_numpy(g), gt.from_numpy(y)).numpy()
    theirs = torch.ops.aten.sigmoid_backward(torch.from_numpy(g), torch.from_numpy(y)).numpy()
    assert ours.view(np.uint32).tobytes() == theirs.view(np.uint32).tobytes()
    for dtype, values in (("float64", [0.5, -1.0, 2.0]), ("complex128", [0.5 + 1j, -1.0 - 0.5j])):
        results = []
        for lib in (gt, torch):
            x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
            first, = lib.autograd.grad(x.sigmoid().abs().sum(), x, create_graph=True)
            results.append((first.grad_fn.name(), first.detach().numpy(),
                            lib.autograd.grad(first.abs().sum(), x)[0].numpy()))
        assert results[0][0] == results[1][0] == "SigmoidBackwardBackward0"
        np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-12)
        np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-12)


@needs_torch
@pytest.mark.parametrize("size", [3, 70001])
def test_hardtanh_keeps_negative_zero_as_torch(size):
    """torch's hardtanh (relu6) clamps -0.0 to -0.0 at every length (NumPy's
    vectorized maximum of -0.0 and 0 gives +0.0 on long arrays)."""
    for lib in (gt, torch):
        x = lib.tensor([-0.0, 0.5, -7.0, 9.0] * size)
        for result in (lib.nn.functional.relu6(x), lib.nn.functional.hardtanh(x, 0.0, 1.0)):
            assert result[0].view(lib.int32).item() == -2 ** 31
