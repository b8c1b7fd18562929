"""SparseAdam, as torch's `torch.optim.SparseAdam`: Adam for sparse gradients (such as
an `nn.Embedding(sparse=True)`'s), updating only the rows a gradient touches.

glasstorch has no sparse tensors yet, so no gradient can be sparse: the optimizer is
built, checked and saved as torch's, and its step refuses the dense gradients it is
given, with torch's message.
"""
from __future__ import annotations

from typing import Callable, Iterable

from ..autograd.grad_mode import enable_grad, no_grad
from ..c10.tensor_impl import TensorBase
from .optimizer import Optimizer
from ._per_parameter import check_betas

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Adam's update applied to the entries a sparse gradient holds; the running
    averages of the other entries are left as they are.

    Args:
        params (iterable): dense tensors to optimize, or dicts defining parameter groups.
        lr (float or Tensor, optional): learning rate (default: 1e-3).
        betas (tuple of two floats, optional): decay rates of the averages
            (default: (0.9, 0.999)).
        eps (float, optional): added to the denominator (default: 1e-8).
        maximize (bool, optional): maximize the objective instead (default: False).

    Example::

        >>> w = torch.zeros(2, requires_grad=True)
        >>> opt = torch.optim.SparseAdam([w])
        >>> opt.param_groups[0]["betas"]
        (0.9, 0.999)
    """

    def __init__(self, params: Iterable, lr: float | TensorBase = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 maximize: bool = False) -> None:
        if isinstance(lr, TensorBase) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        check_betas(betas)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize})
        sparse = self._positions(lambda param: param.is_sparse)
        if sparse:
            raise ValueError(f"Sparse params at indices {sparse}: SparseAdam requires dense "
                             "parameter tensors")
        complex_ = self._positions(lambda param: param.is_complex())
        if complex_:
            raise ValueError(f"Complex params at indices {complex_}: SparseAdam does not "
                             "support complex parameters")

    def _positions(self, test: Callable) -> list[list[int]]:
        """``[group index, index in the group]`` of each parameter passing `test`."""
        return [[g, p] for g, group in enumerate(self.param_groups)
                for p, param in enumerate(group["params"]) if test(param)]

    @no_grad()
    def step(self, closure: Callable[[], float] | None = None) -> float | None:
        """Perform one optimization step: refused for the dense gradients glasstorch
        makes (torch's message).

        Args:
            closure (Callable, optional): re-evaluates the model and returns the loss.
        """
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is not None and not param.grad.is_sparse:
                    raise RuntimeError("SparseAdam does not support dense gradients, please "
                                       "consider Adam instead")
        return loss
