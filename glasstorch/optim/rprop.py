"""Rprop, as torch's `torch.optim.Rprop`: resilient backpropagation, where only the
gradient's sign is used and each coordinate keeps its own step size, grown while the
sign holds and shrunk when it flips."""
from __future__ import annotations

from typing import Any, Iterable

import glasstorch as torch
from ..c10.tensor_impl import TensorBase
from ._per_parameter import (PerParameterOptimizer, check_lr, scalar_state,
                             update_parameters)

__all__ = ["Rprop", "rprop"]


class Rprop(PerParameterOptimizer):
    """Rprop: where the gradient's sign matches the previous step's, the coordinate's
    step size is multiplied by ``etas[1]``; where it flips, by ``etas[0]`` and that
    coordinate does not move this step; sizes stay within `step_sizes`; then
    ``p -= sign(g) * step_size``.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): the initial step size (default: 1e-2).
        etas (tuple of two floats, optional): the shrinking and growing factors
            (default: (0.5, 1.2)).
        step_sizes (tuple of two floats, optional): the smallest and largest step sizes
            (default: (1e-6, 50)).
        capturable (bool, optional): for CUDA graphs; refused on CPU at the first step.
        foreach (bool, optional): accepted; one implementation runs.
        maximize (bool, optional): maximize the objective instead (default: False).
        differentiable (bool, optional): let autograd record the step (default: False).

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.Rprop([w], lr=0.1)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.1000, 0.1000], requires_grad=True)
    """

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-2,
                 etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, {"lr": lr, "etas": etas, "step_sizes": step_sizes,
                                  "foreach": foreach, "maximize": maximize,
                                  "differentiable": differentiable, "capturable": capturable})

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        lr = float(group["lr"])
        return {"step": scalar_state(), "prev": torch.zeros_like(param),
                "step_size": torch.full_like(param, complex(lr, lr) if param.is_complex()
                                             else lr)}

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        etaminus, etaplus = group["etas"]
        prev, step_size = state["prev"], state["step_size"]
        state["step"] += 1
        sign = grad.mul(prev.clone() if group["differentiable"] else prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(*group["step_sizes"])
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0     # a flipped sign: no move this step
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)


def rprop(params: list, grads: list, prevs: list, step_sizes: list, state_steps: list,
          foreach: bool | None = None, capturable: bool = False, maximize: bool = False,
          differentiable: bool = False, has_complex: bool = False, *, step_size_min: float,
          step_size_max: float, etaminus: float, etaplus: float) -> None:
    """The Rprop update of `params` and their state, in place (functional form of
    `Rprop.step`; `foreach` and `has_complex` change nothing here)."""
    states = [{"step": s, "prev": prev, "step_size": size}
              for s, prev, size in zip(state_steps, prevs, step_sizes, strict=True)]
    group = {"etas": (etaminus, etaplus), "step_sizes": (step_size_min, step_size_max),
             "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
    update_parameters(Rprop, group, params, grads, states, None)
