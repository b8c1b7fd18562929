"""Periodic schedules: `CyclicLR` (the lr goes back and forth between two bounds, and the
momentum the other way) and `CosineAnnealingWarmRestarts` (cosine decays that restart,
each period `T_mult` times longer than the one before).

Both compute each rate from the position in the cycle alone (not from the previous
rate), so they are stepped once per batch and do not chain.
"""
from __future__ import annotations

import math
import types
from typing import Any, Callable

from ._scheduler import LRScheduler, group_values, per_group, set_lr
from .optimizer import Optimizer

_MODES = ("triangular", "triangular2", "exp_range")


class CyclicLR(LRScheduler):
    """Cycle the lr between `base_lr` and `max_lr` (triangles of `step_size_up` rising
    and `step_size_down` falling steps), and the momentum between `max_momentum` and
    `base_momentum` in the opposite direction.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        base_lr (float or list): the lower bound of the lr, per group.
        max_lr (float or list): the upper bound (reached scaled by `scale_fn`).
        step_size_up (int): the steps of the rising half (default: 2000).
        step_size_down (int, optional): the steps of the falling half (default:
            `step_size_up`).
        mode (str): ``"triangular"`` (a constant amplitude), ``"triangular2"`` (halved
            every cycle) or ``"exp_range"`` (multiplied by ``gamma ** step``).
        gamma (float): the base of ``"exp_range"`` (default: 1.0).
        scale_fn (function, optional): a custom amplitude scale; `mode` is then ignored.
        scale_mode (str): what `scale_fn` is given: ``"cycle"`` (the cycle number) or
            ``"iterations"`` (the step number).
        cycle_momentum (bool): also cycle the momentum (or Adam's beta1) (default: True).
        base_momentum (float or list): the momentum's lower bound (default: 0.8).
        max_momentum (float or list): its upper bound (default: 0.9).
        last_epoch (int): the index of the last batch (default: -1).

    Example::

        >>> sched = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=10)
    """

    def __init__(self, optimizer: Optimizer, base_lr: float | list, max_lr: float | list,
                 step_size_up: int = 2000, step_size_down: int | None = None,
                 mode: str = "triangular", gamma: float = 1.0,
                 scale_fn: Callable[[float], float] | None = None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum: float = 0.8,
                 max_momentum: float = 0.9, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                set_lr(group, lr)
        self.max_lrs = per_group("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = step_size_up if step_size_down is None else float(step_size_down)
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in _MODES and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self._init_momentum(optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_momentum(self, optimizer: Optimizer, base_momentum: Any, max_momentum: Any,
                       last_epoch: int) -> None:
        if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
            raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` "
                             "option enabled")
        self.use_beta1 = "betas" in optimizer.defaults
        self.base_momentums = per_group("base_momentum", optimizer, base_momentum)
        self.max_momentums = per_group("max_momentum", optimizer, max_momentum)
        if last_epoch == -1:
            for high, low, group in zip(self.max_momentums, self.base_momentums,
                                        optimizer.param_groups):
                self._set_momentum(group, high)
                group["max_momentum"] = high
                group["base_momentum"] = low

    def _set_momentum(self, group: dict, value: Any) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _init_scale_fn(self) -> None:
        """The built-in modes fix what their scale is a function of."""
        if self._scale_fn_custom is None and self.mode in _MODES:
            self.scale_mode = "iterations" if self.mode == "exp_range" else "cycle"

    def scale_fn(self, x: float) -> float:
        """The amplitude's scale at cycle (or step) `x`."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma ** x

    def get_lr(self) -> list:
        """The rates of this step (and, with `cycle_momentum`, set the momentum)."""
        self._warn_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle     # position in the cycle
        if x <= self.step_ratio:
            height = x / self.step_ratio
        else:
            height = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base_lr + (max_lr - base_lr) * height * scale
               for base_lr, max_lr in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, low, high in zip(self.optimizer.param_groups, self.base_momentums,
                                        self.max_momentums):
                self._set_momentum(group, high - (high - low) * height * scale)
        return lrs

    def state_dict(self) -> dict[str, Any]:
        """The attributes; a custom `scale_fn` only as a callable object's `__dict__`
        (a plain function cannot be saved, and is saved as None)."""
        state = super().state_dict()
        fn = state.pop("_scale_fn_custom")
        keep = fn is not None and not isinstance(fn, types.FunctionType)
        state["_scale_fn_custom"] = fn.__dict__.copy() if keep else None
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes (and the custom scale object's saved fields)."""
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        state_dict["_scale_fn_custom"] = fn
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class CosineAnnealingWarmRestarts(LRScheduler):
    """Anneal the lr from its initial value to `eta_min` along half a cosine over `T_i`
    steps, then restart; the first period is `T_0` steps, each next one `T_mult` times
    longer.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        T_0 (int): the length of the first period.
        T_mult (int): the growth factor of the periods (default: 1).
        eta_min (float): the lowest lr (default: 0.0).
        last_epoch (int): the index of the last epoch (default: -1).

    `step` may be given a fractional epoch (``epoch + batch / batches``) to anneal
    within an epoch.

    Example::

        >>> sched = CosineAnnealingWarmRestarts(opt, T_0=10, T_mult=2)
    """

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        return [self.eta_min + (base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch: float | None = None) -> None:
        """Advance one step, or move to `epoch` (which may be fractional)."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            self._move_to(epoch)
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            set_lr(group, lr)
        self._last_lr = group_values(self.optimizer, "lr")

    def _move_to(self, epoch: float) -> None:
        """Set the period `T_i` holding `epoch` and the position `T_cur` in it."""
        if epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        if epoch < self.T_0:
            self.T_i = self.T_0
            self.T_cur = epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            # periods T_0 * T_mult**k: n of them end before `epoch` (a geometric sum)
            n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult ** n
