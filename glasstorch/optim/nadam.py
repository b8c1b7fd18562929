"""NAdam, as torch's `torch.optim.NAdam`: Adam with Nesterov momentum, whose momentum
coefficient warms up over the steps (`momentum_decay`)."""
from __future__ import annotations

from typing import Any, Iterable

import glasstorch as torch
from ..c10.tensor_impl import TensorBase
from ._per_parameter import (PerParameterOptimizer, check_betas, check_lr,
                             scalar_state, update_parameters)

__all__ = ["NAdam", "nadam"]


class NAdam(PerParameterOptimizer):
    """NAdam: at step ``t`` the momentum coefficient is
    ``mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))``; the step combines the
    gradient and the running average ``m``, each weighted by the product of the
    coefficients so far, over ``sqrt(v / (1 - beta2**t)) + eps``.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 2e-3).
        betas (tuple of two floats, optional): decay rates of the averages
            (default: (0.9, 0.999)).
        eps (float, optional): added to the denominator (default: 1e-8).
        weight_decay (float, optional): weight decay coefficient (default: 0).
        momentum_decay (float, optional): the momentum's warm-up rate (default: 4e-3).
        decoupled_weight_decay (bool, optional): decay the parameter itself
            (``p *= 1 - lr * weight_decay``), not the gradient (default: False).
        foreach (bool, optional): accepted; one implementation runs.
        maximize (bool, optional): maximize the objective instead (default: False).
        capturable (bool, optional): for CUDA graphs; refused on CPU at the first step.
        differentiable (bool, optional): let autograd record the step (default: False).

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.NAdam([w], lr=0.1)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.1056, 0.1056], requires_grad=True)
    """

    _flags = {"maximize": False, "foreach": None, "capturable": False,
              "differentiable": False, "decoupled_weight_decay": False}
    _capturable_tensors = "params, mu_products and state_steps"

    def __init__(self, params: Iterable, lr: float | TensorBase = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        check_betas(betas)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay,
                                  "momentum_decay": momentum_decay,
                                  "decoupled_weight_decay": decoupled_weight_decay,
                                  "maximize": maximize, "foreach": foreach,
                                  "capturable": capturable, "differentiable": differentiable})

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for param_state in self.state.values():
            product = param_state.get("mu_product")
            if product is not None and not isinstance(product, TensorBase):
                param_state["mu_product"] = scalar_state(product)

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        return {"step": scalar_state(), "mu_product": scalar_state(1.0),
                "exp_avg": torch.zeros_like(param), "exp_avg_sq": torch.zeros_like(param)}

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        beta1, beta2 = group["betas"]
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        mu_product = state["mu_product"]
        state["step"] += 1
        step = state["step"].item()
        if group["weight_decay"] != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * group["weight_decay"])
            else:
                grad = grad.add(param, alpha=group["weight_decay"])
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * group["momentum_decay"])))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * group["momentum_decay"])))
        mu_product *= mu
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(1 - beta2 ** step).sqrt()
        if group["differentiable"]:     # the coefficients stay tensors autograd records
            denom = denom.add(group["eps"])
            mu_product_next = mu_product * mu_next
            param.addcdiv_(grad * (-lr * (1.0 - mu) / (1.0 - mu_product)), denom)
            param.addcdiv_(exp_avg * (-lr * mu_next / (1.0 - mu_product_next)), denom)
            return
        product = mu_product.item()
        denom.add_(group["eps"])
        param.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - product))
        param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - product * mu_next))


def nadam(params: list, grads: list, exp_avgs: list, exp_avg_sqs: list, mu_products: list,
          state_steps: list, decoupled_weight_decay: bool = False, foreach: bool | None = None,
          capturable: bool = False, differentiable: bool = False, has_complex: bool = False,
          maximize: bool = False, *, beta1: float, beta2: float, lr: float,
          weight_decay: float, momentum_decay: float, eps: float) -> None:
    """The NAdam update of `params` and their state, in place (functional form of
    `NAdam.step`; `foreach` and `has_complex` change nothing here)."""
    states = [{"step": s, "mu_product": mu, "exp_avg": m, "exp_avg_sq": v}
              for s, mu, m, v in zip(state_steps, mu_products, exp_avgs, exp_avg_sqs,
                                     strict=True)]
    group = {"betas": (beta1, beta2), "eps": eps, "weight_decay": weight_decay,
             "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
             "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
    update_parameters(NAdam, group, params, grads, states, lr)
