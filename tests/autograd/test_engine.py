"""The autograd engine: recording, backward, grad, grad modes, hooks, saved tensors.

Expected values are worked out by hand (these tests run without torch); the messages
are torch 2.13's, word for word.
"""
import math

import pytest

import glasstorch as torch


def leaf(values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def test_chain_rule_through_recorded_ops():
    x = leaf([1.0, 2.0, 3.0])
    z = (x * x * 2 + x).exp()
    z.backward(torch.ones(3))
    expected = [(4 * v + 1) * math.exp(2 * v * v + v) for v in (1.0, 2.0, 3.0)]
    assert x.grad.tolist() == pytest.approx(expected, rel=1e-5)


def test_nodes_are_named_and_linked_like_torch():
    x = leaf([1.0, 2.0])
    y = x * 2
    assert type(y.grad_fn).__name__ == "MulBackward0" and y.grad_fn.name() == "MulBackward0"
    (accumulate, nr), (nothing, _) = y.grad_fn.next_functions
    assert type(accumulate).__name__ == "AccumulateGrad" and accumulate.variable is x
    assert nothing is None and nr == 0
    assert repr(y) == "tensor([2., 4.], grad_fn=<MulBackward0>)"
    assert not y.is_leaf and y.requires_grad and x.is_leaf


def test_gradients_accumulate_across_backward_calls():
    x = leaf([1.0, 2.0])
    (x * 3).backward(torch.ones(2))
    (x * 3).backward(torch.ones(2))
    assert x.grad.tolist() == [6.0, 6.0]


def test_broadcast_inputs_get_gradients_of_their_own_shape():
    x = leaf([1.0, 2.0])
    column = leaf([[1.0], [2.0], [3.0]])
    (x * column).backward(torch.ones(3, 2))
    assert x.grad.tolist() == [6.0, 6.0]
    assert column.grad.tolist() == [[3.0], [3.0], [3.0]]


def test_results_of_integer_or_bool_type_do_not_require_grad():
    x = leaf([1.0, 2.0])
    assert not (x > 1).requires_grad
    assert (x * torch.tensor([1, 2])).grad_fn.name() == "MulBackward0"


def test_complex_gradients_follow_the_conjugate_convention():
    z = leaf([1 + 1j, 2 - 1j], torch.complex64)
    (z * z).backward(torch.ones(2, dtype=torch.complex64))
    assert z.grad.tolist() == [2 - 2j, 4 + 2j]          # 2 * conj(z)
    real = leaf([1.0, 2.0])
    (real * (1 + 2j)).backward(torch.ones(2, dtype=torch.complex64))
    assert real.grad.dtype == torch.float32 and real.grad.tolist() == [1.0, 1.0]


def test_grad_returns_without_accumulating_and_double_backward():
    x = leaf([1.0, 2.0, 3.0])
    first, = torch.autograd.grad(x * x * x, x, torch.ones(3), create_graph=True)
    assert first.tolist() == [3.0, 12.0, 27.0] and x.grad is None
    second, = torch.autograd.grad(first, x, torch.ones(3))
    assert second.tolist() == [6.0, 12.0, 18.0]


def test_grad_of_unused_inputs():
    v, w = torch.tensor(2.0, requires_grad=True), torch.tensor(5.0, requires_grad=True)
    assert torch.autograd.grad(v * 3, [v, w], allow_unused=True)[1] is None
    assert torch.autograd.grad(v * 3, [v, w], materialize_grads=True)[1].tolist() == 0.0
    with pytest.raises(RuntimeError, match=r"^The differentiated Tensor at index 1 appears "
                                           r"to not have been used in the graph"):
        torch.autograd.grad(v * 3, [v, w])


def test_grad_of_an_intermediate_tensor():
    x = leaf([1.0, 2.0])
    middle = x * 3
    out = middle * middle
    got, = torch.autograd.grad(out, middle, torch.ones(2))
    assert got.tolist() == [6.0, 12.0]


def test_root_gradients_are_delivered_to_their_outputs():
    """The root's gradients go straight to the outputs' nodes: two roots on one node sum,
    an output asked for as an input is captured before its node runs, and a root
    gradient of another dtype is cast to the output's (values as torch 2.13's)."""
    a = leaf([1.0, 2.0])
    y = a * 3
    assert torch.autograd.grad(y, y, torch.ones(2), retain_graph=True)[0].tolist() == [1, 1]
    (summed,) = torch.autograd.grad([y, y], [a], [torch.ones(2), torch.full((2,), 2.0)],
                                    retain_graph=True)
    assert summed.tolist() == [9.0, 9.0]
    ga, gy = torch.autograd.grad([a * a, y], [a, y], [torch.ones(2), torch.ones(2)])
    assert ga.tolist() == [5.0, 7.0] and gy.tolist() == [1.0, 1.0]
    b = leaf([1.0, 2.0], torch.float64)
    (b * 2).backward(torch.ones(2, dtype=torch.float32))
    assert b.grad.dtype is torch.float64 and b.grad.tolist() == [2.0, 2.0]


def test_batched_grads_and_dict_inputs():
    """is_grads_batched: one vector-Jacobian product per row of the gradients, stacked
    (the Jacobian, from the identity); unused inputs None or materialized unbatched;
    inputs given as a dict come back as one; torch's errors (values as torch 2.13's)."""
    x, w = leaf([1.0, 2.0, 3.0]), leaf(2.0)
    (jacobian,) = torch.autograd.grad(x * x, x, torch.eye(3), is_grads_batched=True)
    assert jacobian.tolist() == [[2, 0, 0], [0, 4, 0], [0, 0, 6]]
    gx, gw = torch.autograd.grad([x * x, x.sum() * w], [x, w],
                                 [torch.eye(3), torch.tensor([1.0, 2.0, 3.0])],
                                 is_grads_batched=True)
    assert gx.tolist() == [[4, 2, 2], [4, 8, 4], [6, 6, 12]] and gw.tolist() == [6, 12, 18]
    assert torch.autograd.grad(x * x, [x, w], torch.eye(3), is_grads_batched=True,
                               allow_unused=True)[1] is None
    unused = torch.autograd.grad(x * x, [x, w], torch.eye(3), is_grads_batched=True,
                                 materialize_grads=True, create_graph=True)[1]
    assert unused.shape == () and unused.requires_grad
    assert torch.autograd.grad(x * x, {"a": x}, torch.ones(3))["a"].tolist() == [2, 4, 6]
    y = x * 2
    torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True)
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second"):
        torch.autograd.grad(y, x, torch.ones(3))                # freed after the last row
    with pytest.raises(RuntimeError, match=r"^If `is_grads_batched=True`, we interpret .* "
                                           r"grad_output\[0\] has a shape of torch.Size\(\[\]\) "
                                           r"and output\[0\] has a shape of torch.Size\(\[3\]\)"):
        torch.autograd.grad(x * x, x, torch.eye(2), is_grads_batched=True)
    with pytest.raises(ValueError, match="got sizes \\[2, 3\\] for the mapped dimension$"):
        torch.autograd.grad([x * x, x.sum() * w], [x, w], [torch.ones(2, 3), torch.ones(3)],
                            is_grads_batched=True)
    with pytest.raises(RuntimeError, match="^`inputs` argument to `grad\\(\\)` cannot be empty"):
        torch.autograd.grad(x * x, [], torch.ones(3))
    import collections
    with pytest.raises(TypeError, match="must be a dict, not OrderedDict"):
        torch.autograd.grad(x * x, collections.OrderedDict(a=x), torch.ones(3))


def test_backward_inputs_accumulates_only_there():
    x, y = leaf([1.0]), leaf([2.0])
    (x * y).backward(torch.ones(1), inputs=[x])
    assert x.grad.tolist() == [2.0] and y.grad is None


def test_second_backward_without_retain_graph_raises():
    x = leaf([1.0, 2.0])
    y = x.exp()
    y.backward(torch.ones(2), retain_graph=True)
    y.backward(torch.ones(2))
    with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second "
                                           r"time \(or directly access saved tensors"):
        y.backward(torch.ones(2))
    z = x * 2                  # the number 2 is saved as torch's wrapped-number tensor
    z.backward(torch.ones(2))
    with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second"):
        z.backward(torch.ones(2))


def test_inplace_change_of_a_saved_tensor_is_detected():
    a = leaf([1.0, 2.0])
    b = a * a
    with torch.no_grad():
        a.mul_(2)
    with pytest.raises(RuntimeError, match=r"^one of the variables needed for gradient "
                                           r"computation has been modified by an inplace "
                                           r"operation: \[torch.FloatTensor \[2\]\] is at "
                                           r"version 1; expected version 0 instead\."):
        b.backward(torch.ones(2))
    e = a.exp()
    e.add_(1)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[2\]\], which is output 0 "
                                           r"of Exp, is at version 1;"):
        e.backward(torch.ones(2))


def test_inplace_on_non_leaf_rewrites_its_history():
    x = leaf([1.0, 2.0])
    y = x * 2
    first = y.grad_fn
    y.mul_(x)                                  # y = 2x^2: dy/dx = 4x
    assert y.grad_fn.name() == "MulBackward0" and y.grad_fn.next_functions[0][0] is first
    y.backward(torch.ones(2))
    assert x.grad.tolist() == [4.0, 8.0]
    y = x * 2
    y.mul_(y)                     # the saved `other` is y itself, changed by the op
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[2\]\], which is output 0 "
                                           r"of Mul, is at version 1; expected version 0"):
        y.backward(torch.ones(2))


def test_inplace_on_leaf_that_requires_grad_raises():
    x = leaf([1.0])
    with pytest.raises(RuntimeError, match=r"^a leaf Variable that requires grad is being "
                                           r"used in an in-place operation\.$"):
        x.add_(1)
    with torch.no_grad():
        x.add_(1)
    assert x.tolist() == [2.0]


def test_out_with_inputs_requiring_grad_raises():
    x = leaf([1.0])
    with pytest.raises(RuntimeError, match=r"^add\(\): functions with out=\.\.\. arguments "
                                           r"don't support automatic differentiation"):
        torch.add(x, x, out=torch.empty(1))
    with torch.no_grad():
        assert torch.add(x, x, out=torch.empty(1)).tolist() == [2.0]


def test_grad_modes_nest_and_decorate():
    x = leaf([1.0])
    with torch.no_grad():
        assert not (x * 2).requires_grad and not torch.is_grad_enabled()
        with torch.enable_grad():
            assert (x * 2).requires_grad
    assert torch.is_grad_enabled()

    @torch.no_grad()
    def doubled(t):
        return t * 2
    assert not doubled(x).requires_grad
    torch.set_grad_enabled(False)
    assert not torch.is_grad_enabled()
    torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert torch.is_grad_enabled()


def test_tensor_hooks_and_retain_grad():
    a = leaf([1.0, 2.0])
    c = a * 2
    handle = c.register_hook(lambda g: g * 10)
    c.retain_grad()
    (c * 3).backward(torch.ones(2))
    assert a.grad.tolist() == [60.0, 60.0] and c.grad.tolist() == [30.0, 30.0]
    handle.remove()
    seen = []
    a.register_hook(lambda g: seen.append(g.tolist()))
    a.register_post_accumulate_grad_hook(lambda t: seen.append("accumulated"))
    (a * 1).backward(torch.ones(2))
    assert seen == [[1.0, 1.0], "accumulated"]


def test_node_hooks():
    x = leaf([1.0])
    y = x * 3
    calls = []
    y.grad_fn.register_prehook(lambda grads: calls.append(("pre", grads[0].tolist())))
    y.grad_fn.register_hook(lambda inputs, outputs: calls.append(("post", inputs[0].tolist())))
    y.backward(torch.ones(1))
    assert calls == [("pre", [1.0]), ("post", [3.0])]


def test_saved_tensors_hooks_pack_and_unpack():
    packed = []

    def pack(t):
        packed.append(t)
        return len(packed) - 1
    x = leaf([1.0, 2.0])
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda i: packed[i]):
        y = x * x
    y.backward(torch.ones(2))
    assert len(packed) == 2 and x.grad.tolist() == [2.0, 4.0]


def test_saved_tensors_are_exposed():
    x = leaf([1.0, 2.0])
    other = torch.tensor([3.0, 4.0])
    y = x * other
    assert y.grad_fn._saved_other is other
    assert y.grad_fn._saved_self is None           # other needs no gradient: not saved
    z = x.exp()
    assert z.grad_fn._saved_result.tolist() == z.tolist() and z.grad_fn._saved_result is not z


def test_implicit_gradient_only_for_scalars():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"^grad can be implicitly created only for scalar "
                                           r"outputs$"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match=r"^element 0 of tensors does not require grad and "
                                           r"does not have a grad_fn$"):
        torch.tensor([1.0]).backward(torch.ones(1))


def test_long_chains_need_no_recursion():
    x = leaf([1.0])
    y = x
    for _ in range(20000):
        y = y * 1.0
    y.backward(torch.ones(1))
    assert x.grad.tolist() == [1.0]


def test_detach_leaves_the_graph():
    x = leaf([1.0])
    d = (x * 2).detach()
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf


def test_inplace_through_a_view_rewrites_the_base():
    x = leaf([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    b = x * 1
    view = b[0]
    view.mul_(2)
    assert b.grad_fn.name() == "torch::autograd::CopySlices"
    assert repr(b.grad_fn).startswith("<CopySlices object")
    assert view.grad_fn.name() == "AsStridedBackward0"
    b.sum().backward()
    assert x.grad.tolist() == [[2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]


def test_views_see_inplace_writes_of_their_base():
    x = leaf([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    b = x * 1
    column = b[:, 1]
    b.mul_(3)
    assert column.grad_fn.name() == "AsStridedBackward0"
    column.sum().backward()
    assert x.grad.tolist() == [[0.0, 3.0, 0.0], [0.0, 3.0, 0.0]]


def test_setitem_on_a_tensor_needing_grad():
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    y = x.clone()
    y[:, 0] = y[:, 1] * 10            # the saved view is not needed: no version error
    (y * y).sum().backward()
    assert x.grad.tolist() == [[0.0, 202.0, 4.0], [0.0, 808.0, 10.0]]
    fresh = torch.zeros(3)
    w = leaf([1.0])
    fresh[1:2].copy_(w * 5)
    assert fresh.requires_grad and fresh.grad_fn.name() == "torch::autograd::CopySlices"


def test_inplace_on_a_view_of_a_leaf_raises():
    x = leaf([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match=r"^a view of a leaf Variable that requires grad is "
                                           r"being used in an in-place operation\.$"):
        x[0].mul_(2)


def test_operators_without_formulas_fail_in_backward():
    x = leaf([1.5, 2.0])
    y = torch.floor_divide(x, 2)
    assert repr(y) == "tensor([0., 1.], grad_fn=<NotImplemented>)"
    with pytest.raises(RuntimeError, match=r"^derivative for aten::floor_divide is not "
                                           r"implemented$"):
        y.backward(torch.ones(2))


def test_anomaly_mode_names_the_node_returning_nan():
    x = leaf([0.0, 1.0])
    with torch.autograd.set_detect_anomaly(True):
        y = x.sqrt() * 0
        with pytest.raises(RuntimeError, match=r"^Function 'MulBackward0' returned nan values "
                                               r"in its 0th output\.$"):
            y.log().sum().backward()
    with torch.autograd.set_detect_anomaly(True):
        broken = torch.floor_divide(x * 1, 2)
        with pytest.warns(UserWarning, match="Error detected in torch::autograd::NotImplemented"
                                             ". Traceback of forward call"):
            with pytest.raises(RuntimeError, match="derivative for aten::floor_divide"):
                broken.sum().backward()


def test_graph_as_text_and_dot():
    x = leaf([1.0, 1.0])
    y = (x * 2).exp()
    text = torch.autograd.graph.format_graph(y)
    assert text.splitlines() == ["ExpBackward0 (saved: result [2])",
                                 "└── MulBackward0 (saved: other [])",
                                 "    ├── AccumulateGrad (leaf [2] torch.float32)",
                                 "    └── None"]
    dot = torch.autograd.graph.to_dot(y)
    assert dot.startswith("digraph backward {") and "n0 -> n1" in dot and "n1 -> n2" in dot


def test_grad_of_a_non_leaf_warns_unless_retained():
    x = leaf([1.0])
    y = x * 2
    with pytest.warns(UserWarning, match=r"^The \.grad attribute of a Tensor that is not a leaf"):
        assert y.grad is None
    y.retain_grad()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert y.grad is None


def test_detach_in_place():
    x = leaf([1.0, 2.0])
    y = x * 1
    assert y.detach_() is y and not y.requires_grad and y.grad_fn is None
    view = (x * 1)[0]
    with pytest.raises(RuntimeError, match="^Can't detach views in-place. Use detach"):
        view.detach_()
    z = x * 3
    assert torch.detach_(z) is z and z.is_leaf


def test_inference_mode_and_inference_tensors():
    normal = torch.ones(3)
    with torch.inference_mode():
        made = torch.ones(3)
        assert torch.is_inference_mode_enabled() and not (made * 2).requires_grad
        assert made.is_inference() and (normal * 2).is_inference()
        assert not normal[0:2].is_inference() and normal[0:2]._base is normal
        assert made[0:1].is_inference() and made[0:1]._base is None
        made.add_(1)                              # allowed inside the mode
    assert not torch.is_inference_mode_enabled() and made[0:1].is_inference()
    with pytest.raises(RuntimeError, match="^Inplace update to inference tensor outside "
                                           "InferenceMode is not allowed"):
        made.add_(1)
    with pytest.raises(RuntimeError, match="^Setting requires_grad=True on inference tensor"):
        made.requires_grad_()
    with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for backward"):
        torch.ones(3, requires_grad=True) * made
    with pytest.raises(RuntimeError, match="^Inference tensors do not track version counter"):
        made._version
    assert made.tolist() == [2.0, 2.0, 2.0] and not (made * 2).is_inference()

    @torch.inference_mode()
    def doubled(t):
        return t * 2
    assert doubled(normal).is_inference() and not doubled(leaf([1.0])).requires_grad


def test_forward_mode_dual_tensors():
    fwAD = torch.autograd.forward_ad
    primal, tangent = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.5])
    with pytest.raises(RuntimeError, match="^Trying to create a dual Tensor for forward AD but "
                                           "no level exists"):
        fwAD.make_dual(primal, tangent)
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, tangent)
        assert repr(dual) == "tensor([1., 2.], tangent=tensor([1.0000, 0.5000]))"
        out = (dual * dual).sum()                     # d/dt sum(x^2) = 2 x . t
        assert fwAD.unpack_dual(out).tangent.item() == 4.0
        assert fwAD.unpack_dual(dual + torch.tensor([[1.0], [2.0]])).tangent.tolist() == \
            [[1.0, 0.5], [1.0, 0.5]]
        relu = torch.relu(fwAD.make_dual(torch.tensor([-1.0, 2.0]), torch.tensor([5.0, 6.0])))
        assert fwAD.unpack_dual(relu).tangent.tolist() == [0.0, 6.0]
        inplace = fwAD.make_dual(primal.clone(), tangent)
        inplace.mul_(2)                               # the tangent is updated in place
        assert tangent.tolist() == [2.0, 1.0]
        with pytest.raises(RuntimeError, match="^Nested forward mode AD is not supported"):
            fwAD.enter_dual_level()
        assert fwAD.unpack_dual(primal).tangent is None
    assert fwAD.unpack_dual(out).tangent is None      # leaving the level drops tangents


def test_formulas_reading_only_sizes_or_dtypes_save_no_tensor():
    """sort/cumsum read their input's sizes and dtype, not its values: an in-place change
    of the input after the call does not invalidate backward (torch saves
    `self_sym_sizes` / `self_scalar_type` the same way)."""
    x = leaf([3.0, 1.0, 2.0])
    y = x * 1
    values, summed = y.sort().values, y.cumsum(0)
    with torch.no_grad():
        y.add_(1)
    (values.sum() + summed.sum()).backward()
    assert x.grad.tolist() == [4.0, 3.0, 2.0]
