"""Resetting a parameter's gradient: shared by `nn.Module.zero_grad` and
`optim.Optimizer.zero_grad`, which torch gives the same semantics."""
from __future__ import annotations


def reset_grad(param, set_to_none: bool, zero: bool = True):
    """Drop `param.grad` (``set_to_none``) or zero it in place, detached from any graph
    (a gradient made with ``create_graph=True`` has a grad_fn of its own).

    With ``zero=False`` a kept gradient is only detached, and returned, for the caller
    to zero with others at once (``torch._foreach_zero_``); else None is returned.
    """
    grad = param.grad
    if grad is None:
        return None
    if set_to_none:
        param.grad = None
        return None
    if grad.grad_fn is not None:
        grad.detach_()
    else:
        grad.requires_grad_(False)
    if not zero:
        return grad
    grad.zero_()
    return None
