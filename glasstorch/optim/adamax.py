"""Adamax, as torch's `torch.optim.Adamax`: Adam with the infinity norm, a decaying
running maximum of the gradient's magnitude, in place of the squared average."""
from __future__ import annotations

from typing import Any, Iterable

import glasstorch as torch
from ..c10.tensor_impl import TensorBase
from ._per_parameter import (PerParameterOptimizer, check_betas, check_lr,
                             scalar_state, update_parameters)

__all__ = ["Adamax", "adamax"]


class Adamax(PerParameterOptimizer):
    """Adamax: ``m = lerp(m, g, 1 - beta1)``, ``u = max(beta2 * u, |g| + eps)`` and
    ``p -= lr / (1 - beta1**t) * m / u`` at step ``t``.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 2e-3).
        betas (tuple of two floats, optional): decay rates of the average and of the
            maximum (default: (0.9, 0.999)).
        eps (float, optional): added to the gradient's magnitude (default: 1e-8).
        weight_decay (float, optional): L2 penalty added to the gradient (default: 0).
        foreach (bool, optional): accepted; one implementation runs.
        maximize (bool, optional): maximize the objective instead (default: False).
        differentiable (bool, optional): let autograd record the step (default: False).
        capturable (bool, optional): for CUDA graphs; refused on CPU at the first step.

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.Adamax([w], lr=0.1)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.1000, 0.1000], requires_grad=True)
    """

    def __init__(self, params: Iterable, lr: float | TensorBase = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        check_betas(betas)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay, "foreach": foreach,
                                  "maximize": maximize, "differentiable": differentiable,
                                  "capturable": capturable})

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        return {"step": scalar_state(), "exp_avg": torch.zeros_like(param),
                "exp_inf": torch.zeros_like(param)}

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        beta1, beta2 = group["betas"]
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        exp_avg.lerp_(grad, 1 - beta1)
        if group["differentiable"]:
            # out= is not recorded by autograd; maximum saves its inputs, so the decayed
            # maximum it compares is a copy the write into exp_inf leaves unchanged
            decayed = exp_inf.mul_(beta2).clone()
            exp_inf.copy_(torch.maximum(decayed, grad.abs().add_(group["eps"])))
        else:
            torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(group["eps"]), out=exp_inf)
        clr = lr / (1 - beta1 ** state["step"].item())
        param.addcdiv_(exp_avg, exp_inf, value=-clr)


def adamax(params: list, grads: list, exp_avgs: list, exp_infs: list, state_steps: list,
           foreach: bool | None = None, maximize: bool = False, differentiable: bool = False,
           capturable: bool = False, has_complex: bool = False, *, eps: float, beta1: float,
           beta2: float, lr: float, weight_decay: float) -> None:
    """The Adamax update of `params` and their state, in place (functional form of
    `Adamax.step`; `foreach` and `has_complex` change nothing here)."""
    states = [{"step": s, "exp_avg": m, "exp_inf": u}
              for s, m, u in zip(state_steps, exp_avgs, exp_infs, strict=True)]
    group = {"betas": (beta1, beta2), "eps": eps, "weight_decay": weight_decay,
             "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
    update_parameters(Adamax, group, params, grads, states, lr)
