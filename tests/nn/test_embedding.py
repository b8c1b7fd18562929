"""nn.Embedding and F.embedding against torch 2.13 (skipped without torch): seeded tables,
padding rows, max_norm, gradients (scale_grad_by_freq, padding_idx), reprs and errors;
plus torch-free checks."""
import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, to_glass

try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="differential: needs torch")


# ----- torch-free --------------------------------------------------------------------
def test_padding_row_starts_at_zero_and_gets_no_gradient():
    m = gt.nn.Embedding(6, 3, padding_idx=-1)
    assert m.padding_idx == 5 and (m.weight[5].detach().numpy() == 0).all()
    m(gt.tensor([5, 1, 5])).sum().backward()
    assert (m.weight.grad[5].numpy() == 0).all() and (m.weight.grad[1].numpy() == 1).all()


def test_sparse_gradients_are_refused_clearly():
    m = gt.nn.Embedding(4, 2, sparse=True)
    y = m(gt.tensor([1, 2]))
    with pytest.raises(NotImplementedError, match="sparse=True"):
        y.sum().backward()


def test_from_pretrained_freezes_by_default():
    table = gt.tensor([[1., 2.], [3., 4.]])
    assert not gt.nn.Embedding.from_pretrained(table).weight.requires_grad
    assert gt.nn.Embedding.from_pretrained(table, freeze=False).weight.requires_grad
    with pytest.raises(AssertionError, match="2-dimensional"):
        gt.nn.Embedding.from_pretrained(gt.ones(3))


def test_many_distinct_indices_take_the_reduceat_path():
    weight = gt.zeros(1000, 2, requires_grad=True)
    indices = gt.arange(1000).flip(0)
    gt.embedding(weight, indices).sum().backward()
    assert (weight.grad.numpy() == 1).all()


# ----- against torch -----------------------------------------------------------------
@needs_torch
@pytest.mark.parametrize("kwargs", [{}, {"padding_idx": 2}, {"padding_idx": -3},
                                    {"max_norm": 1.0}, {"max_norm": 0.5, "norm_type": 1.0},
                                    {"scale_grad_by_freq": True, "padding_idx": 0}])
def test_module_matches_torch(kwargs):
    torch.manual_seed(3)
    gt.manual_seed(3)
    theirs, mine = torch.nn.Embedding(7, 4, **kwargs), gt.nn.Embedding(7, 4, **kwargs)
    assert_close(mine.weight, theirs.weight, rtol=0, atol=0)       # the same random stream
    assert repr(mine) == repr(theirs)
    indices = torch.tensor([[0, 2, 2, 6], [4, 2, 0, 1]])
    y, yg = theirs(indices), mine(to_glass(indices))
    assert type(yg.grad_fn).__name__ == type(y.grad_fn).__name__
    assert_close(yg, y)
    assert_close(mine.weight, theirs.weight)                       # max_norm renormalized
    g = torch.randn(2, 4, 4)
    y.backward(g)
    yg.backward(to_glass(g))
    assert_close(mine.weight.grad, theirs.weight.grad)


@needs_torch
def test_double_backward_matches_torch():
    w, g = torch.randn(5, 3, dtype=torch.float64), torch.randn(2, 3, 3, dtype=torch.float64)
    indices = torch.tensor([[1, 1, 4], [0, 4, 3]])
    results = []
    for lib, (weight, upstream, idx) in ((torch, (w, g, indices)),
                                         (gt, (to_glass(w), to_glass(g), to_glass(indices)))):
        weight = weight.detach().clone().requires_grad_()
        upstream = upstream.detach().clone().requires_grad_()
        y = lib.embedding(weight, idx, 4, True)
        first, = lib.autograd.grad(y, weight, upstream, create_graph=True)
        results.append(lib.autograd.grad((first * first).sum(), upstream)[0])
    np.testing.assert_allclose(results[1].numpy(), results[0].numpy(), rtol=1e-12)


@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([1, 7]), w),
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([1.0]), w),
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([1]), w, padding_idx=7),
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([1]), w, padding_idx=-8),
    lambda lib, w: lib.nn.Embedding(3, 2, padding_idx=3),
    lambda lib, w: lib.nn.Embedding(3, 2, _weight=lib.ones(2, 2)),
    lambda lib, w: lib.embedding(w[0], lib.tensor([1])),
])
def test_errors_match_torch(call):
    weight = torch.randn(7, 3)
    with pytest.raises(Exception) as theirs:
        call(torch, weight)
    with pytest.raises(type(theirs.value)) as mine:
        call(gt, to_glass(weight))
    assert type(mine.value).__name__ == type(theirs.value).__name__     # not a subclass
    assert str(mine.value) == str(theirs.value)
