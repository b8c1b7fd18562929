"""The dispatcher: key sets, the walk over keys, caches, tracing and dispatch modes."""
import pytest

import glasstorch as torch
from glasstorch.aten.dispatcher import FALLTHROUGH
from glasstorch.c10.dispatch_key import DispatchKey, keys_text
from glasstorch.utils._python_dispatch import TorchDispatchMode


def test_tensors_carry_their_device_keys():
    assert keys_text(torch.ones(2)._keys) == "ADInplaceOrView|CPU"
    assert keys_text(torch.ones(2, device="meta")._keys) == "ADInplaceOrView|Meta"
    x = torch.ones(2).requires_grad_()
    assert keys_text(x._keys) == "Autograd|ADInplaceOrView|CPU"
    x.requires_grad_(False)
    assert keys_text(x._keys) == "ADInplaceOrView|CPU"


def test_overload_repr_shows_schema_and_kernels():
    text = repr(torch.ops.aten.transpose.int)
    assert text.startswith("aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)")
    assert "ADInplaceOrView" in text and "CPU" in text and "Meta" in text
    assert torch.ops.aten.clone.default is torch.ops.aten.clone.__getattr__("default")
    assert "out" in torch.ops.aten.clone.overloads()
    with pytest.raises(AttributeError):
        torch.ops.aten.clone.nonexistent


def test_trace_records_keys_and_nested_calls():
    x = torch.ones(2, 3)
    with torch.dispatch_trace(fast_paths=False) as route:
        x.t().contiguous()
    text = str(route)
    lines = text.splitlines()
    assert lines[0] == "aten::t  [ADInplaceOrView|CPU]"
    assert "_view_bookkeeping" in lines[1]
    assert any(line.startswith("  aten::clone") for line in lines)   # nested under contiguous
    with torch.dispatch_trace() as empty:
        pass
    assert empty.steps == []
    x.t()                      # after the block, nothing is recorded
    assert route.steps and len(str(route).splitlines()) == len(lines)


def test_trace_meta_goes_to_meta_kernel():
    with torch.dispatch_trace() as route:
        torch.empty(2, 3, device="meta").clone()
    assert "Meta" in str(route) and "CPU  " not in str(route)


def test_trace_names_the_fast_path_that_ran():
    x = torch.ones(2, 3)
    with torch.dispatch_trace() as route:
        x.t()
    assert str(route).splitlines()[1].startswith(
        "  ADInplaceOrView|CPU -> t (fast path: the view and its bookkeeping in one step)")
    assert "fast path" in repr(torch.ops.aten.t.default)


def test_view_fast_path_and_slow_path_agree():
    x = torch.ones(3, 4)
    fast = x.t()
    with torch.dispatch_trace(fast_paths=False):
        slow = x.t()
    for a, b in [(fast, slow)]:
        assert (a.shape, a.stride(), a.storage_offset()) == (b.shape, b.stride(), b.storage_offset())
        assert a._base is b._base is x and a._vc is b._vc is x._vc


class Recorder(TorchDispatchMode):
    def __init__(self):
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(func.name)
        return func(*args, **(kwargs or {}))


def test_dispatch_mode_sees_decomposed_ops_once():
    x = torch.ones(2, 3)
    with Recorder() as mode:
        y = x.t().contiguous()
    assert mode.seen == ["t", "clone"]          # contiguous is a composite: never seen itself
    assert y.is_contiguous() and y.shape == (3, 2)
    x.t()
    assert mode.seen == ["t", "clone"]          # inactive after the block


def test_nested_modes_innermost_first():
    order = []

    class Named(TorchDispatchMode):
        def __init__(self, name):
            self.name = name

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            order.append(self.name)
            return func(*args)

    with Named("outer"), Named("inner"):
        torch.ones(2)
    assert order == ["inner", "outer"]


def test_missing_backend_kernel_is_a_clear_error():
    op = torch.ops.aten.transpose.int
    assert op.kernels[DispatchKey.CPU] is not FALLTHROUGH
    # a device type with no backend here: the dispatcher names the operator and backend
    with pytest.raises(NotImplementedError, match="Could not run 'aten::zeros' with arguments "
                                                  "from the 'MPS' backend"):
        torch.zeros(2, device="mps")


def test_fresh_results_start_at_version_zero():
    # Regression: _to_copy's internal copy_ bumped its own fresh result to version 1.
    x = torch.ones(3)
    assert x.to(torch.float64)._version == 0 and torch.tensor([1, 2])._version == 0
    v = x.view(-1)                      # sharing makes the counter; it is the same object
    v.add_(1)
    assert x._version == v._version == 1 and v._vc is x._vc


def test_explicit_composite_runs_below_bookkeeping():
    with torch.dispatch_trace() as route:
        torch.ones(2).to(torch.float64)
    text = str(route)
    assert "explicit composite" in text
    assert "bump_written" not in text    # copy_ inside _to_copy: no version bump


def test_a_mode_calling_func_records_nothing_again():
    """Inside ``__torch_dispatch__`` autograd is excluded, as in torch: the call was
    recorded once, above the Python key."""
    inner = []

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            inner.append(out.grad_fn)
            return out
    a = torch.ones(2, requires_grad=True)
    with Mode():
        b = a.exp()
    assert inner == [None]
    assert type(b.grad_fn).__name__ == "ExpBackward0"
