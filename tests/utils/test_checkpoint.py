"""torch.utils.checkpoint: gradients, recomputation, random state and refusals, against
torch where torch is importable (Note [Checkpointing two ways])."""
import functools
import warnings

import pytest

import glasstorch as gt
from glasstorch.utils import checkpoint as gc


def _grads(lib, mode, preserve=True):
    """Gradients of an MLP with dropout whose middle is checkpointed (`mode`: None for a
    plain backward, else use_reentrant), and the generator state after backward."""
    lib.manual_seed(0)
    first, second = lib.nn.Linear(5, 8), lib.nn.Linear(8, 2)
    drop = lib.nn.Dropout(0.5)
    x = lib.randn(4, 5, requires_grad=True)

    def block(h):
        return drop(first(h).relu())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        middle = block(x) if mode is None else lib.utils.checkpoint.checkpoint(
            block, x, use_reentrant=mode, preserve_rng_state=preserve)
    second(middle).pow(2).sum().backward()
    grads = [t.grad.detach().numpy().copy() for t in (x, first.weight, first.bias)]
    return grads, lib.get_rng_state().numpy().copy()


@pytest.mark.parametrize("reentrant", [True, False])
def test_checkpoint_gradients_equal_plain_backward_and_torch(reentrant):
    torch = pytest.importorskip("torch")
    ours, our_state = _grads(gt, reentrant)
    plain, plain_state = _grads(gt, None)
    theirs, their_state = _grads(torch, reentrant)
    for a, b, c in zip(ours, plain, theirs):
        assert (a == b).all()
        assert abs(a - c).max() < 1e-6
    assert (our_state == their_state).all() and (our_state == plain_state).all()


@pytest.mark.parametrize("reentrant", [True, False])
def test_without_preserved_rng_state_recomputation_draws_anew_as_torch(reentrant):
    torch = pytest.importorskip("torch")
    ours, our_state = _grads(gt, reentrant, preserve=False)
    theirs, their_state = _grads(torch, reentrant, preserve=False)
    plain, _ = _grads(gt, None)
    assert any((a != b).any() for a, b in zip(ours, plain))      # another dropout mask
    for a, c in zip(ours, theirs):
        assert abs(a - c).max() < 1e-6
    assert (our_state == their_state).all()


@pytest.mark.parametrize("reentrant", [True, False])
def test_the_block_runs_again_in_backward(reentrant):
    calls = []

    def block(t):
        calls.append(gt.is_grad_enabled())
        return (t.exp() * t).sum()
    x = gt.ones(3, requires_grad=True)
    y = gc.checkpoint(block, x, use_reentrant=reentrant)
    assert len(calls) == 1
    y.backward()
    assert calls == [not reentrant, True]
    assert gt.allclose(x.grad, 2 * gt.ones(3).exp())


def test_missing_use_reentrant_warns_as_torch():
    x = gt.ones(2, requires_grad=True)
    with pytest.warns(UserWarning, match=r"^torch.utils.checkpoint: the use_reentrant "
                      r"parameter should be passed explicitly. Starting in PyTorch 2.9"):
        y = gc.checkpoint(lambda t: t * 2, x)
    assert type(y.grad_fn).__name__ == "CheckpointFunctionBackward"
    with pytest.warns(UserWarning, match=r"checkpoint_sequential: the use_reentrant "
                      r"parameter should be passed explicitly. In version 2.9"):
        gc.checkpoint_sequential([gt.nn.ReLU()], 1, x)


def test_refusals_as_torch():
    x = gt.ones(2, requires_grad=True)
    with pytest.raises(ValueError, match="^Unexpected keyword arguments: k$"):
        gc.checkpoint(lambda t, k=1: t, x, use_reentrant=True, k=2)
    with pytest.raises(ValueError, match="Passing `context_fn` or `debug` is only supported"):
        gc.checkpoint(lambda t: t, x, use_reentrant=True, debug=True)
    with pytest.raises(ValueError, match=r"should be one of \['default', 'none'\], but got x"):
        gc.checkpoint(lambda t: t * 2, x, use_reentrant=False, determinism_check="x")
    with pytest.raises(RuntimeError, match="Only tuple of tensors is supported. Got "
                       "Unsupported input type: list"):
        gc.detach_variable([x])
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        gc.checkpoint(lambda t: t * 2, gt.ones(2), use_reentrant=True)
    y = gc.checkpoint(lambda t: t * 2, x, use_reentrant=True).sum()
    with pytest.raises(RuntimeError, match="When use_reentrant=True, torch.utils.checkpoint "
                       "is incompatible with .grad()"):
        gt.autograd.grad(y, x)


def test_non_reentrant_serves_autograd_grad_and_keyword_arguments():
    x = gt.ones(2, requires_grad=True)
    y = gc.checkpoint(lambda t, scale: (t * t * scale).sum(), x, use_reentrant=False, scale=3)
    (grad,) = gt.autograd.grad(y, x)
    assert grad.tolist() == [6.0, 6.0]


def _changing_block():
    """A block whose second run (the recomputation) squares half its input."""
    runs = []

    def block(t):
        runs.append(1)
        u = t[:1] if len(runs) > 1 else t
        return (u * u).sum()
    return block


def test_determinism_check_message_matches_torch():
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (gt, torch):
        x = lib.ones(2, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(_changing_block(), x, use_reentrant=False)
        with pytest.raises(lib.utils.checkpoint.CheckpointError) as error:
            y.backward()
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    x = gt.ones(2, requires_grad=True)
    gc.checkpoint(_changing_block(), x, use_reentrant=False,
                  determinism_check="none").backward()
    assert x.grad.tolist() == [2.0, 2.0]                 # torch's answer too


def test_early_stop_ends_the_recomputation_at_the_last_saved_tensor():
    for early, expected in ((True, ["forward", "forward"]), (False, ["forward"] * 3)):
        log = []

        def block(t):
            y = (t * t).sum()
            log.append("forward")
            return y
        x = gt.ones(2, requires_grad=True)
        with gc.set_checkpoint_early_stop(early):
            y = gc.checkpoint(block, x, use_reentrant=False)
        y.backward()
        assert log[:1] + log[1:] == expected[:len(log)] and len(log) == (1 if early else 2)


def test_context_fn_contexts_wrap_forward_and_recomputation():
    entered = []

    class Note:
        def __init__(self, name):
            self.name = name

        def __enter__(self):
            entered.append(self.name)

        def __exit__(self, *exc):
            pass
    x = gt.ones(2, requires_grad=True)
    y = gc.checkpoint(lambda t: (t * t).sum(), x, use_reentrant=False,
                      context_fn=lambda: (Note("forward"), Note("recompute")))
    y.backward()
    assert entered == ["forward", "recompute"]


def test_selective_checkpoint_keeps_the_chosen_results():
    a = gt.randn(3, 3, requires_grad=True)
    mm = gt.ops.aten.mm.default
    asked = []

    def policy(ctx, op, *args, **kwargs):
        asked.append((op.name, ctx.is_recompute))
        return gc.CheckpointPolicy.MUST_SAVE if op is mm else gc.CheckpointPolicy.PREFER_RECOMPUTE

    def block(t):
        return (t.mm(t).exp() * t).sum()
    forward_mode, recompute_mode = gc.create_selective_checkpoint_contexts(policy)
    y = gc.checkpoint(block, a, use_reentrant=False,
                      context_fn=lambda: (forward_mode, recompute_mode))
    assert [len(kept) for kept in forward_mode.storage.values()] == [1]     # mm's result
    y.backward()
    assert [len(kept) for kept in forward_mode.storage.values()] == [0]     # handed back
    assert asked[:2] == [("mm", False), ("exp", False)]
    assert ("mm", True) in asked and ("exp", True) in asked
    plain = gt.autograd.grad(block(a), a)[0]
    assert gt.allclose(a.grad, plain)


def test_selective_checkpoint_with_a_list_of_operators():
    a = gt.randn(3, 3, requires_grad=True)
    context_fn = functools.partial(gc.create_selective_checkpoint_contexts,
                                   [gt.ops.aten.mm.default])
    gc.checkpoint(lambda t: t.mm(t).tanh().sum(), a, use_reentrant=False,
                  context_fn=context_fn).backward()
    assert gt.allclose(a.grad, gt.autograd.grad(a.mm(a).tanh().sum(), a)[0])


@pytest.mark.parametrize("reentrant", [True, False])
def test_checkpoint_sequential_gradients_equal_plain(reentrant):
    gt.manual_seed(1)
    model = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.Tanh(), gt.nn.Linear(4, 4),
                             gt.nn.ReLU(), gt.nn.Linear(4, 1))
    x = gt.randn(2, 3, requires_grad=True)
    gc.checkpoint_sequential(model, 2, x, use_reentrant=reentrant).sum().backward()
    checkpointed = x.grad.clone()
    x.grad = None
    model(x).sum().backward()
    assert gt.equal(checkpointed, x.grad)


def test_public_names_match_torch():
    torch = pytest.importorskip("torch")
    for name in torch.utils.checkpoint.__all__:
        assert hasattr(gc, name), name
    assert [(p.name, p.value) for p in gc.CheckpointPolicy] == [
        (p.name, p.value) for p in torch.utils.checkpoint.CheckpointPolicy]
    assert gc.get_device_states(gt.ones(1)) == ([], [])
    assert gt.utils.checkpoint is gc


def test_recomputed_tensors_are_freed_with_their_nodes_and_retain_graph_reuses_them():
    x = gt.ones(3, requires_grad=True)
    runs = []

    def block(t):
        runs.append(1)
        return (t.exp() * t).sum()
    y = gc.checkpoint(block, x, use_reentrant=False)
    mul = y.grad_fn.next_functions[0][0]
    frame = mul._saved["self"].unpack_hook.__self__     # the checkpoint's frame
    y.backward(retain_graph=True)
    assert len(frame.recomputed) == len(frame.saved_metadata) > 0
    y.backward()                                         # the same recomputed tensors
    assert len(runs) == 2 and gt.allclose(x.grad, 4 * gt.ones(3).exp())
    assert frame.recomputed == {}                        # released with the nodes


def test_debug_names_the_operators_of_both_runs():
    x = gt.ones(2, requires_grad=True)
    y = gc.checkpoint(_changing_block(), x, use_reentrant=False, debug=True)
    with pytest.raises(gc.CheckpointError) as error:
        y.backward()
    message = str(error.value)
    assert message.startswith("An error happened while unpacking tensors; dumping logs")
    assert "Operators that ran in the original forward:\n  aten::mul.Tensor\n  aten::sum" in message
    assert "recomputation:\n  aten::slice.Tensor\n  aten::mul.Tensor" in message
    assert message.endswith("different metadata than during the forward pass.\n"
                            "tensor at position 0:\nsaved metadata: {'shape': torch.Size([2]), "
                            "'dtype': torch.float32, 'device': device(type='cpu')}\n"
                            "recomputed metadata: {'shape': torch.Size([1]), 'dtype': "
                            "torch.float32, 'device': device(type='cpu')}\ntensor at position "
                            "1:\nsaved metadata: {'shape': torch.Size([2]), 'dtype': "
                            "torch.float32, 'device': device(type='cpu')}\nrecomputed "
                            "metadata: {'shape': torch.Size([1]), 'dtype': torch.float32, "
                            "'device': device(type='cpu')}\n.")
    with gc.set_checkpoint_debug_enabled(True):
        y = gc.checkpoint(_changing_block(), x, use_reentrant=False)
    with pytest.raises(gc.CheckpointError, match="^An error happened while unpacking"):
        y.backward()
