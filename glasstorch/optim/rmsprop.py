"""RMSprop, as torch's `torch.optim.RMSprop`: steps divided by the root of a running
average of squared gradients (optionally centered by the gradients' average, and with
momentum)."""
from __future__ import annotations

from typing import Any, Iterable

import glasstorch as torch
from ..c10.tensor_impl import TensorBase
from ._per_parameter import (PerParameterOptimizer, check_lr, scalar_state,
                             update_parameters)

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(PerParameterOptimizer):
    """RMSprop: ``v = alpha * v + (1 - alpha) * g * g``; the denominator is
    ``sqrt(v) + eps``, or with `centered` ``sqrt(v - a * a) + eps`` where ``a`` averages
    the gradients; then ``p -= lr * g / denominator``, or with momentum
    ``b = momentum * b + g / denominator`` and ``p -= lr * b``.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 1e-2).
        alpha (float, optional): decay rate of the averages (default: 0.99).
        eps (float, optional): added to the denominator (default: 1e-8).
        weight_decay (float, optional): L2 penalty added to the gradient (default: 0).
        momentum (float, optional): momentum factor (default: 0).
        centered (bool, optional): normalize by the estimated variance (default: False).
        capturable (bool, optional): for CUDA graphs; refused on CPU at the first step.
        foreach (bool, optional): accepted; one implementation runs.
        maximize (bool, optional): maximize the objective instead (default: False).
        differentiable (bool, optional): let autograd record the step (default: False).

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.RMSprop([w], lr=0.01)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.1000, 0.1000], requires_grad=True)
    """

    _flags = {"momentum": 0, "centered": False, "foreach": None, "maximize": False,
              "differentiable": False, "capturable": False}

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        super().__init__(params, {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                                  "centered": centered, "weight_decay": weight_decay,
                                  "capturable": capturable, "foreach": foreach,
                                  "maximize": maximize, "differentiable": differentiable})

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        state = {"step": scalar_state(), "square_avg": torch.zeros_like(param)}
        if group["momentum"] > 0:
            state["momentum_buffer"] = torch.zeros_like(param)
        if group["centered"]:
            state["grad_avg"] = torch.zeros_like(param)
        return state

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        alpha, eps = group["alpha"], group["eps"]
        square_avg = state["square_avg"]
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"].lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add(eps) if group["differentiable"] else avg.add_(eps)
        if group["momentum"] > 0:
            buffer = state["momentum_buffer"]
            buffer.mul_(group["momentum"]).addcdiv_(grad, avg)
            param.add_(buffer, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)


def rmsprop(params: list, grads: list, square_avgs: list, grad_avgs: list,
            momentum_buffer_list: list, state_steps: list, foreach: bool | None = None,
            maximize: bool = False, differentiable: bool = False, capturable: bool = False,
            has_complex: bool = False, *, lr: float, alpha: float, eps: float,
            weight_decay: float, momentum: float, centered: bool) -> None:
    """The RMSprop update of `params` and their state, in place (functional form of
    `RMSprop.step`; `grad_avgs` and `momentum_buffer_list` are read only with `centered`
    and a momentum; `foreach` and `has_complex` change nothing here)."""
    states = []
    for i, (step, square_avg) in enumerate(zip(state_steps, square_avgs, strict=True)):
        state = {"step": step, "square_avg": square_avg}
        if centered:
            state["grad_avg"] = grad_avgs[i]
        if momentum > 0:
            state["momentum_buffer"] = momentum_buffer_list[i]
        states.append(state)
    group = {"alpha": alpha, "eps": eps, "weight_decay": weight_decay, "momentum": momentum,
             "centered": centered, "maximize": maximize, "differentiable": differentiable,
             "capturable": capturable}
    update_parameters(RMSprop, group, params, grads, states, lr)
