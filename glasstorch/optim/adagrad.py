"""Adagrad, as torch's `torch.optim.Adagrad`: each coordinate's step divided by the root
of the sum of its squared gradients so far."""
from __future__ import annotations

from typing import Any, Iterable

import glasstorch as torch
from ..c10.dtype import float32
from ..c10.tensor_impl import TensorBase
from .optimizer import check_fused_flags
from ._per_parameter import (PerParameterOptimizer, check_fused_param, check_lr,
                             scalar_state, update_parameters)

__all__ = ["Adagrad", "adagrad"]


class Adagrad(PerParameterOptimizer):
    """Adagrad: ``s += g * g`` and ``p -= clr * g / (sqrt(s) + eps)``, with the rate
    ``clr = lr / (1 + (t - 1) * lr_decay)`` at step ``t``.

    Its state is made when the optimizer is built (the sums start at
    `initial_accumulator_value`), so `share_memory` can share it before training.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 1e-2).
        lr_decay (float, optional): learning-rate decay per step (default: 0).
        weight_decay (float, optional): L2 penalty added to the gradient (default: 0).
        initial_accumulator_value (float, optional): start of the sums (default: 0).
        eps (float, optional): added to the denominator (default: 1e-10).
        foreach (bool, optional): accepted; one implementation runs.
        maximize (bool, optional): maximize the objective instead (default: False).
        differentiable (bool, optional): let autograd record the step (default: False).
        fused (bool, optional): accepted (floating-point parameters only), as `foreach`.

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.Adagrad([w], lr=0.1)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.1000, 0.1000], requires_grad=True)
    """

    _flags = {"foreach": None, "maximize": False, "differentiable": False, "fused": None}

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        check_lr(lr)
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError("Invalid initial_accumulator_value value: "
                             f"{initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        super().__init__(params, {"lr": lr, "lr_decay": lr_decay, "eps": eps,
                                  "weight_decay": weight_decay,
                                  "initial_accumulator_value": initial_accumulator_value,
                                  "foreach": foreach, "maximize": maximize,
                                  "differentiable": differentiable, "fused": fused})
        check_fused_flags(fused, foreach, differentiable)
        for group in self.param_groups:
            for param in group["params"]:
                self.state[param].update(self._new_state(group, param))

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        start = group["initial_accumulator_value"]
        if param.is_complex():
            start = complex(start, start)
        step = torch.tensor(0.0, dtype=float32) if group["fused"] else scalar_state()
        return {"step": step, "sum": torch.full_like(param, start)}

    def _check_param(self, group: dict, param: TensorBase) -> None:
        if group["fused"]:
            check_fused_param(param)

    def share_memory(self) -> None:
        """Move every parameter's sum into shared memory (for multiprocess training)."""
        for group in self.param_groups:
            for param in group["params"]:
                self.state[param]["sum"].share_memory_()

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        state["step"] += 1
        step = state["step"].item()
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        clr = lr / (1 + (step - 1) * group["lr_decay"])
        state["sum"].addcmul_(grad, grad, value=1)
        if group["differentiable"]:
            std = state["sum"].sqrt() + group["eps"]
        else:
            std = state["sum"].sqrt().add_(group["eps"])
        param.addcdiv_(grad, std, value=-clr)


def adagrad(params: list, grads: list, state_sums: list, state_steps: list,
            fused: bool | None = None, grad_scale=None, found_inf=None,
            has_sparse_grad: bool = False, foreach: bool | None = None,
            differentiable: bool = False, has_complex: bool = False, *, lr: float,
            weight_decay: float, lr_decay: float, eps: float, maximize: bool) -> None:
    """The Adagrad update of `params` and their state, in place (functional form of
    `Adagrad.step`; `fused`, `foreach` and `has_complex` change nothing here, and
    gradient scaling belongs to fused kernels glasstorch does not have)."""
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")
    states = [{"step": s, "sum": total} for s, total in zip(state_steps, state_sums, strict=True)]
    group = {"weight_decay": weight_decay, "lr_decay": lr_decay, "eps": eps,
             "maximize": maximize, "differentiable": differentiable}
    update_parameters(Adagrad, group, params, grads, states, lr)
