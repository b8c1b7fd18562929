"""segment_reduce's gradients against torch: spread over each segment (evenly for mean,
to the elements equal to the result for max and min, ties sharing, and none when
`initial` wins; a lone zero gets the others' product for prod)."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _gradient(lib, reduce, initial):
    data = lib.tensor([2.0, 2.0, 1.0, 0.0, 3.0, 5.0], requires_grad=True)
    result = lib.segment_reduce(data, reduce, lengths=lib.tensor([2, 0, 3, 1]), initial=initial)
    (result.nan_to_num() * lib.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    return result.nan_to_num().tolist(), data.grad.tolist()


@pytest.mark.parametrize("initial", [None, 2.0])
@pytest.mark.parametrize("reduce", ["sum", "mean", "max", "min", "prod"])
def test_gradient_as_torch(reduce, initial):
    assert _gradient(gt, reduce, initial) == _gradient(torch, reduce, initial)


def _rows(lib):
    data = lib.tensor([[2.0, 2.0, 1.0], [0.0, 3.0, 5.0]], requires_grad=True)
    result = lib.segment_reduce(data, "max", lengths=lib.tensor([[2, 1], [1, 2]]), axis=1)
    result.sum().backward()
    return result.tolist(), data.grad.tolist()


def test_rows_with_their_own_segments():
    assert _rows(gt) == _rows(torch)
