"""torch.optim.lr_scheduler: learning-rate schedules that rewrite each group's ``"lr"``.

A scheduler is stepped once per epoch (or per batch), after the optimizer. Most
schedules are *chainable*: `get_lr` computes the new rate from the group's current one
(``lr * gamma``, a ratio of cosines, ...), so that two schedulers on one optimizer
compose their effects. The float values follow torch's formulas operation for
operation, so that the sequence of rates is torch's to the last bit. A few keep a
*closed form* (`_get_closed_form_lr`, from the epoch number alone), used when `step` is
given an explicit (deprecated) epoch.

The base class, `LRScheduler`, is in `_scheduler.py`; `SequentialLR`, `OneCycleLR` and
`ReduceLROnPlateau` (which watches a metric instead of counting epochs) have files of
their own. This module shows them all, as torch's does.
"""
from __future__ import annotations

import math
import types
from bisect import bisect_right
from collections import Counter
from math import inf  # noqa: F401 (among torch's names of this module)
from typing import Any, Callable, Iterable

from .._tensor import Tensor  # noqa: F401 (among torch's names of this module)
from ._cyclic import CosineAnnealingWarmRestarts, CyclicLR
from ._one_cycle import OneCycleLR
from ._plateau import ReduceLROnPlateau
from ._scheduler import EPOCH_DEPRECATION_WARNING, LRScheduler  # noqa: F401
from ._sequential import ChainedScheduler, SequentialLR
from .optimizer import Optimizer

__all__ = ["LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR",
           "LinearLR", "ExponentialLR", "SequentialLR", "CosineAnnealingLR",
           "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
           "CosineAnnealingWarmRestarts", "OneCycleLR", "PolynomialLR", "LRScheduler"]


class _LRScheduler(LRScheduler):
    """The old name of `LRScheduler`, kept for code that subclasses it."""


def _lambda_list(optimizer: Optimizer, lr_lambda: Callable | list) -> list:
    """One lambda per group: a single function is shared, a list must have one each."""
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got "
                         f"{len(lr_lambda)}")
    return list(lr_lambda)


class _LambdaState:
    """The checkpoint of a schedule driven by `lr_lambdas`: of the lambdas only callable
    objects' `__dict__` is saved (plain functions cannot be, and are saved as None)."""

    def state_dict(self) -> dict[str, Any]:
        """The attributes but the optimizer, and each callable object's fields."""
        state = {key: value for key, value in self.__dict__.items()
                 if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes and the callable objects' saved fields."""
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas
        for fn, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)


class LambdaLR(_LambdaState, LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        lr_lambda (function or list): a function of the epoch, or one per group.
        last_epoch (int): the index of the last epoch (default: -1).

    Example::

        >>> sched = LambdaLR(opt, lr_lambda=lambda epoch: 0.95 ** epoch)
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable | list,
                 last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambda_list(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas,
                                                                     self.base_lrs)]


class MultiplicativeLR(_LambdaState, LRScheduler):
    """Multiply the lr by ``lr_lambda(epoch)`` every epoch (from epoch 1).

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        lr_lambda (function or list): the factor as a function of the epoch, or one
            function per group.
        last_epoch (int): the index of the last epoch (default: -1).

    Example::

        >>> sched = MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.95)
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable | list,
                 last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambda_list(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [group["lr"] * fn(self.last_epoch)
                for fn, group in zip(self.lr_lambdas, self.optimizer.param_groups)]


class StepLR(LRScheduler):
    """Multiply the lr by `gamma` every `step_size` epochs.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        step_size (int): the period of the decay, in epochs.
        gamma (float): the decay factor (default: 0.1).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size)
                for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the lr by `gamma` at each milestone epoch (twice for a repeated one).

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        milestones (iterable of int): the epochs of the decays.
        gamma (float): the decay factor (default: 0.1).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch not in self.milestones:
            return self._current_lrs()
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch]
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch)
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """Scale the lr by a factor going linearly from `start_factor` to `end_factor`
    over `total_iters` epochs, then keep it.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        start_factor (float): the factor at epoch 0, in (0, 1] (default: 1/3).
        end_factor (float): the factor from epoch `total_iters` on, in [0, 1]
            (default: 1.0).
        total_iters (int): the length of the ramp (default: 5).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 "
                             "and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current_lrs()
        # the ratio of this epoch's factor to the previous one (chainable form)
        change = self.end_factor - self.start_factor
        ratio = 1.0 + change / (self.total_iters * self.start_factor
                                + (self.last_epoch - 1) * change)
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        change = self.end_factor - self.start_factor
        return [base_lr * (self.start_factor + change * min(self.total_iters, self.last_epoch)
                           / self.total_iters) for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """Scale the lr by a constant `factor` until epoch `total_iters`, then restore it.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        factor (float): the scale, in [0, 1] (default: 1/3).
        total_iters (int): the epoch at which the scaling stops (default: 5).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        groups = self.optimizer.param_groups
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in groups]
        if self.last_epoch != self.total_iters:
            return self._current_lrs()
        return [group["lr"] * (1.0 / self.factor) for group in groups]

    def _get_closed_form_lr(self) -> list:
        reached = self.last_epoch >= self.total_iters
        return [base_lr * (self.factor + reached * (1 - self.factor))
                for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the lr as ``initial_lr * (1 - epoch / total_iters) ** power`` until
    `total_iters`, then keep it.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        total_iters (int): the number of decaying epochs (default: 5).
        power (float): the power of the polynomial (default: 1.0).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current_lrs()
        # this epoch's factor over the previous one's (chainable form)
        ratio = ((1.0 - self.last_epoch / self.total_iters)
                 / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters)
                ** self.power for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the lr by `gamma` every epoch.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        gamma (float): the decay factor.
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Anneal the lr from its initial value to `eta_min` along half a cosine over
    `T_max` epochs (and back up over the next `T_max`, and so on).

    The rate is updated recursively, from the previous epoch's (so that it chains
    with other schedulers): each step multiplies the distance to `eta_min` by the ratio
    of ``1 + cos(pi * t / T_max)`` at this epoch and the previous one.

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        T_max (int): the number of epochs of half a period.
        eta_min (float): the lowest lr (default: 0.0).
        last_epoch (int): the index of the last epoch (default: -1).
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        groups = self.optimizer.param_groups
        if self._is_initial:
            return self._current_lrs()
        if self._step_count == 1 and self.last_epoch > 0:
            return [self.eta_min + (base_lr - self.eta_min)
                    * (1 + math.cos(self.last_epoch * math.pi / self.T_max)) / 2
                    for base_lr in self.base_lrs]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            # leaving the bottom of the cosine, where the ratio would divide by zero
            return [group["lr"] + (base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max))
                    / 2 for base_lr, group in zip(self.base_lrs, groups)]
        ratio = (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / (
            1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
        return [ratio * (group["lr"] - self.eta_min) + self.eta_min for group in groups]

    def _get_closed_form_lr(self) -> list:
        return [self.eta_min + (base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


for _scheduler in (LRScheduler, SequentialLR, ChainedScheduler, OneCycleLR, ReduceLROnPlateau,
                   CyclicLR, CosineAnnealingWarmRestarts):
    _scheduler.__module__ = __name__        # where torch (and pickle) find them
