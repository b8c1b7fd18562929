"""torch.masked beyond the op_db records (tests/conformance, family "masked"): the
identities of fully masked-out rows, the mask's broadcasting, the refusals and gradients
through the mask. MaskedTensor's tests are in test_maskedtensor.py."""
import math

import pytest

import glasstorch as gt

X = gt.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
NONE_IN_FIRST_ROW = gt.tensor([[False, False, False], [True, False, True]])


@pytest.mark.parametrize("name, expected", [
    ("sum", [0.0, 10.0]), ("prod", [1.0, 24.0]), ("amax", [-math.inf, 6.0]),
    ("amin", [math.inf, 4.0]), ("logsumexp", [-math.inf, math.log(math.exp(4) + math.exp(6))]),
])
def test_fully_masked_rows_give_the_identity(name, expected):
    result = getattr(gt.masked, name)(X, 1, mask=NONE_IN_FIRST_ROW)
    assert result.tolist() == pytest.approx(expected)


def test_mean_var_and_softmax_of_nothing_are_nan():
    assert math.isnan(gt.masked.mean(X, 1, mask=NONE_IN_FIRST_ROW)[0].item())
    assert math.isnan(gt.masked.var(X, 1, mask=NONE_IN_FIRST_ROW)[0].item())
    weights = gt.masked.softmax(X, 1, mask=NONE_IN_FIRST_ROW)
    assert all(math.isnan(v) for v in weights[0].tolist())
    assert weights[1].tolist() == pytest.approx([1 / (1 + math.exp(2)), 0.0,
                                                 1 / (1 + math.exp(-2))])


def test_mask_broadcasts_and_need_not_be_bool():
    row_mask = gt.tensor([1, 0, 1])                  # ints, broadcast over the rows
    assert gt.masked.sum(X, 1, mask=row_mask).tolist() == [4.0, 10.0]
    assert gt.masked.sum(X, mask=None).item() == 21.0
    assert gt.masked.sum(gt.tensor([1, 2], dtype=gt.int32)).dtype is gt.int64


def test_refusals():
    with pytest.raises(IndexError, match="expected broadcastable mask"):
        gt.masked.sum(X, 0, mask=gt.ones(1, 2, 3, dtype=gt.bool))
    with pytest.raises(RuntimeError, match="dim=1 appears multiple times"):
        gt.masked.sum(X, (1, 1))
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in "
                                         r"range of \[-2, 1\], but got 2\)"):
        gt.masked.amax(X, 2)
    with pytest.raises(ValueError, match="mean\\(\\): Could not infer output dtype. Input "
                                         "dtype must be either a floating point"):
        gt.masked.mean(gt.tensor([1, 2]), 0)
    with pytest.raises(ValueError, match="no fully masked out rows"):
        gt.masked.median(gt.tensor([[1, 2], [3, 4]]), 1,
                         mask=gt.tensor([[False, False], [True, True]]))


def test_argmax_takes_the_input_dtype():
    result = gt.masked.argmax(X, 1, mask=gt.tensor([[True, False, True], [True] * 3]))
    assert result.dtype is gt.float32 and result.tolist() == [2.0, 2.0]


def test_no_gradient_reaches_masked_out_elements():
    x = X.clone().requires_grad_()
    gt.masked.sum(x * x, mask=NONE_IN_FIRST_ROW).backward()
    assert x.grad.tolist() == [[0.0, 0.0, 0.0], [8.0, 0.0, 12.0]]


def test_matches_torch_with_a_broadcast_mask():
    torch = pytest.importorskip("torch")
    values = [[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]
    mask = [[True, False, True]]
    for name in ("sum", "mean", "var", "std", "amax", "logsumexp", "norm", "prod"):
        ours = getattr(gt.masked, name)(gt.tensor(values), dim=1, mask=gt.tensor(mask))
        theirs = getattr(torch.masked, name)(torch.tensor(values), dim=1,
                                              mask=torch.tensor(mask))
        assert ours.tolist() == pytest.approx(theirs.tolist(), nan_ok=True), name
