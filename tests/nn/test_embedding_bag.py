"""F.embedding_bag, nn.EmbeddingBag and the aten operators under them against torch 2.13
(skipped without torch): every mode with offsets, 2-D input, include_last_offset,
per_sample_weights and padding_idx, values and gradients, the module's initialization
and repr, the refusals, the operators' four results (out= too), the graph's nodes and
double backward, and the Meta shapes."""
import re

import numpy as np
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


def test_frequency_divisor_is_torchs_where_it_is_not_the_frequency():
    """torch's CPU kernel divides the k-th smallest distinct index by the frequency of the
    k-th smallest index: index 2 (k=2) by 3 below, not by its own 2."""
    indices = [1, 2, 4, 5, 4, 3, 2, 0, 1, 1]
    for mode in ("sum", "mean"):
        weight = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
        my_weight = to_glass(weight, requires_grad=True)
        out = torch.nn.functional.embedding_bag(torch.tensor(indices), weight,
                                                torch.tensor([0, 2, 2, 5]), mode=mode,
                                                scale_grad_by_freq=True)
        my_out = gt.nn.functional.embedding_bag(gt.tensor(indices), my_weight,
                                                gt.tensor([0, 2, 2, 5]), mode=mode,
                                                scale_grad_by_freq=True)
        grad = torch.randn(out.shape, dtype=torch.float64)
        assert_close(gt.autograd.grad(my_out, my_weight, to_glass(grad))[0],
                     torch.autograd.grad(out, weight, grad)[0])


OPERATOR_CASES = [(mode, padding, last, dtype) for mode in (0, 1, 2) for padding in (-1, 2)
                  for last in (False, True) for dtype in ("float32", "float64")]


@pytest.mark.parametrize("mode, padding, last, dtype", OPERATOR_CASES)
def test_operators_four_results_match_torch(mode, padding, last, dtype):
    """offset2bag, bag_size and max_indices as torch's CPU kernel leaves them (empty
    offset2bag on the float sum path; the indices past the last offset summed or not)."""
    weight = torch.randn(6, 3, dtype=getattr(torch, dtype))
    indices, offsets = torch.tensor([1, 2, 4, 5, 4, 3, 2, 0, 1, 1]), torch.tensor([0, 2, 2, 5])
    for name in ("_embedding_bag", "_embedding_bag_forward_only"):
        theirs = getattr(torch.ops.aten, name)(weight, indices, offsets, False, mode, False,
                                               None, last, padding)
        mine = getattr(gt.ops.aten, name)(to_glass(weight), to_glass(indices),
                                          to_glass(offsets), False, mode, False, None, last,
                                          padding)
        for found, expected in zip(mine, theirs, strict=True):
            assert found.dtype == getattr(gt, str(expected.dtype).split(".")[1])
            assert_close(found, expected)


def test_out_writes_the_four_results():
    weight, indices, offsets = torch.randn(5, 2), torch.tensor([0, 4, 4, 1]), torch.tensor([0, 1])
    theirs = torch.ops.aten._embedding_bag.out(weight, indices, offsets, mode=2,
                                               out0=torch.empty(0), out1=torch.empty(0, dtype=torch.long),
                                               out2=torch.empty(0, dtype=torch.long),
                                               out3=torch.empty(0, dtype=torch.long))
    outs = [gt.empty(0), gt.empty(0, dtype=gt.long), gt.empty(0, dtype=gt.long),
            gt.empty(0, dtype=gt.long)]
    mine = gt.ops.aten._embedding_bag.out(to_glass(weight), to_glass(indices), to_glass(offsets),
                                          mode=2, out0=outs[0], out1=outs[1], out2=outs[2],
                                          out3=outs[3])
    for found, given, expected in zip(mine, outs, theirs, strict=True):
        assert found is given
        assert_close(found, expected)


def test_graph_and_double_backward_are_torchs():
    weight = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)
    weights = torch.rand(4, dtype=torch.float64, requires_grad=True)
    my_weight, my_weights = to_glass(weight, requires_grad=True), to_glass(weights, requires_grad=True)
    indices, offsets = [0, 4, 4, 1], [0, 1]
    out = torch.nn.functional.embedding_bag(torch.tensor(indices), weight, torch.tensor(offsets),
                                            mode="sum", per_sample_weights=weights)
    my_out = gt.nn.functional.embedding_bag(gt.tensor(indices), my_weight, gt.tensor(offsets),
                                            mode="sum", per_sample_weights=my_weights)
    assert my_out.grad_fn.name() == out.grad_fn.name() == "EmbeddingBagBackward0"
    grad = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
    my_grad = to_glass(grad, requires_grad=True)
    theirs = torch.autograd.grad(out, [weight, weights], grad, create_graph=True)
    mine = gt.autograd.grad(my_out, [my_weight, my_weights], my_grad, create_graph=True)
    for found, expected in zip(mine, theirs):
        assert_close(found, expected)
        assert found.grad_fn.name() == expected.grad_fn.name()
    for index in (0, 1):
        with pytest.raises(Exception) as their_error:
            torch.autograd.grad(theirs[index].sum(), grad)
        with pytest.raises(type(their_error.value),
                           match="^" + re.escape(str(their_error.value)) + "$"):
            gt.autograd.grad(mine[index].sum(), my_grad)


def test_meta_results_are_torchs_meta_shapes():
    """torch's Meta shapes differ from its CPU kernel's (bag_size per offset, no
    max_indices outside max mode); glasstorch's Meta registration gives the same."""
    for mode, last in ((0, True), (1, False), (2, True)):
        theirs = torch.ops.aten._embedding_bag(
            torch.empty(6, 3, device="meta"), torch.empty(7, dtype=torch.long, device="meta"),
            torch.empty(4, dtype=torch.long, device="meta"), False, mode, False, None, last)
        mine = gt.ops.aten._embedding_bag(gt.empty(6, 3, device="meta"),
                                          gt.empty(7, dtype=gt.long, device="meta"),
                                          gt.empty(4, dtype=gt.long, device="meta"), False, mode,
                                          False, None, last)
        assert [tuple(t.shape) for t in mine] == [tuple(t.shape) for t in theirs]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_bag_values_round_as_torchs(dtype):
    """Bit for bit: each bag's rows added one after another (half tables in float32), a
    mean dividing the sum already rounded to the table's type, sample weights multiplied
    in first (on the padded path: torch's unpadded float path fuses the multiply-add,
    which NumPy cannot, so there the last bit may differ)."""
    torch.manual_seed(5)
    weight = torch.randn(50, 8).to(getattr(torch, dtype))
    indices, offsets = torch.randint(0, 50, (400,)), torch.arange(0, 400, 7)
    weights = torch.rand(400).to(weight.dtype)
    cases = [(mode, None, -1) for mode in (0, 1, 2)] + [(0, weights, 3)]
    for mode, factors, padding in cases:
        theirs = torch.ops.aten._embedding_bag(weight, indices, offsets, False, mode, False,
                                               factors, False, padding)[0]
        mine = gt.ops.aten._embedding_bag(to_glass(weight), to_glass(indices),
                                          to_glass(offsets), False, mode, False,
                                          None if factors is None else to_glass(factors),
                                          False, padding)[0]
        assert np.array_equal(mine.double().numpy(), theirs.double().numpy())


def test_sparse_gradients_are_refused_by_name():
    """glasstorch has no sparse tensors: the backward says so (as Embedding's does)."""
    bag = gt.nn.EmbeddingBag(4, 2, mode="sum", sparse=True)
    out = bag(gt.tensor([0, 1, 1]), gt.tensor([0, 2]))
    with pytest.raises(NotImplementedError, match="sparse=True"):
        out.sum().backward()
