"""Adafactor, as torch's `torch.optim.Adafactor`: an Adam-like step whose second-moment
estimate of a matrix is factored into row and column averages (memory proportional to
rows + columns instead of their product)."""
from __future__ import annotations

from typing import Any, Iterable

import glasstorch as torch
from ..c10.tensor_impl import TensorBase
from ._per_parameter import PerParameterOptimizer, scalar_state, update_parameters

__all__ = ["Adafactor", "adafactor"]


class Adafactor(PerParameterOptimizer):
    """Adafactor: at step ``t`` the averages decay with ``1 - t**beta2_decay``; a
    matrix's squared gradients are averaged per row and per column, whose outer
    product (over the row averages' mean) estimates the second moment; the update
    ``g / sqrt(v)`` is clipped to root-mean-square `d` and scaled by
    ``max(eps2, rms(p)) * min(lr, 1 / sqrt(t))``.

    Args:
        params (iterable): tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): the relative step size's cap (default: 1e-2).
        beta2_decay (float, optional): power of the averages' decay, <= 0 (default: -0.8).
        eps (tuple of two floats, optional): the floor of the second moment's root
            (None: the dtype's machine epsilon) and of the parameter's scale
            (default: (None, 1e-3)).
        d (float, optional): clipping threshold of the update's root mean square
            (default: 1.0).
        weight_decay (float, optional): decays the parameter itself
            (``p *= 1 - lr * weight_decay``) (default: 0.0).
        foreach (bool, optional): accepted; one implementation runs.
        maximize (bool, optional): maximize the objective instead (default: False).

    Example::

        >>> w = torch.ones(2, requires_grad=True)
        >>> opt = torch.optim.Adafactor([w])
        >>> w.sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.9900, 0.9900], requires_grad=True)
    """

    _flags = {"foreach": None}

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-2,
                 beta2_decay: float = -0.8, eps: tuple[float | None, float] = (None, 1e-3),
                 d: float = 1.0, weight_decay: float = 0.0, *, foreach: bool | None = None,
                 maximize: bool = False) -> None:
        if isinstance(lr, TensorBase) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        super().__init__(params, {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d,
                                  "weight_decay": weight_decay, "foreach": foreach,
                                  "maximize": maximize})

    def _check_param(self, group: dict, param: TensorBase) -> None:
        if param.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        grad = param.grad
        if grad.dim() <= 1:
            return {"step": scalar_state(), "variance": torch.zeros_like(grad)}
        row_shape, col_shape = list(grad.shape), list(grad.shape)
        row_shape[-1], col_shape[-2] = 1, 1
        return {"step": scalar_state(), "row_var": grad.new_zeros(row_shape),
                "col_var": grad.new_zeros(col_shape)}

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = torch.finfo(param.dtype).eps
        state["step"] += 1
        step = state["step"].item()
        decay = step ** group["beta2_decay"]        # the weight of the new squares
        scale = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * \
            min(lr, 1 / (step ** 0.5))
        if group["weight_decay"] != 0:
            param.mul_(1 - lr * group["weight_decay"])
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(torch.norm(grad, dim=-1, keepdim=True).square_().div_(grad.size(-1)),
                          decay)
            col_var.lerp_(torch.norm(grad, dim=-2, keepdim=True).square_().div_(grad.size(-2)),
                          decay)
            estimate = row_var @ col_var
            estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            estimate = state["variance"].lerp_(grad * grad, decay).clone()
        update = estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        clip = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * group["d"]))
        param.add_(update, alpha=-scale / clip)


def adafactor(params: list, grads: list, row_vars: list, col_vars: list, variances: list,
              state_steps: list, foreach: bool | None = None, grad_scale=None, found_inf=None,
              has_complex: bool = False, *, d: float, lr: float | TensorBase,
              beta2_decay: float, weight_decay: float, eps1: float | None, eps2: float,
              maximize: bool) -> None:
    """The Adafactor update of `params` and their state, in place (functional form of
    `Adafactor.step`; a matrix's entries of `variances`, and a vector's of `row_vars` and
    `col_vars`, are None)."""
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Grad scaling should occur outside of optimizer.step()")
    states = []
    for step, row_var, col_var, variance in zip(state_steps, row_vars, col_vars, variances,
                                                strict=True):
        kept = {"row_var": row_var, "col_var": col_var, "variance": variance}
        states.append({"step": step, **{k: v for k, v in kept.items() if v is not None}})
    group = {"eps": (eps1, eps2), "d": d, "beta2_decay": beta2_decay,
             "weight_decay": weight_decay, "maximize": maximize}
    update_parameters(Adafactor, group, params, grads, states, lr)
