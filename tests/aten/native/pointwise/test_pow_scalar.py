"""``pow.Scalar``: a number raised to a tensor (``torch.pow(2, y)``) records torch's
PowBackward2 with one edge, and its out= form fills ones for a base of 1 whatever out's
dtype, as torch's does. Values, dtypes, out= and gradients: the OpInfo entry."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _graph(library, base):
    exponent = library.tensor([0.5, 2.0, -1.0], requires_grad=True)
    result = library.pow(base, exponent)
    edges = [type(node).__name__ if node is not None else None
             for node, _ in result.grad_fn.next_functions]
    return type(result.grad_fn).__name__, edges


@pytest.mark.parametrize("base", [2, 0.5, 1 - 1j])
def test_a_number_base_records_one_edge(base):
    assert _graph(gt, base) == _graph(torch, base) == ("PowBackward2", ["AccumulateGrad"])


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32"])
def test_a_base_of_one_fills_out_of_any_dtype(dtype):
    results = []
    for library in (torch, gt):
        out = library.zeros(5, dtype=getattr(library, dtype))
        library.pow(1, library.tensor([[0.5, -3.0]]), out=out)
        results.append((tuple(out.shape), out.tolist()))
    assert results[0] == results[1] == ((1, 2), [[1, 1]] if dtype != "float32"
                                        else [[1.0, 1.0]])


def test_a_bool_base_has_no_gradient():
    for library in (torch, gt):
        exponent = library.tensor([1.0, 2.0], requires_grad=True)
        with pytest.raises(RuntimeError, match="unknown ivalue tag 4"):
            library.pow(True, exponent).sum().backward()


def test_the_number_base_is_called_self():
    for library in (torch, gt):
        exponent = library.tensor([1.0, 2.0])
        assert library.pow(self=2, exponent=exponent).tolist() == [2.0, 4.0]
        with pytest.raises(TypeError):
            library.pow(input=2, exponent=exponent)
