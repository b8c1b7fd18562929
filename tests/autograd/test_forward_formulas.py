"""Operators' own forward formulas (Note [Forward formulas] in aten/derivatives.py)
against torch 2.13: tangents torch computes otherwise than the adjoint of the backward
formula, and torch's refusal where it has no forward derivative."""
import re

import numpy as np
import pytest

import glasstorch as gt
import glasstorch.autograd.forward_ad as gt_forward

torch = pytest.importorskip("torch")
import torch.autograd.forward_ad as torch_forward  # noqa: E402


def _tangent(lib, forward, fn, primal, tangent):
    with forward.dual_level():
        return forward.unpack_dual(fn(lib, forward.make_dual(primal, tangent))).tangent


def _same_tangent(fn, primal: np.ndarray, tangent: np.ndarray) -> None:
    theirs = _tangent(torch, torch_forward, fn, torch.tensor(primal), torch.tensor(tangent))
    mine = _tangent(gt, gt_forward, fn, gt.tensor(primal), gt.tensor(tangent))
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-12)


def test_max_unpool_tangent_keeps_the_last_write_of_a_repeated_index():
    """The backward's adjoint would add both writes' tangents; torch keeps the last."""
    rng = np.random.default_rng(0)
    indices = [[[[0, 0], [3, 3]]]]

    def unpool2d(lib, x):
        return lib.nn.functional.max_unpool2d(x, lib.tensor(indices), 2, output_size=(4, 4))

    def unpool3d(lib, x):
        return lib.nn.functional.max_unpool3d(x[..., None], lib.tensor(indices)[..., None], 1,
                                              output_size=(2, 2, 1))
    for fn in (unpool2d, unpool3d):
        _same_tangent(fn, rng.standard_normal((1, 1, 2, 2)), rng.standard_normal((1, 1, 2, 2)))


def test_embedding_tangent_picks_the_padding_rows_too():
    rng = np.random.default_rng(1)

    def embed(lib, weight):
        return lib.nn.functional.embedding(lib.tensor([[0, 2], [2, 1]]), weight, padding_idx=2)
    _same_tangent(embed, rng.standard_normal((3, 2)), rng.standard_normal((3, 2)))


def test_embedding_dense_backward_tangent_keeps_the_frequency_division():
    rng = np.random.default_rng(2)

    def backward(lib, grad):
        return lib.ops.aten.embedding_dense_backward(grad, lib.tensor([1, 1, 0]), 3, -1, True)
    _same_tangent(backward, rng.standard_normal((3, 2)), rng.standard_normal((3, 2)))


@pytest.mark.parametrize("case", ["ctc_loss", "_ctc_loss.Tensor", "embedding_bag"])
def test_forward_ad_is_refused_as_torch_refuses(case):
    rng = np.random.default_rng(3)
    if case == "embedding_bag":
        primal = rng.standard_normal((5, 3))

        def call(lib, weight):
            return lib.nn.functional.embedding_bag(lib.tensor([1, 2, 4]), weight,
                                                   lib.tensor([0, 1]), mode="max")
    else:
        primal = np.log(np.full((4, 1, 3), 1 / 3))

        def call(lib, log_probs):
            if case == "ctc_loss":
                return lib.nn.functional.ctc_loss(log_probs, lib.tensor([[1, 2]]), [4], [2])
            return lib.ops.aten._ctc_loss.Tensor(log_probs, lib.tensor([[1, 2]]),
                                                 lib.tensor([4]), lib.tensor([2]))[0]
    with pytest.raises(NotImplementedError) as theirs:
        _tangent(torch, torch_forward, call, torch.tensor(primal), torch.tensor(primal))
    with pytest.raises(NotImplementedError, match="^" + re.escape(str(theirs.value)) + "$"):
        _tangent(gt, gt_forward, call, gt.tensor(primal), gt.tensor(primal))
