"""`torch.autograd.Variable`: the wrapper tensors were before torch 0.4. Tensors are
Variables now; the class remains so old code runs: ``Variable(t)`` is a detached alias
of `t`, and every tensor is an instance of it."""
from __future__ import annotations

import warnings

from ..c10.tensor_impl import TensorBase, tensor_class


class _VariableMeta(type):
    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, TensorBase)


class Variable(metaclass=_VariableMeta):
    """Make a tensor that shares `data`'s memory, detached from its history.

    Args:
        data: a tensor (none: an empty one).
        requires_grad: whether the result requires grad.
        volatile: ignored (torch removed it), with a warning.
    """

    def __new__(cls, data=None, requires_grad: bool = False, volatile: bool = False):
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with "
                          "torch.no_grad():` instead.", stacklevel=2)
        if data is None:
            return tensor_class()([]).requires_grad_(requires_grad)
        if not isinstance(data, TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        result = data.detach()
        result.requires_grad = requires_grad
        return result


def variable(*args, **kwargs):
    """Removed in torch: raises, pointing to `torch.tensor`."""
    raise RuntimeError("torch.autograd.variable(...) is deprecated, use torch.tensor(...) "
                       "instead")
