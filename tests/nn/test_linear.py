"""Identity, Linear, Bilinear, Flatten, Unflatten against torch: the weights a seed gives,
outputs and gradients with the same weights, node names, reprs and errors."""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from glasstorch import nn

from nn_compare import assert_close, copy_parameters, to_glass

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="differential test: needs torch")


def _both(name: str, *args, seed: int = 0, **kwargs):
    gt.manual_seed(seed)
    ours = getattr(nn, name)(*args, **kwargs)
    torch.manual_seed(seed)
    theirs = getattr(torch.nn, name)(*args, **kwargs)
    return ours, theirs


@needs_torch
@pytest.mark.parametrize("args", [(20, 30), (3, 1), (7, 5, False), (1, 4)])
@pytest.mark.parametrize("seed", [0, 5])
def test_linear_weights_as_torch_after_the_same_seed(args, seed):
    ours, theirs = _both("Linear", *args, seed=seed)
    assert sorted(ours.state_dict()) == sorted(theirs.state_dict())
    for name, value in theirs.state_dict().items():
        mine = ours.state_dict()[name]
        assert mine.numpy().tobytes() == value.numpy().tobytes(), name
        assert type(getattr(ours, name)).__name__ == "Parameter"
    assert (ours.bias is None) == (theirs.bias is None)
    # the stream is left where torch leaves it
    assert gt.rand(4).numpy().tobytes() == torch.rand(4).numpy().tobytes()


@needs_torch
@pytest.mark.parametrize("dtype", ["float64", "float16"])
def test_linear_dtype_and_meta(dtype):
    gt.manual_seed(0)
    ours = nn.Linear(6, 3, dtype=getattr(gt, dtype))
    torch.manual_seed(0)
    theirs = torch.nn.Linear(6, 3, dtype=getattr(torch, dtype))
    assert ours.weight.dtype == getattr(gt, dtype)
    assert (ours.weight.detach().float().numpy().tobytes()
            == theirs.weight.detach().float().numpy().tobytes())
    meta = nn.Linear(6, 3, device="meta")
    assert meta.weight.is_meta and meta(gt.empty(2, 6, device="meta")).shape == (2, 3)


@needs_torch
@pytest.mark.parametrize("shape", [(4, 6), (6,), (2, 3, 6), (0, 6)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_forward_and_backward_as_torch(shape, bias):
    ours, theirs = _both("Linear", 6, 5, bias=bias, seed=1)
    x = torch.randn(*shape, requires_grad=True)
    x_ours = to_glass(x)
    out, expected = ours(x_ours), theirs(x)
    assert_close(out, expected)
    if len(shape) > 1 or bias:     # 1-D without bias: matmul's squeeze node differs
        assert out.grad_fn.name() == expected.grad_fn.name()
    grad = torch.randn(expected.shape)
    out.backward(to_glass(grad))
    expected.backward(grad)
    assert_close(x_ours.grad, x.grad, atol=1e-5)
    for name, parameter in theirs.named_parameters():
        assert_close(getattr(ours, name).grad, parameter.grad, atol=1e-5)


@needs_torch
@pytest.mark.parametrize("bias", [True, False])
def test_bilinear_as_torch(bias):
    ours, theirs = _both("Bilinear", 5, 3, 4, bias=bias, seed=2)
    for name, value in theirs.state_dict().items():
        assert ours.state_dict()[name].numpy().tobytes() == value.numpy().tobytes()
    x1 = torch.randn(2, 7, 5, requires_grad=True)
    x2 = torch.randn(2, 7, 3, requires_grad=True)
    ours_x1, ours_x2 = to_glass(x1), to_glass(x2)
    out, expected = ours(ours_x1, ours_x2), theirs(x1, x2)
    assert_close(out, expected, atol=1e-5)
    out.sum().backward()
    expected.sum().backward()
    assert_close(ours_x1.grad, x1.grad, atol=1e-5)
    assert_close(ours_x2.grad, x2.grad, atol=1e-5)
    assert_close(ours.weight.grad, theirs.weight.grad, atol=1e-5)


@needs_torch
@pytest.mark.parametrize("module_args,shape", [
    (("Flatten",), (2, 3, 4, 5)), (("Flatten", 0, 2), (2, 3, 4, 5)),
    (("Flatten", -2), (2, 3, 4)), (("Flatten", 0), ()),
    (("Unflatten", 1, (2, 5)), (3, 10, 2)), (("Unflatten", -1, [2, -1]), (3, 8)),
    (("Unflatten", 0, gt.Size([2, 2])), (4,)), (("Identity", 3, "unused"), (2, 3)),
])
def test_reshaping_layers_as_torch(module_args, shape):
    name, *args = module_args
    theirs_args = [torch.Size(a) if isinstance(a, gt.Size) else a for a in args]
    ours = getattr(nn, name)(*args)
    theirs = getattr(torch.nn, name)(*theirs_args)
    x = torch.randn(shape, requires_grad=True)
    x_ours = to_glass(x)
    out, expected = ours(x_ours), theirs(x)
    assert_close(out, expected)
    out.sum().backward()
    expected.sum().backward()
    assert_close(x_ours.grad, x.grad)
    assert repr(ours) == repr(theirs)


def test_identity_returns_its_input():
    x = gt.randn(3)
    assert nn.Identity(54, unused_argument1=0.1)(x) is x


@needs_torch
@pytest.mark.parametrize("name,args", [
    ("Linear", (20, 30)), ("Linear", (3, 4, False)), ("Bilinear", (2, 3, 4)),
    ("Bilinear", (2, 3, 4, False)), ("Flatten", (0, 2)), ("Unflatten", (1, (2, 5))),
    ("Identity", ()),
])
def test_reprs_as_torch(name, args):
    ours, theirs = _both(name, *args)
    assert repr(ours) == repr(theirs)
    if hasattr(theirs, "weight"):
        assert repr(ours.weight) == repr(theirs.weight)


ERRORS = [
    (("Linear", 20, 30), [(2, 3)], RuntimeError),
    (("Linear", 20, 30), [(3,)], RuntimeError),
    (("Linear", 20, 30), [(4, 2, 3)], RuntimeError),
    (("Bilinear", 5, 3, 4), [(2, 4), (2, 3)], RuntimeError),
    (("Flatten", 2, 1), [(2, 10, 3)], RuntimeError),
    (("Flatten",), [(3,)], IndexError),
    (("Unflatten", 1, (2, 4)), [(2, 10)], RuntimeError),
]


@needs_torch
@pytest.mark.parametrize("module_args,shapes,kind", ERRORS, ids=lambda v: str(v))
def test_forward_errors_as_torch(module_args, shapes, kind):
    name, *args = module_args
    messages = []
    for lib in (gt, torch):
        module = getattr(lib.nn, name)(*args)
        with pytest.raises(kind) as caught:
            module(*[lib.randn(*shape) for shape in shapes])
        messages.append((type(caught.value).__name__, str(caught.value)))
    assert messages[0] == messages[1]


@needs_torch
@pytest.mark.parametrize("name,args,kind", [
    ("Bilinear", (0, 3, 4), ValueError),
    ("Unflatten", (1, (2, 5.0)), TypeError),
    ("Unflatten", (1, 3), TypeError),
])
def test_constructor_errors_as_torch(name, args, kind):
    messages = []
    for lib in (gt, torch):
        with pytest.raises(kind) as caught:
            getattr(lib.nn, name)(*args)
        messages.append((type(caught.value).__name__, str(caught.value)))
    assert messages[0] == messages[1]


def test_reprs_and_attributes():
    layer = nn.Linear(20, 30, bias=False)
    assert repr(layer) == "Linear(in_features=20, out_features=30, bias=False)"
    assert (layer.in_features, layer.out_features, layer.bias) == (20, 30, None)
    assert [name for name, _ in nn.Bilinear(2, 3, 4).named_parameters()] == ["weight", "bias"]
    assert repr(nn.Unflatten(1, (2, 5))) == "Unflatten(dim=1, unflattened_size=(2, 5))"
    assert repr(nn.Sequential(nn.Flatten(), nn.Identity())) == (
        "Sequential(\n  (0): Flatten(start_dim=1, end_dim=-1)\n  (1): Identity()\n)")


def test_wrong_linear_input_names_both_shapes():
    with pytest.raises(RuntimeError, match=r"^mat1 and mat2 shapes cannot be multiplied "
                                           r"\(2x3 and 20x30\)$"):
        nn.Linear(20, 30)(gt.randn(2, 3))


def test_zero_sized_linear_warns_and_keeps_empty_weights():
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        layer = nn.Linear(0, 3)
    assert layer.weight.shape == (3, 0)
    with warnings.catch_warnings(record=True):
        assert tuple(nn.Linear(3, 0)(gt.randn(2, 3)).shape) == (2, 0)


@needs_torch
def test_loaded_weights_give_torch_outputs():
    ours, theirs = _both("Linear", 4, 2, seed=3)
    with torch.no_grad():
        theirs.weight.mul_(2.0)
    copy_parameters(ours, theirs)
    x = torch.randn(5, 4)
    assert_close(ours(to_glass(x)), theirs(x))
