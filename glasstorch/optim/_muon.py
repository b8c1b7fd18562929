"""Muon, as torch's `torch.optim.Muon`: momentum SGD for 2-D weights whose update is
orthogonalized (its singular values pushed towards 1) by a few Newton-Schulz
iterations in bfloat16."""
from __future__ import annotations

import math
from typing import Any, Iterable

import glasstorch as torch
from ..c10.tensor_impl import TensorBase
from ._per_parameter import PerParameterOptimizer

__all__ = ["Muon"]

# torch's defaults: the quintic's coefficients, the iterations, the norm's floor.
DEFAULT_A, DEFAULT_B, DEFAULT_C = 3.4445, -4.7750, 2.0315
DEFAULT_NS_STEPS = 5
EPS = 1e-7


class Muon(PerParameterOptimizer):
    """Muon: ``b = lerp(b, g, 1 - momentum)``; the direction (``lerp(g, b, momentum)``
    with `nesterov`, else ``b``) is orthogonalized by `ns_steps` iterations of
    ``X = a X + (b A + c A A) X`` with ``A = X X^T``; then
    ``p *= 1 - lr * weight_decay`` and ``p -= lr * ratio * direction``, with
    ``ratio = sqrt(max(1, rows / cols))`` (or ``0.2 * sqrt(max(rows, cols))`` for
    ``adjust_lr_fn="match_rms_adamw"``).

    Args:
        params (iterable): 2-D tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 1e-3).
        weight_decay (float, optional): decays the parameter itself (default: 0.1).
        momentum (float, optional): momentum factor (default: 0.95).
        nesterov (bool, optional): Nesterov momentum (default: True).
        ns_coefficients (tuple of three floats, optional): ``a, b, c`` of the iteration
            (default: (3.4445, -4.775, 2.0315)).
        eps (float, optional): floor of the norm the direction is divided by
            (default: 1e-7).
        ns_steps (int, optional): number of iterations (default: 5).
        adjust_lr_fn (str, optional): "original" or "match_rms_adamw" (default: None,
            the original).

    Example::

        >>> w = torch.ones(2, 2, requires_grad=True)
        >>> opt = torch.optim.Muon([w], lr=0.1, weight_decay=0)
        >>> w.sum().backward()
        >>> opt.step()
        >>> w.shape
        torch.Size([2, 2])
    """

    _flags: dict[str, Any] = {}

    def __init__(self, params: Iterable, lr: float = 1e-3, weight_decay: float = 0.1,
                 momentum: float = 0.95, nesterov: bool = True,
                 ns_coefficients: tuple[float, float, float] = (DEFAULT_A, DEFAULT_B,
                                                                DEFAULT_C),
                 eps: float = EPS, ns_steps: int = DEFAULT_NS_STEPS,
                 adjust_lr_fn: str | None = None) -> None:
        if isinstance(lr, TensorBase) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        super().__init__(params, {"lr": lr, "weight_decay": weight_decay, "momentum": momentum,
                                  "nesterov": nesterov, "ns_coefficients": ns_coefficients,
                                  "eps": eps, "ns_steps": ns_steps,
                                  "adjust_lr_fn": adjust_lr_fn})
        for group in self.param_groups:
            for param in group["params"]:
                if param.ndim != 2:
                    raise ValueError("Muon only supports 2D parameters whereas we found a "
                                     f"parameter with size: {param.size()}")

    def _check_param(self, group: dict, param: TensorBase) -> None:
        if param.is_complex():
            raise RuntimeError("Muon does not support complex parameters")

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        return {"momentum_buffer": torch.zeros_like(param.grad)}

    @staticmethod
    def _update(group, param, grad, state, lr) -> None:
        if grad.ndim != 2:
            raise ValueError("Param gradient must be a 2D matrix")
        momentum = group["momentum"]
        buffer = state["momentum_buffer"].lerp_(grad, 1 - momentum)
        direction = grad.lerp(buffer, momentum) if group["nesterov"] else buffer
        direction = orthogonalize(direction, group["ns_coefficients"], group["ns_steps"],
                                  group["eps"])
        param.mul_(1 - lr * group["weight_decay"])
        param.add_(direction, alpha=-lr * _lr_ratio(group["adjust_lr_fn"], param.shape))


def orthogonalize(matrix: TensorBase, coefficients: tuple[float, float, float],
                  steps: int, eps: float) -> TensorBase:
    """`matrix` (2-D) pushed towards the nearest semi-orthogonal matrix by `steps`
    Newton-Schulz iterations in bfloat16, on the wide orientation (``A = X X^T`` the
    smaller Gram matrix)."""
    if steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(matrix.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = coefficients
    tall = matrix.size(0) > matrix.size(1)
    x = matrix.bfloat16()
    if tall:
        x = x.T
    x.div_(x.norm().clamp(min=eps))
    for _ in range(steps):
        gram = x @ x.T
        x = torch.addmm(x, torch.addmm(gram, gram, gram, beta=b, alpha=c), x, beta=a)
    return x.T if tall else x


def _lr_ratio(adjust_lr_fn: str | None, shape) -> float:
    """The factor Muon scales the learning rate by for a ``rows x cols`` weight."""
    rows, cols = shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        return math.sqrt(max(1, rows / cols))
    if adjust_lr_fn == "match_rms_adamw":
        return 0.2 * math.sqrt(max(rows, cols))
    return 1.0
