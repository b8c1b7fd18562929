"""The blocked kernels' helpers: `select` bit for bit as `np.where`, and activations on
large tensors (blocks, bitwise selection) equal to the same elements computed alone
(one small block, `np.where`)."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.pointwise.blocks import select

F = gt.nn.functional
ops = gt.ops.aten


def _specials(size: int, dtype, seed: int) -> np.ndarray:
    values = (np.random.default_rng(seed).standard_normal(size) * 5).astype(dtype)
    values[:9] = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 3.0, -3.0, 25.0]
    return values


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("size", [12, 5000])
def test_select_is_np_where_bit_for_bit(dtype, size):
    chosen, other = _specials(size, dtype, 0), _specials(size, dtype, 1)[::-1].copy()
    mask = np.random.default_rng(2).random(size) < 0.5
    expected = np.where(mask, chosen, other).view(np.uint8).tobytes()
    out = np.empty_like(chosen)
    select(mask, chosen, other, out)
    assert out.view(np.uint8).tobytes() == expected
    aliased = chosen.copy()                          # out is the chosen values
    select(mask, aliased, other, aliased)
    assert aliased.view(np.uint8).tobytes() == expected
    aliased = other.copy()                           # out is the other values
    select(mask, chosen, aliased, aliased)
    assert aliased.view(np.uint8).tobytes() == expected


@pytest.mark.parametrize("fill", [True, False])
def test_select_with_a_uniform_mask_copies_one_side(fill):
    mask = np.full(3000, fill)
    for aliased in (None, "chosen", "other"):
        chosen, other = _specials(3000, np.float32, 6), _specials(3000, np.float32, 7)
        expected = (chosen if fill else other).tobytes()
        out = {"chosen": chosen, "other": other}.get(aliased, np.empty_like(chosen))
        select(mask, chosen, other, out)
        assert out.tobytes() == expected


def test_select_broadcasts_into_out():
    other = np.float32([2.5])
    chosen = _specials(3000, np.float32, 3)
    mask = chosen > 0
    out = np.empty_like(chosen)
    select(mask, chosen, other, out)
    assert out.view(np.uint32).tobytes() == np.where(mask, chosen, other).view(
        np.uint32).tobytes()


_LARGE = [
    ("leaky_relu", lambda x, g: F.leaky_relu(x, 0.2)),
    ("leaky_relu_steep", lambda x, g: F.leaky_relu(x, 1.5)),
    ("leaky_relu_negative", lambda x, g: F.leaky_relu(x, -0.5)),
    ("leaky_relu_backward", lambda x, g: ops.leaky_relu_backward(g, x, 0.2, False)),
    ("elu", lambda x, g: F.elu(x, 0.7)),
    ("elu_backward", lambda x, g: ops.elu_backward(g, 0.7, 1.1, 0.9, False, x)),
    ("softplus", lambda x, g: F.softplus(x, 2.0, 5.0)),
    ("softplus_backward", lambda x, g: ops.softplus_backward(g, x, 2.0, 5.0)),
    ("hardsigmoid", lambda x, g: F.hardsigmoid(x)),
    ("hardswish", lambda x, g: F.hardswish(x)),
    ("silu", lambda x, g: F.silu(x)),
    ("hardsigmoid_backward", lambda x, g: ops.hardsigmoid_backward(g, x)),
    ("hardswish_backward", lambda x, g: ops.hardswish_backward(g, x)),
]


@pytest.mark.parametrize("name, function", _LARGE, ids=[name for name, _ in _LARGE])
def test_large_activation_equals_its_elements_alone(name, function):
    x = gt.from_numpy(_specials(300_000, np.float32, 4))
    g = gt.from_numpy(_specials(300_000, np.float32, 5))
    whole = function(x, g).numpy()
    alone = np.concatenate([function(x[i:i + 500], g[i:i + 500]).numpy()
                            for i in (0, 65_000, 299_500)])
    picked = np.concatenate([whole[i:i + 500] for i in (0, 65_000, 299_500)])
    assert picked.view(np.uint32).tobytes() == alone.view(np.uint32).tobytes()
