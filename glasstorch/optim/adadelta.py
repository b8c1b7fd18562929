"""Adadelta, as torch's `torch.optim.Adadelta`: steps scaled by the ratio of two running
averages, of past squared updates and of squared gradients (no hand-tuned rate needed:
`lr` defaults to 1)."""
from __future__ import annotations

from typing import Any, Iterable

import glasstorch as torch
from ..c10.tensor_impl import TensorBase
from ._per_parameter import (CAPTURABLE_DEVICES, PerParameterOptimizer, check_lr,
                             scalar_state, update_parameters)

__all__ = ["Adadelta", "adadelta"]


class Adadelta(PerParameterOptimizer):
    """Adadelta: each step moves a parameter by ``lr * delta`` with
    ``delta = sqrt(u + eps) / sqrt(v + eps) * g``, where ``v`` averages the squared
    gradients and ``u`` the squared deltas, both with decay `rho`.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): factor applied to each delta (default: 1.0).
        rho (float, optional): decay rate of both running averages (default: 0.9).
        eps (float, optional): added inside both square roots (default: 1e-6).
        weight_decay (float, optional): L2 penalty added to the gradient (default: 0).
        foreach (bool, optional): accepted; one implementation runs.
        capturable (bool, optional): for CUDA graphs; refused on CPU at the first step.
        maximize (bool, optional): maximize the objective instead (default: False).
        differentiable (bool, optional): let autograd record the step (default: False).

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.Adadelta([w])
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.0032, 0.0032], requires_grad=True)
    """

    _capturable_devices = CAPTURABLE_DEVICES[:-1]

    def __init__(self, params: Iterable, lr: float | TensorBase = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, {"lr": lr, "rho": rho, "eps": eps,
                                  "weight_decay": weight_decay, "maximize": maximize,
                                  "capturable": capturable, "foreach": foreach,
                                  "differentiable": differentiable})

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        return {"step": scalar_state(), "square_avg": torch.zeros_like(param),
                "acc_delta": torch.zeros_like(param)}

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        rho, eps = group["rho"], group["eps"]
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if group["differentiable"]:     # sqrt_ saved its result for the backward
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)


def adadelta(params: list, grads: list, square_avgs: list, acc_deltas: list, state_steps: list,
             capturable: bool = False, foreach: bool | None = None,
             differentiable: bool = False, has_complex: bool = False, *, lr: float,
             rho: float, eps: float, weight_decay: float, maximize: bool) -> None:
    """The Adadelta update of `params` and their state, in place (functional form of
    `Adadelta.step`; `foreach` and `has_complex` change nothing here)."""
    states = [{"step": s, "square_avg": v, "acc_delta": u}
              for s, v, u in zip(state_steps, square_avgs, acc_deltas, strict=True)]
    group = {"rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
             "capturable": capturable, "differentiable": differentiable}
    update_parameters(Adadelta, group, params, grads, states, lr)
