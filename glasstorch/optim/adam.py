"""Adam (and, with decoupled weight decay, AdamW), as torch's `torch.optim.Adam`.

Two forms of the same update: `_single_tensor_adam` chains glasstorch operators (any
dtype, complex parameters as real pairs, differentiable); for float32 tensors the
operator ``aten::_multi_tensor_adam_`` does it for the whole group in one pass
(`aten/native/optim/steps.py`). Both round as torch's CPU for-loop implementation does
(torch's default on CPU), step for step.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import glasstorch as torch
from ..autograd.grad_mode import enable_grad
from ..c10.dtype import float32, float64
from ..c10.promotion import get_default_dtype
from ..c10.tensor_impl import TensorBase
from .optimizer import (Optimizer, check_fused_flags, float32_step, step_operator, to_scalar,
                        _use_grad_for_differentiable)
from ._per_parameter import CAPTURABLE_DEVICES, check_fused_param

__all__ = ["Adam", "adam"]



def _step_dtype(fused: bool | None = None):
    """The dtype of the step count: float32, or float64 under a float64 default dtype
    (fused kernels read float32 only)."""
    if fused:
        return float32
    return float64 if get_default_dtype() is float64 else float32


def _check_hyperparameters(lr, betas, eps, weight_decay, foreach, capturable) -> None:
    """torch's argument checks, in torch's order (so that the first failure is the same)."""
    if isinstance(lr, TensorBase):
        if foreach and not capturable:
            raise ValueError("lr as a Tensor is not supported for capturable=False and "
                             "foreach=True")
        if lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for index in (0, 1):
        if not 0.0 <= betas[index] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {betas[index]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")
    floats = isinstance(betas[0], float) and isinstance(betas[1], float)
    tensors = isinstance(betas[0], TensorBase) and isinstance(betas[1], TensorBase)
    if not (floats or tensors):
        raise ValueError("betas must be either both floats or both Tensors")
    for index in (0, 1):
        if isinstance(betas[index], TensorBase):
            if not capturable and foreach:
                raise ValueError(f"betas[{index}] as a Tensor is not supported for "
                                 "capturable=False and foreach=True")
            if betas[index].numel() != 1:
                raise ValueError(f"Tensor betas[{index}] must be 1-element")


class Adam(Optimizer):
    """Adam: steps scaled by running averages of the gradient and of its square.

    Each step, for each parameter with a gradient ``g`` (negated when `maximize`),
    with step count ``t``: weight decay (``g += weight_decay * p``, or with
    `decoupled_weight_decay` ``p *= 1 - lr * weight_decay``), then
    ``m = lerp(m, g, 1 - beta1)``, ``v = beta2 * v + (1 - beta2) * g * g`` and
    ``p -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)``
    (with `amsgrad`, the running maximum of ``v`` takes its place there).

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 1e-3).
        betas (tuple of two floats or Tensors, optional): the averages' decay rates
            (default: (0.9, 0.999)).
        eps (float, optional): added to the denominator (default: 1e-8).
        weight_decay (float, optional): weight decay coefficient (default: 0).
        amsgrad (bool, optional): use the AMSGrad variant (default: False).
        foreach (bool, optional): accepted for compatibility; one implementation runs.
        maximize (bool, optional): maximize the objective instead (default: False).
        capturable (bool, optional): for CUDA graphs; refused on CPU at the first step.
        differentiable (bool, optional): let autograd record the step (default: False).
        fused (bool, optional): accepted for compatibility, as `foreach`.
        decoupled_weight_decay (bool, optional): decay the parameter itself, not the
            gradient, which makes this AdamW (default: False).

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.Adam([w], lr=0.1)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.1000, 0.1000], requires_grad=True)
    """

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-3,
                 betas: tuple = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 amsgrad: bool = False, *, foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None, decoupled_weight_decay: bool = False) -> None:
        _check_hyperparameters(lr, betas, eps, weight_decay, foreach, capturable)
        defaults = {"lr": lr, "betas": tuple(map(to_scalar, betas)), "eps": eps,
                    "weight_decay": weight_decay, "amsgrad": amsgrad, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)
        check_fused_flags(fused, foreach, differentiable)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in (("amsgrad", False), ("maximize", False), ("foreach", None),
                                 ("capturable", False), ("differentiable", False),
                                 ("decoupled_weight_decay", False)):
                group.setdefault(key, default)
            fused = group.setdefault("fused", None)
            for param in group["params"]:
                param_state = self.state.get(param, [])
                if len(param_state) != 0 and not isinstance(param_state["step"], TensorBase):
                    # checkpoints of old versions counted steps as Python numbers
                    special = group["capturable"] or group["fused"]
                    param_state["step"] = torch.tensor(
                        float(param_state["step"]), dtype=_step_dtype(fused if special else None))

    def _init_group(self, group: dict, params: list, grads: list, exp_avgs: list,
                    exp_avg_sqs: list, max_exp_avg_sqs: list, state_steps: list) -> None:
        """Collect the parameters with a gradient and their state (made on first use)."""
        for param in group["params"]:
            if param.grad is None:
                continue
            params.append(param)
            grads.append(param.grad)
            state = self.state[param]
            if len(state) == 0:
                self._init_state(group, param, state)
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            if group["differentiable"] and state["step"].requires_grad:
                raise RuntimeError("`requires_grad` is not supported for `step` in "
                                   "differentiable mode")
            if group["foreach"] and isinstance(group["lr"], TensorBase) and \
                    not group["capturable"]:
                raise RuntimeError("lr as a Tensor is not supported for capturable=False and "
                                   "foreach=True")
            state_steps.append(state["step"])

    @staticmethod
    def _init_state(group: dict, param: TensorBase, state: dict) -> None:
        if group["fused"]:
            check_fused_param(param)
        special = group["capturable"] or group["fused"]
        state["step"] = torch.tensor(0.0, dtype=_step_dtype(group["fused"] if special else None))
        state["exp_avg"] = torch.zeros_like(param)
        state["exp_avg_sq"] = torch.zeros_like(param)
        if group["amsgrad"]:
            state["max_exp_avg_sq"] = torch.zeros_like(param)

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
            lists: tuple[list, ...] = ([], [], [], [], [], [])
            self._init_group(group, *lists)
            beta1, beta2 = group["betas"]
            adam(*lists, amsgrad=group["amsgrad"], beta1=beta1, beta2=beta2, lr=group["lr"],
                 weight_decay=group["weight_decay"], eps=group["eps"],
                 maximize=group["maximize"], capturable=group["capturable"],
                 differentiable=group["differentiable"],
                 decoupled_weight_decay=group["decoupled_weight_decay"])
        return loss


def adam(params: list, grads: list, exp_avgs: list, exp_avg_sqs: list, max_exp_avg_sqs: list,
         state_steps: list, foreach: bool | None = None, capturable: bool = False,
         differentiable: bool = False, fused: bool | None = None, grad_scale=None,
         found_inf=None, has_complex: bool = False, decoupled_weight_decay: bool = False, *,
         amsgrad: bool, beta1: float, beta2: float, lr: float, weight_decay: float, eps: float,
         maximize: bool) -> None:
    """The Adam update of `params` and their state, in place (functional `Adam.step`).

    The arguments are torch's; `foreach`, `fused` and `has_complex` change nothing here
    (one implementation), and gradient scaling (`grad_scale`, `found_inf`) belongs to
    fused kernels glasstorch does not have.
    """
    if not all(isinstance(step, TensorBase) for step in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of "
                           "singleton tensors")
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")
    lr, beta1, beta2 = to_scalar(lr), to_scalar(beta1), to_scalar(beta2)
    numbers = (beta1, beta2, lr, weight_decay, decoupled_weight_decay, maximize, eps)
    # tensor hyperparameters make torch compute the corrections in float32 tensors
    tensor_numbers = any(isinstance(x, TensorBase) for x in (beta1, beta2, lr))
    if capturable and params:
        raise AssertionError("If capturable=True, params and state_steps must be on "
                             f"supported devices: {CAPTURABLE_DEVICES}.")
    lists = (params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs if amsgrad else [])
    grouped = []
    for i in range(len(params)):
        tensors = [entries[i] for entries in lists if entries]
        if not (differentiable or tensor_numbers) and float32_step(*tensors):
            grouped.append(i)
        else:
            _single_tensor_adam(tensors, state_steps[i], *numbers, differentiable)
    if grouped:
        step_operator("_multi_tensor_adam_")(
            *([entries[i] for i in grouped] if entries else [] for entries in lists),
            [state_steps[i] for i in grouped], float(lr), float(beta1), float(beta2),
            weight_decay, eps, amsgrad, maximize, decoupled_weight_decay)


def _single_tensor_adam(tensors: list, step_t: TensorBase, beta1, beta2, lr, weight_decay,
                        decoupled_weight_decay, maximize, eps, differentiable) -> None:
    """One parameter's update with glasstorch operators (torch's for-loop form)."""
    param, grad, exp_avg, exp_avg_sq = tensors[:4]
    max_exp_avg_sq = tensors[4] if len(tensors) == 5 else None
    if maximize:
        grad = -grad
    step_t += 1
    if weight_decay != 0:
        if decoupled_weight_decay:
            param.mul_(1 - lr * weight_decay)
        else:
            grad = grad.add(param, alpha=weight_decay)
    if param.is_complex():
        param, grad, exp_avg, exp_avg_sq = (
            torch.view_as_real(t) for t in (param, grad, exp_avg, exp_avg_sq))
        if max_exp_avg_sq is not None:
            max_exp_avg_sq = torch.view_as_real(max_exp_avg_sq)
    if isinstance(beta1, TensorBase):
        beta1 = beta1.to(dtype=param.dtype)
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    second = exp_avg_sq
    if max_exp_avg_sq is not None:
        previous = max_exp_avg_sq.clone() if differentiable else max_exp_avg_sq
        second = max_exp_avg_sq.copy_(torch.maximum(previous, exp_avg_sq))
    if differentiable:
        _apply_with_tensor_step(param, exp_avg, second, step_t, beta1, beta2, lr, eps)
        return
    step = step_t.item()
    step_size = lr / (1 - beta1 ** step)
    bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
    denom = (second.sqrt() / bias_correction2_sqrt).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-step_size)


def _apply_with_tensor_step(param, exp_avg, second, step_t, beta1, beta2, lr, eps) -> None:
    """The parameter update with the step count kept a tensor (torch's differentiable
    form): the corrections fold into the denominator, which rounds differently."""
    step_size_neg = (lr / (1 - beta1 ** step_t)).neg()
    bias_correction2_sqrt = (1 - beta2 ** step_t).sqrt()
    denom = (second.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(eps / step_size_neg)
    param.addcdiv_(exp_avg.clone(), denom)
