"""F.one_hot, F.normalize and F.pad against torch 2.13 (skipped without torch): values,
dtypes, gradients and node names, errors; plus torch-free checks."""
import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, to_glass

try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="differential: needs torch")
F = gt.nn.functional


# ----- torch-free --------------------------------------------------------------------
def test_one_hot_is_int64_rows():
    result = F.one_hot(gt.tensor([[0, 2], [1, 0]]), 3)
    assert result.dtype == gt.int64 and result.shape == (2, 2, 3)
    assert result.numpy().tolist() == [[[1, 0, 0], [0, 0, 1]], [[0, 1, 0], [1, 0, 0]]]


def test_normalize_into_out():
    out = gt.empty(2, 2)
    result = F.normalize(gt.tensor([[3., 4.], [0., 0.]]), out=out)
    assert result is out
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8], [0., 0.]])


def test_pad_modes_on_a_row():
    row = gt.arange(4.).view(1, 1, 4)
    assert F.pad(row, (2, 1), mode="reflect").flatten().tolist() == [2, 1, 0, 1, 2, 3, 2]
    assert F.pad(row, (2, 1), mode="replicate").flatten().tolist() == [0, 0, 0, 1, 2, 3, 3]
    assert F.pad(row, (2, 1), mode="circular").flatten().tolist() == [2, 3, 0, 1, 2, 3, 0]
    assert F.pad(row, (1, -2), value=7.).flatten().tolist() == [7, 0, 1]


# ----- against torch -----------------------------------------------------------------
@needs_torch
@pytest.mark.parametrize("kwargs", [{}, {"p": 1.0, "dim": 0}, {"p": 3.0, "dim": -1},
                                    {"dim": (0, 2), "eps": 0.5}])
def test_normalize_matches_torch(kwargs):
    x = torch.randn(3, 4, 5, dtype=torch.float64, requires_grad=True)
    xg = to_glass(x)
    y, yg = torch.nn.functional.normalize(x, **kwargs), F.normalize(xg, **kwargs)
    assert_close(yg, y, rtol=1e-10, atol=1e-12)
    g = torch.randn(3, 4, 5, dtype=torch.float64)
    y.backward(g)
    yg.backward(to_glass(g))
    assert_close(xg.grad, x.grad, rtol=1e-10, atol=1e-12)


@needs_torch
@pytest.mark.parametrize("shape, pad, mode", [
    ((2, 3), (1, 2), "constant"), ((2, 3, 4), (-1, 2, 1, -1), "constant"),
    ((2, 3, 5), (2, 3), "reflect"), ((1, 2, 4, 4), (1, 2, 3, 0), "reflect"),
    ((2, 3, 4), (3, 1), "replicate"), ((1, 1, 2, 3, 4), (1, 1, 1, 1, 1, 1), "replicate"),
    ((2, 3, 5), (-1, 3), "circular"), ((1, 2, 3, 4), (2, 2, 1, 3), "circular")])
def test_pad_matches_torch(shape, pad, mode):
    x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    xg = to_glass(x)
    y = torch.nn.functional.pad(x, pad, mode=mode)
    yg = F.pad(xg, pad, mode=mode)
    assert_close(yg, y, rtol=0, atol=0)
    g = torch.randn(*y.shape, dtype=torch.float64)
    y.backward(g)
    yg.backward(to_glass(g))
    assert_close(xg.grad, x.grad, rtol=1e-12, atol=1e-12)
    if mode != "circular":       # torch's _pad_circular records narrow/cat nodes
        assert type(yg.grad_fn).__name__ == type(y.grad_fn).__name__


@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.one_hot(lib.tensor([0, -1])),
    lambda lib: lib.nn.functional.one_hot(lib.tensor([0, 3]), 3),
    lambda lib: lib.nn.functional.one_hot(lib.tensor([0.5])),
    lambda lib: lib.nn.functional.one_hot(lib.tensor([], dtype=lib.int64)),
    lambda lib: lib.nn.functional.pad(lib.ones(2, 3), (1, 2, 3)),
    lambda lib: lib.nn.functional.pad(lib.ones(2, 3), (3, 3), mode="reflect"),
    lambda lib: lib.nn.functional.pad(lib.ones(3), (1, 1), mode="circular"),
    lambda lib: lib.nn.functional.pad(lib.ones(2, 3), (1, 1), mode="wrap"),
    lambda lib: lib.constant_pad_nd(lib.ones(2, 3), [-2, -2]),
])
def test_errors_match_torch(call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as mine:
        call(gt)
    assert type(mine.value).__name__ == type(theirs.value).__name__     # not a subclass
    assert str(mine.value) == str(theirs.value)
