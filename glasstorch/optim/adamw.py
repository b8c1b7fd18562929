"""AdamW: Adam with decoupled weight decay, as torch 2.13's `torch.optim.AdamW`.

In torch 2.13 AdamW is a thin subclass of Adam that always passes
``decoupled_weight_decay=True`` (its groups show the flag) and defaults
`weight_decay` to 1e-2; the update itself is Adam's.
"""
from __future__ import annotations

from typing import Any, Iterable

from ..c10.tensor_impl import TensorBase
from .adam import Adam, adam

__all__ = ["AdamW", "adamw"]


class AdamW(Adam):
    """Adam whose weight decay shrinks the parameters directly (``p *= 1 - lr * wd``)
    instead of adding to the gradient, so it does not pass through the averages.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 1e-3).
        betas (tuple of two floats or Tensors, optional): the averages' decay rates
            (default: (0.9, 0.999)).
        eps (float, optional): added to the denominator (default: 1e-8).
        weight_decay (float, optional): weight decay coefficient (default: 1e-2).
        amsgrad (bool, optional): use the AMSGrad variant (default: False).
        maximize (bool, optional): maximize the objective instead (default: False).
        foreach, capturable, differentiable, fused: as for `Adam`.

    Example::

        >>> w = torch.ones(2, requires_grad=True)
        >>> opt = torch.optim.AdamW([w], lr=0.1)
        >>> w.sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.8990, 0.8990], requires_grad=True)
    """

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-3,
                 betas: tuple = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 1e-2,
                 amsgrad: bool = False, *, maximize: bool = False, foreach: bool | None = None,
                 capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True


def adamw(params: list, grads: list, exp_avgs: list, exp_avg_sqs: list, max_exp_avg_sqs: list,
          state_steps: list, foreach: bool | None = None, capturable: bool = False,
          differentiable: bool = False, fused: bool | None = None, grad_scale=None,
          found_inf=None, has_complex: bool = False, *, amsgrad: bool, beta1: float,
          beta2: float, lr: float, weight_decay: float, eps: float, maximize: bool) -> None:
    """The AdamW update in place: `adam` with decoupled weight decay."""
    adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, foreach=foreach,
         capturable=capturable, differentiable=differentiable, fused=fused,
         grad_scale=grad_scale, found_inf=found_inf, has_complex=has_complex,
         decoupled_weight_decay=True, amsgrad=amsgrad, beta1=beta1, beta2=beta2, lr=lr,
         weight_decay=weight_decay, eps=eps, maximize=maximize)
