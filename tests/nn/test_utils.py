"""nn.utils: gradient clipping and parameter vectors against torch (same gradients in,
same total norm and clipped gradients out), their errors and warnings."""
import math
import warnings

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.nn import utils

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="differential test: needs torch")

SHAPES = [(3, 4), (5,), (2, 3, 2), ()]


def _parameters(lib, dtype: str, seed: int, scale: float = 1.0, special=None) -> list:
    """Leaves with seeded gradients (one without a gradient), the same in both libraries."""
    rng = np.random.default_rng(seed)
    parameters = []
    for index, shape in enumerate(SHAPES):
        values = rng.standard_normal(shape)
        grad = rng.standard_normal(shape) * scale
        if special is not None and index == 1:
            grad[0] = special
        parameter = lib.tensor(values, dtype=getattr(lib, dtype)).requires_grad_()
        parameter.grad = lib.tensor(grad, dtype=getattr(lib, dtype))
        parameters.append(parameter)
    parameters.append(lib.zeros(2, dtype=getattr(lib, dtype)).requires_grad_())   # no grad
    return parameters


def _grads(parameters) -> list:
    return [p.grad.float().numpy().tobytes() for p in parameters if p.grad is not None]


@needs_torch
@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, 0.5, math.inf, -math.inf, "inf"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_clip_grad_norm_as_torch(norm_type, dtype):
    norm_type = float(norm_type)
    for seed, max_norm in [(0, 0.5), (1, 100.0)]:        # clipped, then left alone
        ours = _parameters(gt, dtype, seed)
        theirs = _parameters(torch, dtype, seed)
        total = utils.clip_grad_norm_(iter(ours), max_norm, norm_type)
        expected = torch.nn.utils.clip_grad_norm_(iter(theirs), max_norm, norm_type)
        assert str(total.dtype) == str(expected.dtype) and total.shape == expected.shape
        assert total.float().numpy().tobytes() == expected.float().numpy().tobytes()
        assert _grads(ours) == _grads(theirs)
        assert not total.requires_grad


@needs_torch
@pytest.mark.parametrize("foreach", [None, True, False])
def test_clip_grad_value_as_torch(foreach):
    ours = _parameters(gt, "float32", 2, scale=3.0)
    theirs = _parameters(torch, "float32", 2, scale=3.0)
    assert utils.clip_grad_value_(ours, 1.5, foreach=foreach) is None
    torch.nn.utils.clip_grad_value_(theirs, 1.5, foreach=foreach)
    assert _grads(ours) == _grads(theirs)


@needs_torch
def test_total_norm_then_clip_as_torch():
    ours = _parameters(gt, "float32", 3)
    theirs = _parameters(torch, "float32", 3)
    grads = [p.grad for p in ours if p.grad is not None]
    norm = utils.get_total_norm(grads, 3.0)
    expected = torch.nn.utils.get_total_norm([p.grad for p in theirs if p.grad is not None], 3.0)
    assert norm.numpy().tobytes() == expected.numpy().tobytes()
    utils.clip_grads_with_norm_(ours, 0.1, norm)
    torch.nn.utils.clip_grads_with_norm_(theirs, 0.1, expected)
    assert _grads(ours) == _grads(theirs)


@needs_torch
@pytest.mark.parametrize("special", [math.nan, math.inf])
def test_nonfinite_norm(special):
    messages = []
    for lib in (gt, torch):
        parameters = _parameters(lib, "float32", 4, special=special)
        with pytest.raises(RuntimeError) as caught:
            lib.nn.utils.clip_grad_norm_(parameters, 1.0, error_if_nonfinite=True)
        messages.append(str(caught.value))
        assert parameters[0].grad.abs().max().item() > 0.1       # nothing was scaled
    assert messages[0] == messages[1]
    assert "The total norm of order 2.0 for gradients" in messages[0]
    ours = _parameters(gt, "float32", 4, special=special)
    theirs = _parameters(torch, "float32", 4, special=special)
    total = utils.clip_grad_norm_(ours, 1.0)       # scaled by the non-finite norm anyway
    expected = torch.nn.utils.clip_grad_norm_(theirs, 1.0)
    np.testing.assert_array_equal(total.numpy(), expected.numpy())
    assert _grads(ours) == _grads(theirs)


@needs_torch
def test_parameter_vectors_as_torch():
    ours = _parameters(gt, "float32", 5)
    theirs = _parameters(torch, "float32", 5)
    vector = utils.parameters_to_vector(ours)
    expected = torch.nn.utils.parameters_to_vector(theirs)
    np.testing.assert_array_equal(vector.detach().numpy(), expected.detach().numpy())
    assert vector.requires_grad and vector.grad_fn.name() == expected.grad_fn.name()
    utils.vector_to_parameters(gt.arange(32.0), ours)
    torch.nn.utils.vector_to_parameters(torch.arange(32.0), theirs)
    for mine, other in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(mine.detach().numpy(), other.detach().numpy())
        assert mine.requires_grad and mine.is_leaf


def test_vector_to_parameters_shares_the_vector():
    weight = gt.zeros(2, 3, requires_grad=True)
    bias = gt.zeros(3, requires_grad=True)
    vector = gt.arange(9.0)
    utils.vector_to_parameters(vector, [weight, bias])
    vector[0] = 100.0
    assert weight[0, 0].item() == 100.0 and bias.tolist() == [6.0, 7.0, 8.0]


@pytest.mark.parametrize("vec,name", [([1.0, 2.0], "list"), (np.zeros(2), "numpy.ndarray"),
                                      (3, "int")])
def test_vector_to_parameters_wants_a_tensor(vec, name):
    with pytest.raises(TypeError, match=f"^expected torch.Tensor, but got: {name}$"):
        utils.vector_to_parameters(vec, [gt.zeros(2)])


def test_edge_cases():
    assert utils.get_total_norm([]).item() == 0.0
    with pytest.warns(UserWarning, match="`parameters` is an empty generator"):
        total = utils.clip_grad_norm_((p for p in []), 1.0)
    assert total.item() == 0.0 and total.dtype == gt.float32
    single = gt.tensor([3.0, 4.0], requires_grad=True)
    single.grad = gt.tensor([3.0, 4.0])
    assert utils.clip_grad_norm_(single, 1.0).item() == 5.0
    np.testing.assert_allclose(single.grad.numpy(), [0.6, 0.8], rtol=1e-5)
    with pytest.warns(FutureWarning, match="`torch.nn.utils.clip_grad_norm` is now deprecated"):
        utils.clip_grad_norm(single, 1.0)


def test_foreach_true_refuses_meta():
    weight = gt.empty(3, device="meta", requires_grad=True)
    weight.grad = gt.empty(3, device="meta")
    with pytest.raises(RuntimeError, match="can't use the foreach API on meta tensors"):
        utils.clip_grad_norm_([weight], 1.0, foreach=True)
    assert utils.clip_grad_norm_([weight], 1.0).device.type == "meta"
