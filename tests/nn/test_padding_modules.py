"""The padding layers against torch: values, gradients, reprs and attributes of every
ZeroPad / ConstantPad / ReflectionPad / ReplicationPad / CircularPad in 1d, 2d and 3d,
and their refusals."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

KINDS = ("ZeroPad", "ConstantPad", "ReflectionPad", "ReplicationPad", "CircularPad")
PADDINGS = {1: (2, (1, 3)), 2: (1, (1, 0, 2, 1)), 3: (1, (1, 0, 1, 2, 0, 1))}
SHAPES = {1: ((2, 3, 5), (3, 5)), 2: ((2, 3, 4, 5), (3, 4, 5)),
          3: ((1, 2, 3, 4, 5), (2, 3, 4, 5))}
CASES = [(kind, k, padding, shape) for kind in KINDS for k in (1, 2, 3)
         for padding in PADDINGS[k] for shape in SHAPES[k]]


def _make(module, kind, k, padding):
    args = (padding, 2.5) if kind == "ConstantPad" else (padding,)
    return getattr(module.nn, f"{kind}{k}d")(*args)


@pytest.mark.parametrize("kind, k, padding, shape", CASES, ids=str)
def test_padding_layer_matches_torch(kind, k, padding, shape):
    x = np.random.default_rng(k).standard_normal(shape)
    mine_layer, their_layer = _make(gt, kind, k, padding), _make(torch, kind, k, padding)
    assert repr(mine_layer) == repr(their_layer)
    assert mine_layer.padding == their_layer.padding
    mine_x = gt.tensor(x, requires_grad=True)
    their_x = torch.tensor(x, requires_grad=True)
    mine, theirs = mine_layer(mine_x), their_layer(their_x)
    np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())
    weights = np.random.default_rng(9).standard_normal(tuple(theirs.shape))
    (mine * gt.tensor(weights)).sum().backward()
    (theirs * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(mine_x.grad.numpy(), their_x.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("call", [
    lambda t: t.nn.CircularPad2d(1)(t.ones(4, 4, 4, 4, 4)),
    lambda t: t.nn.CircularPad1d(1)(t.ones(4)),
    lambda t: t.nn.ReflectionPad1d(3)(t.ones(1, 3)),
    lambda t: t.nn.ZeroPad2d((1, 2, 3))(t.ones(1, 3, 3)),
])
def test_refusals_match_torch(call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as mine:
        call(gt)
    assert str(mine.value) == str(theirs.value)
