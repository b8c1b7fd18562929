"""Stochastic gradient descent, with momentum, dampening, Nesterov momentum and weight
decay, as torch's `torch.optim.SGD`.

Two forms of the same update: `_single_tensor_sgd` chains glasstorch operators (any
dtype, and differentiable, since autograd records it); for float32 tensors (the common
case, several times faster) the operator ``aten::_multi_tensor_sgd_`` does it for the
whole group in one pass (`aten/native/optim/steps.py`). Both round as torch's CPU for-loop
implementation does (torch's default on CPU).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import glasstorch as torch
from ..autograd.grad_mode import enable_grad
from ..c10.tensor_impl import TensorBase
from .optimizer import (Optimizer, check_fused_flags, float32_step, step_operator, to_scalar,
                        _use_grad_for_differentiable)
from ._per_parameter import check_fused_param

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    """Stochastic gradient descent (optionally with momentum).

    Each step, for each parameter with a gradient ``g`` (negated when `maximize`):
    ``g += weight_decay * p``; with momentum, the buffer ``b = g`` on the first step,
    then ``b = momentum * b + (1 - dampening) * g``, and ``g = g + momentum * b``
    (Nesterov) or ``g = b``; finally ``p -= lr * g``.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 1e-3).
        momentum (float, optional): momentum factor (default: 0).
        dampening (float, optional): dampening of the gradient in the momentum
            (default: 0).
        weight_decay (float, optional): L2 penalty (default: 0).
        nesterov (bool, optional): Nesterov momentum; needs a momentum and zero
            dampening (default: False).
        maximize (bool, optional): maximize the objective instead (default: False).
        foreach (bool, optional): accepted for compatibility; one implementation runs.
        differentiable (bool, optional): let autograd record the step (default: False).
        fused (bool, optional): accepted for compatibility, as `foreach`.

    Example::

        >>> w = torch.zeros(3, requires_grad=True)
        >>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.2000, 0.2000, 0.2000], requires_grad=True)
    """

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float | TensorBase = 0,
                 nesterov: bool = False, *, maximize: bool = False, foreach: bool | None = None,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if isinstance(lr, TensorBase) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        check_fused_flags(fused, foreach, differentiable)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], float] | None = None) -> float | None:
        """Perform one optimization step.

        Args:
            closure (Callable, optional): re-evaluates the model and returns the loss.
        """
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            if group["fused"]:
                for param in params:
                    check_fused_param(param)
            with_momentum = group["momentum"] != 0
            states = [self.state[p] for p in params] if with_momentum else []
            buffers = [state.get("momentum_buffer") for state in states]
            sgd(params, [p.grad for p in params], buffers,
                weight_decay=group["weight_decay"], momentum=group["momentum"],
                lr=group["lr"], dampening=group["dampening"], nesterov=group["nesterov"],
                maximize=group["maximize"], differentiable=group["differentiable"])
            for state, buffer in zip(states, buffers):
                state["momentum_buffer"] = buffer
        return loss


def sgd(params: list, d_p_list: list, momentum_buffer_list: list, has_sparse_grad: bool = False,
        foreach: bool | None = None, fused: bool | None = None, grad_scale=None,
        found_inf=None, *, weight_decay: float, momentum: float, lr: float, dampening: float,
        nesterov: bool, maximize: bool, differentiable: bool = False) -> None:
    """The SGD update of `params` in place (functional form of `SGD.step`).

    `momentum_buffer_list` holds each parameter's buffer or None; new buffers are
    written into it. The arguments are torch's (`foreach`, `fused` change nothing
    here); `differentiable` keeps the update on glasstorch operators, recorded by
    autograd.
    """
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")
    lr = to_scalar(lr)
    with_momentum = momentum != 0
    grouped: list = []
    for i, param in enumerate(params):
        buffer = momentum_buffer_list[i] if with_momentum else None
        if not differentiable and float32_step(param, d_p_list[i], buffer):
            grouped.append(i)
        else:
            buffer = _single_tensor_sgd(param, d_p_list[i], buffer, weight_decay, momentum,
                                        lr, dampening, nesterov, maximize)
            if with_momentum:
                momentum_buffer_list[i] = buffer
    if not grouped:
        return
    numbers = (weight_decay, momentum, float(lr), dampening, nesterov, maximize)
    if not with_momentum:
        _sgd_group(grouped, params, d_p_list, None, numbers)
        return
    # parameters without a buffer yet get fresh memory the step writes the first
    # direction into: a call of their own
    started = [i for i in grouped if momentum_buffer_list[i] is not None]
    fresh = [i for i in grouped if momentum_buffer_list[i] is None]
    for i in fresh:
        momentum_buffer_list[i] = torch.empty_like(d_p_list[i])
    _sgd_group(started, params, d_p_list, momentum_buffer_list, numbers)
    _sgd_group(fresh, params, d_p_list, momentum_buffer_list, numbers, is_first_step=True)


def _sgd_group(chosen: list, params: list, grads: list, buffers: list | None, numbers: tuple,
               is_first_step: bool = False) -> None:
    """The float32 step operator over the `chosen` parameters (by index), if any."""
    if chosen:
        step_operator("_multi_tensor_sgd_")(
            [params[i] for i in chosen], [grads[i] for i in chosen],
            [] if buffers is None else [buffers[i] for i in chosen], *numbers, is_first_step)


def _single_tensor_sgd(param, grad, buffer, weight_decay, momentum, lr, dampening, nesterov,
                       maximize):
    """One parameter's update with glasstorch operators (torch's for-loop form)."""
    if maximize:
        grad = -grad
    if weight_decay != 0:
        grad = grad.add(param, alpha=weight_decay)
    if momentum != 0:
        if buffer is None:
            buffer = grad.detach().clone()
        else:
            buffer.mul_(momentum).add_(grad, alpha=1 - dampening)
        grad = grad.add(buffer, alpha=momentum) if nesterov else buffer
    if isinstance(lr, TensorBase) and lr.requires_grad:
        param.addcmul_(grad, lr, value=-1)
    else:
        param.add_(grad, alpha=-lr)
    return buffer
