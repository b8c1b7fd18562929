"""``pow.Tensor_Scalar``: a tensor raised to a number (``y ** 2``, ``y.pow(2)``,
``torch.pow(y, 2)``) records torch's PowBackward0 with one edge and saves the exponent
as a number; ``pow_.Scalar`` (``y.pow_(2)``, ``y **= 2``) records the same node on the
original values. Values, dtypes, out= and errors: the OpInfo entry."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

_FORMS = {
    "operator": lambda y: y ** 2,
    "method": lambda y: y.pow(2),
    "function": lambda y, library=None: library.pow(y, 2),
}


def _graph(library, form):
    y = library.tensor([0.5, 2.0, -1.0], requires_grad=True)
    result = form(y, library=library) if form is _FORMS["function"] else form(y)
    edges = [type(node).__name__ if node is not None else None
             for node, _ in result.grad_fn.next_functions]
    return type(result.grad_fn).__name__, edges


@pytest.mark.parametrize("form", sorted(_FORMS))
def test_a_number_exponent_records_one_edge(form):
    expected = ("PowBackward0", ["AccumulateGrad"])
    assert _graph(gt, _FORMS[form]) == _graph(torch, _FORMS[form]) == expected


def test_a_tensor_exponent_keeps_the_tensor_overload():
    for library in (torch, gt):
        y = library.tensor([0.5, 2.0], requires_grad=True)
        assert type((y ** library.tensor(2.0)).grad_fn).__name__ == "PowBackward1"


def _saved(library):
    node = library.pow(library.tensor([1.0, 2.0], requires_grad=True), 2.5).grad_fn
    return node._saved_exponent, node._saved_self.tolist()


def test_the_exponent_is_saved_as_a_number():
    assert _saved(gt) == _saved(torch) == (2.5, [1.0, 2.0])


@pytest.mark.parametrize("exponent", [0, 1, 3, 0.5, -1, 2.5, 1 + 1j])
def test_gradients(exponent):
    grads = []
    for library in (torch, gt):
        x = library.tensor([0.0, 2.0, 3.5], requires_grad=True)
        library.pow(x, exponent).abs().sum().backward()
        grads.append(x.grad.tolist())
    assert grads[0] == pytest.approx(grads[1], nan_ok=True)


@pytest.mark.parametrize("write", ["pow_", "ipow"])
def test_in_place_records_on_the_original_values(write):
    found = []
    for library in (torch, gt):
        x = library.tensor([1.0, 2.0, -3.0], requires_grad=True)
        y = x * 1
        if write == "pow_":
            y.pow_(3)
        else:
            y **= 3
        name = type(y.grad_fn).__name__
        y.sum().backward()
        found.append((name, y.tolist(), x.grad.tolist()))
    assert found[0] == found[1]
    assert found[1][0] == "PowBackward0"


def _dispatched(library, mode_base):
    seen = []

    class Record(mode_base):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(func._schema.overload_name)
            return func(*args, **(kwargs or {}))

    x = library.tensor([1.0, 2.0])
    with Record():
        x ** 2
        x.pow_(2)
    return seen


def test_a_dispatch_mode_sees_the_scalar_overloads():
    from glasstorch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._python_dispatch import TorchDispatchMode as TorchMode
    assert _dispatched(gt, TorchDispatchMode) == _dispatched(torch, TorchMode) == \
        ["Tensor_Scalar", "Scalar"]


def _refusal(library):
    with pytest.raises(TypeError) as caught:
        library.pow("a", 2)
    return str(caught.value)


def test_the_bindings_try_the_overloads_in_torchs_order():
    assert _refusal(gt) == _refusal(torch)
