"""Note [Subclass dispatch]: an instance of a tensor subclass carrying the Python key hands
every operator call it takes part in to its class's ``__torch_dispatch__``."""
import pytest

import glasstorch as gt
from glasstorch.c10.dispatch_key import PYTHON
from glasstorch.utils._python_dispatch import TorchDispatchMode


class Logged(gt.Tensor):
    """Holds a plain tensor; logs each operator and runs it on what it holds."""
    calls: list = []

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        cls.calls.append((func.name, types))
        if func.name.startswith("mm"):
            return NotImplemented
        unwrapped = [[v.inner for v in a] if isinstance(a, list) else
                     a.inner if isinstance(a, Logged) else a for a in args]
        return func(*unwrapped)


def logged(value):
    result = value.detach().as_subclass(Logged)
    result._keys |= PYTHON
    result.inner = value
    return result


def test_operators_reach_the_class_with_schema_ordered_arguments():
    Logged.calls.clear()
    x = logged(gt.tensor([1.0, 2.0]))
    assert (gt.add(x, 1, alpha=2)).tolist() == [3.0, 4.0]
    assert gt.cat([x, x]).tolist() == [1.0, 2.0, 1.0, 2.0]        # in a list too
    assert Logged.calls == [("add.Tensor", (Logged,)), ("cat", (Logged,))]


def test_not_implemented_everywhere_is_torchs_type_error():
    x = logged(gt.ones(2, 2))
    with pytest.raises(TypeError, match=r"Multiple dispatch failed for 'torch._ops.aten.mm"
                                        r".default'; all __torch_dispatch__ handlers returned "
                                        r"NotImplemented:\n\n  - tensor subclass <class"):
        gt.mm(x, x)


def test_an_active_mode_comes_first():
    seen = []

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(func.name)
            return gt.zeros(1)
    x = logged(gt.ones(1))
    with Mode():
        result = gt.neg(x)
    assert seen == ["neg"] and result.tolist() == [0.0]
