"""RAdam, as torch's `torch.optim.RAdam`: Adam whose adaptive term is switched on, and
scaled by a rectification factor, only once the second-moment estimate's variance is
tractable (before that, the step is momentum SGD)."""
from __future__ import annotations

from typing import Any, Iterable

import glasstorch as torch
from ..c10.tensor_impl import TensorBase
from ._per_parameter import (PerParameterOptimizer, check_betas, check_lr,
                             scalar_state, update_parameters)

__all__ = ["RAdam", "radam"]


class RAdam(PerParameterOptimizer):
    """RAdam: with ``rho_inf = 2 / (1 - beta2) - 1`` and, at step ``t``,
    ``rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t)``, the step is
    ``lr * m_hat * r_t * sqrt(1 - beta2**t) / (sqrt(v) + eps)`` when ``rho_t > 5``
    (``r_t`` the rectification) and ``lr * m_hat`` otherwise, where ``m_hat`` is the
    bias-corrected average of the gradients.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 1e-3).
        betas (tuple of two floats, optional): decay rates of the averages
            (default: (0.9, 0.999)).
        eps (float, optional): added to the denominator (default: 1e-8).
        weight_decay (float, optional): weight decay coefficient (default: 0).
        decoupled_weight_decay (bool, optional): decay the parameter itself
            (``p *= 1 - lr * weight_decay``), not the gradient (default: False).
        foreach (bool, optional): accepted; one implementation runs.
        maximize (bool, optional): maximize the objective instead (default: False).
        capturable (bool, optional): for CUDA graphs; refused on CPU at the first step.
        differentiable (bool, optional): let autograd record the step (default: False).

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.RAdam([w], lr=0.1)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.2000, 0.2000], requires_grad=True)
    """

    _flags = {"foreach": None, "maximize": False, "differentiable": False,
              "decoupled_weight_decay": False, "capturable": False}

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        check_betas(betas)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay, "maximize": maximize,
                                  "foreach": foreach, "capturable": capturable,
                                  "decoupled_weight_decay": decoupled_weight_decay,
                                  "differentiable": differentiable})

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        return {"step": scalar_state(), "exp_avg": torch.zeros_like(param),
                "exp_avg_sq": torch.zeros_like(param)}

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        beta1, beta2 = group["betas"]
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        state["step"] += 1
        step = state["step"].item()
        if group["weight_decay"] != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * group["weight_decay"])
            else:
                grad = grad.add(param, alpha=group["weight_decay"])
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction2 = 1 - beta2 ** step
        corrected_avg = exp_avg / (1 - beta1 ** step)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t <= 5.0:
            param.add_(corrected_avg * lr, alpha=-1.0)
            return
        root = exp_avg_sq.sqrt()
        root = root.add(group["eps"]) if group["differentiable"] else root.add_(group["eps"])
        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
        param.add_(corrected_avg * lr * (bias_correction2 ** 0.5 / root) * rect, alpha=-1.0)


def radam(params: list, grads: list, exp_avgs: list, exp_avg_sqs: list, state_steps: list,
          decoupled_weight_decay: bool = False, foreach: bool | None = None,
          differentiable: bool = False, capturable: bool = False, has_complex: bool = False,
          maximize: bool = False, *, beta1: float, beta2: float, lr: float,
          weight_decay: float, eps: float) -> None:
    """The RAdam update of `params` and their state, in place (functional form of
    `RAdam.step`; `foreach` and `has_complex` change nothing here)."""
    states = [{"step": s, "exp_avg": m, "exp_avg_sq": v}
              for s, m, v in zip(state_steps, exp_avgs, exp_avg_sqs, strict=True)]
    group = {"betas": (beta1, beta2), "eps": eps, "weight_decay": weight_decay,
             "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize,
             "differentiable": differentiable, "capturable": capturable}
    update_parameters(RAdam, group, params, grads, states, lr)
