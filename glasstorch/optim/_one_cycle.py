"""`OneCycleLR`: the 1cycle policy (warm up to a peak lr, then anneal far below the start),
with the momentum (or Adam's beta1) cycling the opposite way."""
from __future__ import annotations

import math

from ._scheduler import LRScheduler, per_group
from .optimizer import Optimizer


def _phases(total_steps: int, pct_start: float, three_phase: bool) -> list[dict]:
    """The schedule's phases: where each ends, and the group keys it goes between."""
    up = {"end_step": float(pct_start * total_steps) - 1, "start_lr": "initial_lr",
          "end_lr": "max_lr", "start_momentum": "max_momentum",
          "end_momentum": "base_momentum"}
    if not three_phase:
        return [up, {"end_step": total_steps - 1, "start_lr": "max_lr", "end_lr": "min_lr",
                     "start_momentum": "base_momentum", "end_momentum": "max_momentum"}]
    return [up,
            {"end_step": float(2 * pct_start * total_steps) - 2, "start_lr": "max_lr",
             "end_lr": "initial_lr", "start_momentum": "base_momentum",
             "end_momentum": "max_momentum"},
            {"end_step": total_steps - 1, "start_lr": "initial_lr", "end_lr": "min_lr",
             "start_momentum": "max_momentum", "end_momentum": "max_momentum"}]


def _total_steps(total_steps, epochs, steps_per_epoch) -> int:
    if total_steps is not None:
        if total_steps <= 0 or not isinstance(total_steps, int):
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is not None and steps_per_epoch is not None:
        if not isinstance(epochs, int) or epochs <= 0:
            raise ValueError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise ValueError(f"Expected positive integer steps_per_epoch, but got "
                             f"{steps_per_epoch}")
        return epochs * steps_per_epoch
    raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")


class OneCycleLR(LRScheduler):
    """The 1cycle learning-rate policy, stepped after every batch.

    The lr rises from ``max_lr / div_factor`` to `max_lr` over the first `pct_start` of
    the steps, then falls to ``initial_lr / final_div_factor`` (with `three_phase`, it
    first falls back to the initial lr symmetrically, then to the minimum). With
    `cycle_momentum`, the momentum (or Adam's first beta) moves between `max_momentum`
    and `base_momentum` the opposite way.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        max_lr (float or list): the peak lr (or one per group).
        total_steps (int, optional): the number of steps; else epochs * steps_per_epoch.
        epochs (int, optional): the number of epochs.
        steps_per_epoch (int, optional): steps in an epoch.
        pct_start (float): the share of the cycle spent rising (default: 0.3).
        anneal_strategy (str): ``"cos"`` or ``"linear"`` (default: "cos").
        cycle_momentum (bool): cycle the momentum too (default: True).
        base_momentum (float or list): the lowest momentum (default: 0.85).
        max_momentum (float or list): the highest momentum (default: 0.95).
        div_factor (float): ``initial_lr = max_lr / div_factor`` (default: 25).
        final_div_factor (float): ``min_lr = initial_lr / final_div_factor``
            (default: 1e4).
        three_phase (bool): the three-phase variant (default: False).
        last_epoch (int): the index of the last batch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, max_lr, total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None,
                 pct_start: float = 0.3, anneal_strategy: str = "cos",
                 cycle_momentum: bool = True, base_momentum=0.85, max_momentum=0.95,
                 div_factor: float = 25.0, final_div_factor: float = 1e4,
                 three_phase: bool = False, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = _phases(self.total_steps, pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = per_group("max_lr", self.optimizer, max_lr)
        if last_epoch == -1:
            for group, peak in zip(self.optimizer.param_groups, max_lrs):
                group["initial_lr"] = peak / div_factor
                group["max_lr"] = peak
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if self.cycle_momentum:
            self._init_momentum(optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    def _init_momentum(self, optimizer, base_momentum, max_momentum, last_epoch) -> None:
        if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
            raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` "
                             "option enabled")
        self.use_beta1 = "betas" in optimizer.defaults
        highs = per_group("max_momentum", optimizer, max_momentum)
        lows = per_group("base_momentum", optimizer, base_momentum)
        if last_epoch == -1:
            for high, low, group in zip(highs, lows, optimizer.param_groups):
                self._set_momentum(group, high)
                group["max_momentum"] = high
                group["base_momentum"] = low

    def _set_momentum(self, group: dict, value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal_func(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return self._annealing_cos(start, end, pct)
        return self._annealing_linear(start, end, pct)

    @staticmethod
    def _annealing_cos(start: float, end: float, pct: float) -> float:
        """From `start` (pct 0) to `end` (pct 1) along half a cosine."""
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    @staticmethod
    def _annealing_linear(start: float, end: float, pct: float) -> float:
        """From `start` (pct 0) to `end` (pct 1) along a line."""
        return (end - start) * pct + start

    def get_lr(self) -> list:
        self._warn_outside_step()
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(f"Tried to step {step_num} times. The specified number of total "
                             f"steps is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            last = len(self._schedule_phases) - 1
            for index, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or index == last:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lrs.append(self._anneal_func(group[phase["start_lr"]],
                                                 group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        self._set_momentum(group, self._anneal_func(
                            group[phase["start_momentum"]], group[phase["end_momentum"]], pct))
                    break
                start_step = phase["end_step"]
        return lrs
