"""The autograd speed mechanisms keep torch's behaviour: a leaf's first gradient is kept
without a copy only when nobody else can see it (Note [The engine owns gradients]),
node hook tables and metadata made on first use belong to their node alone.

These run without torch: the expected values are worked out by hand.
"""
import glasstorch as torch


def leaf(values):
    return torch.tensor(values, requires_grad=True)


def test_first_gradient_owned_by_the_engine_is_kept_without_a_copy():
    x = leaf([1.0, 2.0, 3.0])
    seen = []
    x.register_hook(lambda g: seen.append(g.data_ptr()))     # keeps no reference
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    assert x.grad.data_ptr() == seen[0]


def test_gradients_someone_else_holds_are_copied():
    x = leaf([1.0, 2.0])
    given = torch.tensor([5.0, 6.0])
    x.backward(given)                                      # the caller keeps `given`
    assert x.grad is not given and x.grad.data_ptr() != given.data_ptr()
    given.add_(1)
    assert x.grad.tolist() == [5.0, 6.0]
    y = leaf([1.0, 2.0])
    kept = []
    y.register_hook(lambda g: kept.append(g))              # a hook keeps the gradient
    (y * 3).sum().backward()
    kept[0].zero_()
    assert y.grad.tolist() == [3.0, 3.0]


def test_one_gradient_reaching_two_leaves_is_copied_for_each():
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (a + b).backward(torch.ones(2))
    a.grad.add_(1)
    assert b.grad.tolist() == [1.0, 1.0]
    assert a.grad.data_ptr() != b.grad.data_ptr()


def test_later_gradients_accumulate_in_place_into_the_kept_one():
    x = leaf([1.0, 2.0])
    (x * 2).sum().backward()
    first = x.grad
    (x * 3).sum().backward()
    assert x.grad is first and first.tolist() == [5.0, 5.0]


def test_node_hook_tables_and_metadata_belong_to_one_node():
    x = leaf([1.0, 2.0])
    y, z = x * 2, x * 3
    y.grad_fn.metadata["tag"] = 1
    y.grad_fn.register_prehook(lambda grads: None)
    y.register_hook(lambda g: g * 10)
    assert z.grad_fn.metadata == {}
    assert not z.grad_fn._pre_hooks and not z.grad_fn._tensor_pre_hooks
    (y.sum() + z.sum()).backward()
    assert x.grad.tolist() == [23.0, 23.0]


def test_copied_gradients_take_the_leafs_layout():
    w = torch.ones(3, 2).t().requires_grad_()              # strides (1, 2)
    (w * 2).sum().backward()
    assert w.grad.stride() == (1, 2) and w.grad.tolist() == [[2.0] * 3] * 2
    v = torch.ones(2, 3, requires_grad=True)               # a transposed gradient
    (v.t() * 1).sum().backward()
    assert v.grad.stride() == (3, 1)


def test_first_gradient_under_create_graph_is_a_recorded_copy():
    x = leaf([1.0, 2.0])
    (x * x).sum().backward(create_graph=True)
    assert type(x.grad.grad_fn).__name__ == "CopyBackwards"
    assert x.grad.tolist() == [2.0, 4.0] and x.grad._version == 1


def test_elementwise_fast_path_with_a_broadcast_operand_keeps_torchs_layout():
    dense, spread = torch.ones(3, 4), torch.tensor(2.0).expand(3, 4)
    assert (spread * dense).stride() == (4, 1) and (dense * spread).stride() == (4, 1)
    assert (spread * dense).tolist() == [[2.0] * 4] * 3
    transposed = torch.ones(4, 3).t()                     # its own layout wins
    assert (transposed * spread).stride() == (1, 3)
    dense.mul_(spread)                                    # in place into the dense one
    assert dense.tolist() == [[2.0] * 4] * 3 and dense._version == 1
    try:
        spread.mul_(dense)
    except RuntimeError as error:
        assert "more than one element of the written-to tensor" in str(error)
    else:
        raise AssertionError("writing into a broadcast tensor must fail")


def test_elementwise_fast_path_with_a_lone_broadcast_operand():
    spread = torch.tensor(2.0).expand(3, 1, 4)
    assert (spread / 4).stride() == (4, 4, 1) and (spread / 4).tolist() == [[[0.5] * 4]] * 3
    assert (-spread).stride() == (4, 4, 1) and spread.exp().stride() == (4, 4, 1)


def test_a_summed_broadcast_gradient_is_kept_as_a_plain_alias():
    x, b = torch.ones(4, 3), torch.zeros(3, requires_grad=True)
    (x + b).sum().backward()                              # sum_to: a view of a fresh sum
    assert b.grad.tolist() == [4.0] * 3 and b.grad._version == 0   # torch: 0, no copy_
    assert not b.grad._is_view() and b.grad._base is None


def test_linear_weight_gradient_arrives_in_the_weights_layout_and_is_kept():
    # weight.t() is column-major: mm_mat2_backward returns the transpose of a row-major
    # product (as torch), so the weight's gradient needs no copy into its layout
    w, x = torch.ones(3, 2, requires_grad=True), torch.ones(4, 2)
    seen = []
    w.register_hook(lambda g: seen.append(g.data_ptr()))
    torch.nn.functional.linear(x, w, torch.zeros(3)).sum().backward()
    assert w.grad.tolist() == [[4.0, 4.0]] * 3 and w.grad.stride() == (2, 1)
    assert w.grad.data_ptr() == seen[0]


def test_a_training_step_is_the_same_without_fast_paths():
    """Forward, backward and the optimizer step of a small MLP, once as usual and once on
    the general kernels only (Note [Fast paths]): the same gradients and parameters, bit
    for bit."""
    def step(fast_paths):
        torch.manual_seed(0)
        net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))
        optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
        x, y = torch.randn(5, 8), torch.randn(5, 3)
        with torch.dispatch_trace(fast_paths=fast_paths):
            for _ in range(2):
                optimizer.zero_grad()
                torch.nn.functional.mse_loss(net(x), y).backward()
                optimizer.step()
        return [p.detach().clone() for p in net.parameters()] + \
            [p.grad.clone() for p in net.parameters()]
    for fast, general in zip(step(True), step(False), strict=True):
        assert fast.numpy().tobytes() == general.numpy().tobytes()


def test_later_gradients_summed_without_the_dispatcher_are_the_add_operators():
    gen = torch.Generator().manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        x = torch.randn(50, generator=gen, dtype=dtype, requires_grad=True)
        w1, w2 = torch.randn(50, generator=gen, dtype=dtype), torch.randn(50, generator=gen,
                                                                          dtype=dtype)
        (x * w1).sum().backward()
        first, version = x.grad, x.grad._version
        (x * w2).sum().backward()
        assert x.grad is first and first._version == version + 1
        assert first.numpy().tobytes() == torch.add(w1, w2).numpy().tobytes()


def test_a_dispatch_mode_sees_the_gradient_summed_into_grad():
    from glasstorch.utils._python_dispatch import TorchDispatchMode

    class Seen(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.names = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.names.append(func)
            return func(*args, **(kwargs or {}))
    x = leaf([1.0, 2.0])
    (x * 2).sum().backward()
    loss = (x * 3).sum()
    with Seen() as seen:
        loss.backward()
    assert torch.ops.aten.add_.Tensor in seen.names and x.grad.tolist() == [5.0, 5.0]
