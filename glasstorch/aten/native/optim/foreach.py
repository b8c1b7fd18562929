"""The `_foreach_*` operators: one operator applied to each tensor of a list.

torch's foreach optimizers and `Optimizer.zero_grad` (with ``foreach=True`` or
``fused=True``) call them once for a list of tensors of one device and dtype, where the
for-loop form calls the single-tensor operator once per tensor: one dispatch for the
list.

torch's Python binding of an in-place foreach operator returns the list it was given
(the schema returns nothing, and ``torch.ops.aten`` gives None): `foreach_zero_function`
is ``torch._foreach_zero_`` over the generated binding.
"""
from __future__ import annotations

from ...binding import get_binding
from ...registry import op


def _foreach_zero_meta(self) -> None:
    if len(self) == 0:
        raise RuntimeError("Tensor list must have at least one tensor.")


@op("_foreach_zero_(Tensor(a!)[] self) -> ()", meta=_foreach_zero_meta)
def _foreach_zero_(self, *, out):
    """Fill each tensor of `self` with zeros, in place (`torch.zero_` on each).

    Example::

        >>> tensors = [torch.ones(2), torch.ones(3, dtype=torch.int64)]
        >>> torch._foreach_zero_(tensors)
        [tensor([0., 0.]), tensor([0, 0, 0])]
    """
    for array in self:
        array[...] = 0


def foreach_zero_function(*args, **kwargs) -> list:
    """``torch._foreach_zero_``: the binding, then the list (or tuple) it zeroed."""
    get_binding("function", "_foreach_zero_")(*args, **kwargs)
    return args[0] if args else kwargs["self"]
