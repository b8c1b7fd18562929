"""torch.overrides: the protocol helpers and TorchFunctionMode, against torch."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


class Wrapper:
    """A tensor-like: defines `__torch_function__`."""

    def __init__(self, value):
        self.value = value

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return ("wrapped", func.__name__)


def protocol_function(t):
    def scaled(x, factor=2):
        if t.overrides.has_torch_function_unary(x):
            return t.overrides.handle_torch_function(scaled, (x,), x, factor=factor)
        return x * factor
    return scaled


@pytest.mark.parametrize("lib", ["torch", "glasstorch"])
def test_protocol_and_modes(lib):
    t = torch if lib == "torch" else gt
    scaled = protocol_function(t)
    assert scaled(3) == 6
    assert scaled(Wrapper(1)) == ("wrapped", "scaled")
    assert t.overrides.is_tensor_like(Wrapper(1)) and not t.overrides.is_tensor_like(3)
    assert t.overrides.is_tensor_like(t.ones(1))
    seen = []

    class Log(t.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))      # inside: the next mode, or plain
    with Log():
        assert t.overrides.has_torch_function((3,))
        assert scaled(4) == 8
    assert seen == ["scaled"] and not t.overrides.has_torch_function((3,))


def test_wrap_torch_function():
    for t in (torch, gt):
        @t.overrides.wrap_torch_function(lambda x: (x,))
        def identity(x):
            return x
        assert identity(5) == 5 and identity(Wrapper(1)) == ("wrapped", "identity")


def test_resolve_name_and_lists():
    assert gt.overrides.resolve_name(gt.add) == torch.overrides.resolve_name(torch.add)
    assert gt.overrides.resolve_name(gt.Tensor.add) == "torch.Tensor.add"
    assert gt.overrides.resolve_name(gt.nn.functional.relu) == \
        torch.overrides.resolve_name(torch.nn.functional.relu)
    assert gt.overrides.resolve_name(lambda x: x) is None
    assert gt.zeros in gt.overrides.get_ignored_functions()
    overridable = gt.overrides.get_overridable_functions()
    assert gt.add in overridable[gt] and gt.zeros not in overridable[gt]
    assert gt.Tensor.add in overridable[gt.Tensor]
    assert gt.overrides.get_testing_overrides()[gt.add](1, 2) == -1
    assert gt.overrides.is_tensor_method_or_property(gt.Tensor.add)
    assert not gt.overrides.is_tensor_method_or_property(gt.add)
    assert set(gt.overrides.__all__) <= set(torch.overrides.__all__)


def test_default_nowrap_functions():
    theirs = torch.overrides.get_default_nowrap_functions()
    ours = gt.overrides.get_default_nowrap_functions()
    assert len(theirs) == 3 and len(ours) == 2          # glasstorch's Tensor has no _grad
    import inspect
    assert inspect.getattr_static(gt.Tensor, "grad").__get__ in ours
    assert inspect.getattr_static(gt.Tensor, "_base").__get__ in ours
