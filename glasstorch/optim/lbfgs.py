"""`LBFGS`: the limited-memory BFGS quasi-Newton method.

Each iteration moves along ``d = -H g``, where ``H`` approximates the inverse Hessian
from the last `history_size` pairs of parameter steps ``s`` and gradient changes ``y``
(the two-loop recursion: no matrix is ever formed). The step length is `lr`, or with
``line_search_fn="strong_wolfe"`` the one the line search (`_line_search.py`) finds.
One `step` runs up to `max_iter` iterations and calls the closure several times, so
`step` requires it.

The parameters are handled as one flat vector (complex ones as their real and
imaginary parts, as `view_as_real` shows them). The state lives under the first
parameter, with torch's keys, so checkpoints move between the two libraries.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import glasstorch as torch
from ..autograd.grad_mode import enable_grad, no_grad
from ..c10.tensor_impl import TensorBase
from ._line_search import strong_wolfe
from .optimizer import Optimizer, to_scalar

__all__ = ["LBFGS"]


class LBFGS(Optimizer):
    """Implements the L-BFGS algorithm.

    It takes one parameter group, and all its parameters on one device. It keeps
    ``history_size + 1`` copies of the parameters' size.

    Args:
        params (iterable): the tensors to optimize (real or complex).
        lr (float or Tensor): the step length (default: 1).
        max_iter (int): the most iterations per `step` (default: 20).
        max_eval (int, optional): the most closure calls per `step` (default:
            ``max_iter * 5 // 4``).
        tolerance_grad (float): stop when no gradient entry exceeds it (default: 1e-7).
        tolerance_change (float): stop when the loss or the parameters change less
            (default: 1e-9).
        history_size (int): the number of remembered steps (default: 100).
        line_search_fn (str, optional): ``"strong_wolfe"`` or None (a fixed step).

    Example::

        >>> opt = torch.optim.LBFGS(model.parameters(), line_search_fn="strong_wolfe")
        >>> def closure():
        ...     opt.zero_grad()
        ...     loss = loss_fn(model(x), y)
        ...     loss.backward()
        ...     return loss
        >>> opt.step(closure)
    """

    def __init__(self, params: Iterable, lr: float | TensorBase = 1, max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        if isinstance(lr, TensorBase) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval,
                    "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
                    "history_size": history_size, "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]
        self._numel_cache = None

    # ----- the parameters as one flat vector ---------------------------------------
    def _numel(self) -> int:
        if self._numel_cache is None:
            self._numel_cache = sum(2 * p.numel() if p.is_complex() else p.numel()
                                    for p in self._params)
        return self._numel_cache

    def _gather_flat_grad(self) -> TensorBase:
        """Every gradient, flattened into one vector (zeros for a missing one)."""
        views = []
        for p in self._params:
            view = p.new(p.numel()).zero_() if p.grad is None else p.grad.view(-1)
            if view.is_complex():
                view = torch.view_as_real(view).view(-1)
            views.append(view)
        return torch.cat(views, 0)

    def _add_grad(self, step_size: Any, update: TensorBase) -> None:
        """Add ``step_size * update`` (a flat vector) to the parameters."""
        offset = 0
        for p in self._params:
            if p.is_complex():
                p = torch.view_as_real(p)
            numel = p.numel()
            p.add_(update[offset:offset + numel].view_as(p), alpha=step_size)
            offset += numel

    def _directional_evaluate(self, closure: Callable, x: list, t: Any,
                              d: TensorBase) -> tuple[float, TensorBase]:
        """The loss and flat gradient at ``x + t * d``; the parameters are put back to `x`."""
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        for p, saved in zip(self._params, x):
            p.copy_(saved)
        return loss, flat_grad

    # ----- the step ------------------------------------------------------------------
    @no_grad()
    def step(self, closure: Callable[[], Any]) -> Any:
        """Run up to `max_iter` iterations (several closure calls).

        Args:
            closure (Callable): re-evaluates the model (under grad mode, with
                ``backward``) and returns the loss.

        Returns:
            the loss the closure returned first, at the starting point.
        """
        closure = enable_grad()(closure)
        group = self.param_groups[0]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = closure()
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        if flat_grad.abs().max() <= group["tolerance_grad"]:
            return orig_loss            # already at a stationary point
        self._iterate(closure, group, state, float(orig_loss), flat_grad)
        return orig_loss

    def _iterate(self, closure: Callable, group: dict, state: dict, loss: float,
                 flat_grad: TensorBase) -> None:
        evaluations, n_iter = 1, 0
        while n_iter < group["max_iter"]:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                state.update(d=flat_grad.neg(), old_dirs=[], old_stps=[], ro=[], H_diag=1)
            else:
                _remember(state, flat_grad, group["history_size"])
                state["d"] = _direction(state, flat_grad, group["history_size"])
            if state.get("prev_flat_grad") is None:
                state["prev_flat_grad"] = flat_grad.clone()
            else:
                state["prev_flat_grad"].copy_(flat_grad)
            state["prev_loss"] = loss
            lr = to_scalar(group["lr"])
            # the first step is scaled down to a length of at most lr (no curvature yet)
            t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
            state["t"] = t
            gtd = flat_grad.dot(state["d"])
            if gtd > -group["tolerance_change"]:
                break                   # not a descent direction
            last = n_iter == group["max_iter"]
            loss, flat_grad, state["t"], used = self._move(
                closure, group, state["d"], (loss, flat_grad, t, gtd),
                group["max_eval"] - evaluations, last)
            evaluations += used
            state["func_evals"] += used
            if last or evaluations >= group["max_eval"] or _converged(group, state, loss,
                                                                       flat_grad):
                break

    def _move(self, closure: Callable, group: dict, d: TensorBase, start: tuple, max_ls: int,
              last: bool) -> tuple:
        """Step the parameters along `d` from `start` = (loss, flat gradient, step,
        slope); the new loss, flat gradient, step length and the closure calls made
        (none for a fixed last step: nothing reads the result)."""
        loss, flat_grad, t, gtd = start
        line_search_fn = group["line_search_fn"]
        if line_search_fn is None:
            self._add_grad(t, d)
            if last:
                return loss, flat_grad, t, 0
            loss = float(closure())
            return loss, self._gather_flat_grad(), t, 1
        if line_search_fn != "strong_wolfe":
            raise RuntimeError("only 'strong_wolfe' is supported")
        x_init = [p.clone() for p in self._params]
        loss, flat_grad, t, used = strong_wolfe(
            lambda step: self._directional_evaluate(closure, x_init, step, d),
            t, d, loss, flat_grad, gtd, max_ls=max_ls)
        self._add_grad(t, d)
        return loss, flat_grad, t, used


def _remember(state: dict, flat_grad: TensorBase, history_size: int) -> None:
    """Add the last step ``s`` and gradient change ``y`` to the history (when the
    curvature ``y . s`` is positive enough to keep the approximation positive
    definite), dropping the oldest pair beyond `history_size`."""
    y = flat_grad.sub(state["prev_flat_grad"])
    s = state["d"].mul(state["t"])
    ys = y.dot(s)
    if ys > 1e-10:
        if len(state["old_dirs"]) == history_size:
            for key in ("old_dirs", "old_stps", "ro"):
                state[key].pop(0)
        state["old_dirs"].append(y)
        state["old_stps"].append(s)
        state["ro"].append(1.0 / ys)
        state["H_diag"] = ys / y.dot(y)     # the initial Hessian's scale


def _direction(state: dict, flat_grad: TensorBase, history_size: int) -> TensorBase:
    """``-H g`` by the two-loop recursion over the history (newest first, then oldest
    first), starting from the diagonal ``H_diag``."""
    old_dirs, old_stps, ro = state["old_dirs"], state["old_stps"], state["ro"]
    if "al" not in state:
        state["al"] = [None] * history_size
    al = state["al"]
    q = flat_grad.neg()
    for i in range(len(old_dirs) - 1, -1, -1):
        al[i] = old_stps[i].dot(q) * ro[i]
        q.add_(old_dirs[i], alpha=-al[i])
    r = torch.mul(q, state["H_diag"])
    for i in range(len(old_dirs)):
        be_i = old_dirs[i].dot(r) * ro[i]
        r.add_(old_stps[i], alpha=al[i] - be_i)
    return r


def _converged(group: dict, state: dict, loss: float, flat_grad: TensorBase) -> bool:
    """A small enough gradient, parameter change or loss change ends the step."""
    if flat_grad.abs().max() <= group["tolerance_grad"]:
        return True
    if state["d"].mul(state["t"]).abs().max() <= group["tolerance_change"]:
        return True
    return abs(loss - state["prev_loss"]) < group["tolerance_change"]
