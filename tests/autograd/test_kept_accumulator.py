"""A leaf keeps its AccumulateGrad across graphs (Note [A leaf keeps its accumulator] in
autograd/graph.py), and nothing a program can see differs from torch, whose new graph
makes a new node: each case runs the same program in both libraries."""
import copy
import gc
import weakref

import pytest

import glasstorch as gt


def test_a_leaf_keeps_its_accumulator_and_is_not_kept_alive_by_it():
    x = gt.rand(3, requires_grad=True)
    first = weakref.ref((x * 2).grad_fn.next_functions[0][0])
    assert first() is not None                  # the first graph is gone, its node kept
    assert (x + 1).grad_fn.next_functions[0][0] is first()
    held = weakref.ref(x)
    gc.disable()
    try:
        del x                                    # no cycle: refcounting frees the leaf
        assert held() is None
    finally:
        gc.enable()


def _accumulator_hook_lives_with_its_graph(lib):
    ran = []
    a = lib.rand(3, requires_grad=True)
    y = a * 2
    y.grad_fn.next_functions[0][0].register_hook(lambda *g: ran.append("first"))
    del y
    gc.collect()
    (a * 2).sum().backward()                    # a new graph: the hook went with the old one
    y = a * 2
    y.grad_fn.next_functions[0][0].register_prehook(lambda g: ran.append("second"))
    (a * 3 + y).sum().backward()                # while y's graph lives: the same node
    return ran


def _post_accumulate_hook_sees_a_dropped_leaf(lib):
    seen = []
    a = lib.rand(3, requires_grad=True)
    (a * 2).sum()                                # a first graph made a (kept) node
    a.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.tolist()))
    loss = (a * 5).sum()
    del a
    gc.collect()
    loss.backward()
    return seen


def _data_replaced_by_another_dtype_and_shape(lib):
    a = lib.rand(3, requires_grad=True)
    (a * 2).sum().backward()
    a.grad = None
    a.data = lib.ones(2, 2, dtype=lib.float64)
    (a * 3).sum().backward()
    return str(a.grad.dtype), a.grad.tolist()


def _deep_copy_gets_its_own_gradient(lib):
    a = lib.ones(3, requires_grad=True)
    y = a * 2                                       # a's node lives while y does
    b = copy.deepcopy(a)
    (b * 2).sum().backward()
    return a.grad, b.grad.tolist(), y.sum().item()


@pytest.mark.parametrize("program", [
    _accumulator_hook_lives_with_its_graph, _post_accumulate_hook_sees_a_dropped_leaf,
    _data_replaced_by_another_dtype_and_shape, _deep_copy_gets_its_own_gradient])
def test_programs_see_what_torch_shows(program):
    torch = pytest.importorskip("torch")
    assert program(gt) == program(torch)
