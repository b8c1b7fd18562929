"""The `_foreach_*` operators: one operator applied to each tensor of a list.

torch's foreach optimizers and `Optimizer.zero_grad` (with ``foreach=True`` or
``fused=True``) call them once for a list of tensors of one device and dtype, where the
for-loop form calls the single-tensor operator once per tensor: one dispatch for the
list.
"""
from __future__ import annotations

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
        >>> tensors
        [tensor([0., 0.]), tensor([0, 0, 0])]
    """
    for array in self:
        array[...] = 0
