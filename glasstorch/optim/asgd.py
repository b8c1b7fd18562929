"""Averaged stochastic gradient descent, as torch's `torch.optim.ASGD`: SGD with a
decaying rate, keeping a running average of the iterates (in the state's ``ax``)."""
from __future__ import annotations

from typing import Any, Iterable

import glasstorch as torch
from ..c10.tensor_impl import TensorBase
from ._per_parameter import (PerParameterOptimizer, check_lr, scalar_state,
                             update_parameters)

__all__ = ["ASGD", "asgd"]


class ASGD(PerParameterOptimizer):
    """ASGD: ``p = p * (1 - lambd * eta) - eta * g``, then the average ``ax`` moves to
    ``p`` by ``mu``; after step ``t`` the rate becomes
    ``eta = lr / (1 + lambd * lr * t) ** alpha`` and ``mu = 1 / max(1, t - t0)``
    (the average starts following the iterates after `t0` steps).

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 1e-2).
        lambd (float, optional): decay term (default: 1e-4).
        alpha (float, optional): power of the rate's decay (default: 0.75).
        t0 (float, optional): step at which averaging starts (default: 1e6).
        weight_decay (float, optional): L2 penalty added to the gradient (default: 0).
        foreach (bool, optional): accepted; one implementation runs.
        maximize (bool, optional): maximize the objective instead (default: False).
        differentiable (bool, optional): let autograd record the step (default: False).
        capturable (bool, optional): for CUDA graphs; refused on CPU at the first step.

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.ASGD([w], lr=0.1)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.2000, 0.2000], requires_grad=True)
    """

    _capturable_tensors = "params, mus, etas, and state_steps"

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-2, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                                  "weight_decay": weight_decay, "foreach": foreach,
                                  "maximize": maximize, "differentiable": differentiable,
                                  "capturable": capturable})

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for param_state in self.state.values():
            for key in ("eta", "mu"):       # old checkpoints kept them as numbers
                if key in param_state and not isinstance(param_state[key], TensorBase):
                    param_state[key] = scalar_state(param_state[key])

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        lr = group["lr"]
        return {"step": scalar_state(), "eta": scalar_state(float(lr)),
                "mu": scalar_state(1.0), "ax": torch.zeros_like(param)}

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        eta, mu, ax = state["eta"], state["mu"], state["ax"]
        lambd, alpha = group["lambd"], group["alpha"]
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        eta_value = eta.item()
        param.mul_(1 - lambd * eta_value)
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
        step = state["step"].item()
        eta.copy_(torch.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
        mu.copy_(torch.as_tensor(1 / max(1, step - group["t0"])))


def asgd(params: list, grads: list, axs: list, mus: list, etas: list, state_steps: list,
         foreach: bool | None = None, maximize: bool = False, differentiable: bool = False,
         capturable: bool = False, has_complex: bool = False, *, lambd: float, lr: float,
         t0: float, alpha: float, weight_decay: float) -> None:
    """The ASGD update of `params` and their state, in place (functional form of
    `ASGD.step`; `foreach` and `has_complex` change nothing here)."""
    states = [{"step": s, "eta": eta, "mu": mu, "ax": ax}
              for s, eta, mu, ax in zip(state_steps, etas, mus, axs, strict=True)]
    group = {"lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
             "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
    update_parameters(ASGD, group, params, grads, states, lr)
