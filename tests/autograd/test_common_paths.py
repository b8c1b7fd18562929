"""The common paths of recording and of the engine (Note [One frame to record a call] in
autograd/recording_plan.py, Note [The engine's common path] in autograd/engine.py) against
torch: the graphs they record, the gradients they deliver, the errors they raise.
"""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _graph(tensor) -> list:
    """The node names of the graph behind `tensor`, depth first, edges as (name, nr)."""
    found, stack, seen = [], [tensor.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        edges = [(None if e[0] is None else e[0].name(), e[1]) for e in node.next_functions]
        found.append((node.name(), edges))
        stack.extend(e[0] for e in node.next_functions)
    return found


def _leaves(lib):
    x = lib.tensor([1.0, -2.0, 3.0], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([0.5, 4.0, -1.0], dtype=lib.float64, requires_grad=True)
    return x, y


PROGRAMS = {
    "leaves": lambda lib, x, y: x * y,
    "leaf and constant": lambda lib, x, y: x * lib.tensor([2.0, 3.0, 4.0], dtype=lib.float64),
    "number operands": lambda lib, x, y: (x + 2) * (y * 3) / 4,
    "non-leaf inputs": lambda lib, x, y: (x.exp() * y.sin()).sum(),
    "view inputs": lambda lib, x, y: x[1:] * y[:2],
    "saved output": lambda lib, x, y: (x * y).exp().tanh(),
    "one input used twice": lambda lib, x, y: x * x + x,
    "several results": lambda lib, x, y: x.max(0)[0] + y.sort()[0].sum(),
    "several differentiable results": lambda lib, x, y: lib.var_mean(x * y, 0)[0] * 2
    + lib.var_mean(x * y, 0)[1],
    "view recorded, then its base written": lambda lib, x, y: _stale_view(x) * y[:2],
    "linear, relu, mse_loss": lambda lib, x, y: lib.nn.functional.mse_loss(
        lib.nn.functional.relu(lib.nn.functional.linear(x.view(1, 3), lib.stack([y, -y]))),
        lib.ones(1, 2, dtype=lib.float64)),
}


def _stale_view(x):
    """A view whose recorded grad_fn an in-place write to its base has outdated: its edge
    is regenerated (AsStridedBackward0), not read from the record."""
    base = x * 1
    view = base[1:]
    view * 1                                   # recorded once at its first version
    base.mul_(2)
    return view


@pytest.mark.parametrize("name", PROGRAMS)
def test_recorded_graphs_and_gradients_are_torchs(name):
    results = []
    for lib in (gt, torch):
        x, y = _leaves(lib)
        out = PROGRAMS[name](lib, x, y)
        graph = _graph(out)
        out.sum().backward()
        grads = [None if t.grad is None else t.grad.numpy() for t in (x, y)]
        results.append((graph, grads, out.detach().numpy()))
    (graph, grads, values), (torch_graph, torch_grads, torch_values) = results
    assert graph == torch_graph
    numpy = pytest.importorskip("numpy")
    numpy.testing.assert_allclose(values, torch_values, rtol=1e-12)
    for grad, torch_grad in zip(grads, torch_grads):
        assert (grad is None) == (torch_grad is None)
        if grad is not None:
            numpy.testing.assert_allclose(grad, torch_grad, rtol=1e-12)


def test_an_integer_result_of_a_differentiable_input_is_refused_as_torch_does():
    for lib in (gt, torch):
        x, _ = _leaves(lib)
        with pytest.raises(RuntimeError, match="Autograd not support dtype: Long"):
            x.sum(dtype=lib.long)


def test_gradients_are_fitted_to_the_inputs_shape_and_dtype():
    found = []
    for lib in (gt, torch):
        x = lib.tensor([[1.0], [2.0]], requires_grad=True)          # broadcast in (2, 3)
        w = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
        out = (x * w.float()) * lib.ones(2, 3)
        out.sum().backward()
        found.append((x.grad.tolist(), x.grad.dtype is lib.float32,
                      w.grad.tolist(), w.grad.dtype is lib.float64))
    assert found[0] == found[1]


def _misbehaving_function(lib, grads):
    class Misbehaving(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grads(lib, grad)
    return Misbehaving


@pytest.mark.parametrize("grads", [
    lambda lib, grad: (grad, grad),                              # one gradient too many
    lambda lib, grad: lib.ones(4),                               # a shape that cannot fit
])
def test_a_node_returning_unfitting_gradients_fails_as_in_torch(grads):
    messages = []
    for lib in (gt, torch):
        x, _ = _leaves(lib)
        out = _misbehaving_function(lib, grads).apply(x * 1)
        with pytest.raises(RuntimeError) as caught:
            out.sum().backward()
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def test_a_hooked_node_amid_common_ones_runs_its_hooks_once():
    for lib in (gt, torch):
        x, y = _leaves(lib)
        seen = []
        middle = x * y
        middle.register_hook(lambda g: seen.append(g.tolist()) or g * 2)
        middle.grad_fn.register_hook(lambda inputs, outputs: seen.append("post"))
        (middle.exp() * 0 + middle).sum().backward()
        assert seen == [[1.0, 1.0, 1.0], "post"]
        assert x.grad.tolist() == [1.0, 8.0, -2.0]


def test_a_leafs_hooks_reach_its_accumulator_whenever_they_are_registered():
    # before any graph, while a graph holds the accumulator, and after one is removed
    seen = {}
    for lib in (gt, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        calls = seen[lib.__name__] = []
        y = x * 3                                  # its graph keeps x's accumulator alive
        first = x.register_hook(lambda g: calls.append(("first", g.tolist())))
        y.sum().backward()
        second = x.register_hook(lambda g: calls.append(("second", g.tolist())) or g * 10)
        (x * 2).sum().backward()
        first.remove()
        second.remove()
        (x * 4).sum().backward()
        calls.append(("grad", x.grad.tolist()))
    assert seen["glasstorch"] == seen["torch"]


@pytest.mark.parametrize("make", [
    lambda lib: lib.ones(4, 6)[:, ::2].detach(),          # not dense: row-major gradient
    lambda lib: lib.ones(3, 2).t().detach(),              # dense, transposed
    lambda lib: lib.ones(2, 1, 3).detach(),               # row-major with a size-1 dim
])
def test_a_leafs_first_gradient_has_torchs_layout(make):
    strides = []
    for lib in (gt, torch):
        w = make(lib).requires_grad_()
        (w * 2).sum().backward()
        (w.t() if w.dim() == 2 else w).sum().backward()   # a later one, summed in
        strides.append((w.grad.stride(), w.grad.tolist()))
    assert strides[0] == strides[1]
