"""F.embedding_bag and nn.EmbeddingBag against torch 2.13 (skipped without torch):
every mode with offsets, 2-D input, include_last_offset, per_sample_weights and
padding_idx, values and gradients, the module's initialization and repr, and the
refusals."""
import re

import pytest

import glasstorch as gt
from nn_compare import assert_close, to_glass

torch = pytest.importorskip("torch")

INDICES = [1, 2, 4, 5, 4, 3, 2, 9]
CASES = [({"mode": mode}, offsets) for mode in ("sum", "mean", "max")
         for offsets in ([0, 4, 4, 6], [0, 8], [0, 2, 2])] + [
    ({"mode": "mean", "padding_idx": 4}, [0, 3, 5]),
    ({"mode": "max", "padding_idx": -8}, [0, 3, 5]),
    ({"mode": "sum", "include_last_offset": True}, [0, 4, 8]),
    ({"mode": "mean", "include_last_offset": True}, [0, 2, 2, 8]),
    ({"mode": "sum", "per_sample_weights": True}, [0, 3, 5])]


@pytest.mark.parametrize("kwargs, offsets", CASES, ids=[str(i) for i in range(len(CASES))])
def test_values_and_gradients_match_torch(kwargs, offsets):
    torch.manual_seed(0)
    weight = torch.randn(10, 3, requires_grad=True)
    weights = torch.rand(len(INDICES), requires_grad=True)
    my_weight, my_weights = to_glass(weight, requires_grad=True), to_glass(weights, requires_grad=True)
    theirs, mine = dict(kwargs), dict(kwargs)
    if kwargs.get("per_sample_weights"):
        theirs["per_sample_weights"], mine["per_sample_weights"] = weights, my_weights
    out = torch.nn.functional.embedding_bag(torch.tensor(INDICES), weight,
                                            torch.tensor(offsets), **theirs)
    my_out = gt.nn.functional.embedding_bag(gt.tensor(INDICES), my_weight, gt.tensor(offsets),
                                            **mine)
    assert_close(my_out, out)
    grad = torch.randn(out.shape)
    leaves = [weight] + ([weights] if "per_sample_weights" in theirs else [])
    my_leaves = [my_weight] + ([my_weights] if "per_sample_weights" in mine else [])
    for found, expected in zip(gt.autograd.grad(my_out, my_leaves, to_glass(grad)),
                               torch.autograd.grad(out, leaves, grad)):
        assert_close(found, expected)


def test_module_matches_torch():
    torch.manual_seed(3)
    theirs = torch.nn.EmbeddingBag(10, 3, mode="max", padding_idx=2)
    gt.manual_seed(3)
    mine = gt.nn.EmbeddingBag(10, 3, mode="max", padding_idx=2)
    assert repr(mine) == repr(theirs)
    assert_close(mine.weight, theirs.weight.detach())
    batch = [[1, 2, 3], [2, 2, 9]]
    assert_close(mine(gt.tensor(batch)), theirs(torch.tensor(batch)))
    table = [[1.0, 2.0], [3.0, 4.0]]
    assert gt.nn.EmbeddingBag.from_pretrained(gt.tensor(table))(gt.tensor([[0, 1]])).tolist() \
        == torch.nn.EmbeddingBag.from_pretrained(torch.tensor(table))(torch.tensor([[0, 1]])).tolist()


def test_refusals_match_torch():
    cases = [lambda m: m.nn.functional.embedding_bag(m.tensor([[1, 2]]), m.ones(5, 2),
                                                     m.tensor([0])),
             lambda m: m.nn.functional.embedding_bag(m.tensor([1, 2]), m.ones(5, 2)),
             lambda m: m.nn.functional.embedding_bag(m.tensor([[[1]]]), m.ones(5, 2)),
             lambda m: m.nn.functional.embedding_bag(m.tensor([1]), m.ones(5, 2), m.tensor([0]),
                                                     mode="x"),
             lambda m: m.nn.functional.embedding_bag(m.tensor([1]), m.ones(5, 2), m.tensor([0]),
                                                     per_sample_weights=m.ones(1)),
             lambda m: m.nn.functional.embedding_bag(m.tensor([1, 2]), m.ones(5, 2),
                                                     m.tensor([1])),
             lambda m: m.nn.functional.embedding_bag(m.tensor([1, 7]), m.ones(5, 2),
                                                     m.tensor([0]))]
    for case in cases:
        with pytest.raises(Exception) as theirs:
            case(torch)
        with pytest.raises(type(theirs.value), match="^" + re.escape(str(theirs.value)) + "$"):
            case(gt)


def test_scale_grad_by_freq_divides_by_the_frequency():
    """Where torch's CPU count equals the frequency (its counts are kept by sorted
    position, which can differ for other inputs)."""
    weight = torch.ones(6, 1, requires_grad=True)
    my_weight = to_glass(weight, requires_grad=True)
    indices = [[4, 0], [4, 4]]
    out = torch.nn.functional.embedding_bag(torch.tensor(indices), weight, mode="sum",
                                            scale_grad_by_freq=True)
    my_out = gt.nn.functional.embedding_bag(gt.tensor(indices), my_weight, mode="sum",
                                            scale_grad_by_freq=True)
    expected, = torch.autograd.grad(out.sum(), weight)
    found, = gt.autograd.grad(my_out.sum(), my_weight)
    assert_close(found, expected)
