"""Operators a compiled formula calls directly (Note [Formulas read the values dict]):
sum's and mean's ``grad.expand(self_sym_sizes)`` goes to the expand operator's entry,
and programs see what torch shows: the gradient a hook gets (a stride-0 view for sum),
the ops a dispatch mode sees during backward, a second derivative through it."""
import pytest

import glasstorch as gt


def _seen_by_hook(lib, reduce: str):
    x = lib.arange(12.0).reshape(3, 4).requires_grad_()
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append((g.stride(), g._base is not None, g.tolist())))
    getattr(y, reduce)().backward()
    return seen, x.grad.tolist()


def _seen_by_dispatch_mode(lib, reduce: str):
    from importlib import import_module
    mode = import_module(f"{lib.__name__}.utils._python_dispatch").TorchDispatchMode

    class Seen(mode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            names.append(func._schema.name.split("::")[-1])
            return func(*args, **(kwargs or {}))
    names = []
    x = lib.ones(2, 3, requires_grad=True)
    loss = getattr(x, reduce)()
    with Seen():
        loss.backward()
    return [n for n in names if "expand" in n or "div" in n]


def _second_derivative(lib, reduce: str):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (g,) = lib.autograd.grad(getattr(x * x, reduce)(), x, create_graph=True)
    (h,) = lib.autograd.grad(g.sum(), x)
    return g.tolist(), h.tolist()


@pytest.mark.parametrize("reduce", ["sum", "mean"])
@pytest.mark.parametrize("program", [_seen_by_hook, _seen_by_dispatch_mode, _second_derivative])
def test_reductions_gradients_show_what_torchs_show(program, reduce):
    torch = pytest.importorskip("torch")
    assert program(gt, reduce) == program(torch, reduce)


def test_only_reads_of_sizes_become_direct_calls():
    from glasstorch.autograd.formulas import Formula
    direct = Formula("self", "grad.expand(self_sym_sizes)", "sum")
    direct.compile({"grad", "self_sym_sizes"})
    general = Formula("self", "grad.expand(2, 3)", "test")
    general.compile({"grad"})
    assert "__expand" in direct.run.__code__.co_names
    assert "__expand" not in general.run.__code__.co_names
