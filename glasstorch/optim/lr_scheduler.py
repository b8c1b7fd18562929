"""torch.optim.lr_scheduler: learning-rate schedules that rewrite each group's ``"lr"``.

A scheduler is stepped once per epoch (or per batch), after the optimizer. Most
schedules are *chainable*: `get_lr` computes the new rate from the group's current one
(``lr * gamma``, a ratio of cosines, ...), so that two schedulers on one optimizer
compose their effects. The float values follow torch's formulas operation for
operation, so that the sequence of rates is torch's to the last bit. A few keep a
*closed form* (`_get_closed_form_lr`, from the epoch number alone), used when `step` is
given an explicit (deprecated) epoch.

`ReduceLROnPlateau` (in `_plateau.py`) watches a metric instead of counting epochs.
"""
from __future__ import annotations

import functools
import math
import warnings
import weakref
from bisect import bisect_right
from collections import Counter
from typing import Any, Callable, Iterable
import types

from ..c10.tensor_impl import TensorBase
from .optimizer import Optimizer, to_scalar

__all__ = ["LRScheduler", "LambdaLR", "StepLR", "MultiStepLR", "ExponentialLR",
           "CosineAnnealingLR", "LinearLR", "SequentialLR", "OneCycleLR",
           "ReduceLROnPlateau"]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated "
    "where possible. Please use `scheduler.step()` to step the scheduler. During the "
    "deprecation, if epoch is different from None, the closed form is used instead of the "
    "new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.")

_OVERRIDDEN_STEP_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    "`lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")

_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
    "value of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")


def _group_values(optimizer: Optimizer, key: str) -> list:
    """Each group's `key` (tensor values cloned, so later in-place fills don't show)."""
    return [group[key].clone() if isinstance(group[key], TensorBase) else group[key]
            for group in optimizer.param_groups]


def _set_lr(group: dict, value: Any) -> None:
    """Write `value` to ``group["lr"]``: in place when the group holds a tensor lr."""
    if isinstance(group["lr"], TensorBase):
        group["lr"].fill_(to_scalar(value))
    else:
        group["lr"] = value


def _per_group(name: str, optimizer: Optimizer, value: Any) -> list:
    """One value per parameter group (a list or tuple must already have one each)."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has "
                             f"{len(optimizer.param_groups)}.")
    else:
        value = [value] * len(optimizer.param_groups)
    return [v.clone() if isinstance(v, TensorBase) else v for v in value]


def _track_step_calls(scheduler: "LRScheduler") -> None:
    """Wrap the optimizer's bound `step` so that it records having been called: the
    scheduler's first step warns when the optimizer has not stepped yet."""
    optimizer = scheduler.optimizer
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    optimizer_ref = weakref.ref(optimizer)
    method = optimizer.step.__func__

    @functools.wraps(method)
    def step(*args, **kwargs):
        owner = optimizer_ref()
        owner._opt_called = True
        return method.__get__(owner, type(owner))(*args, **kwargs)
    step._wrapped_by_lr_sched = True
    optimizer.step = step


class LRScheduler:
    """Base class of the epoch-counting schedulers.

    Args:
        optimizer (Optimizer): the optimizer whose groups' ``"lr"`` it sets.
        last_epoch (int): the index of the last epoch, -1 for a fresh start (then each
            group's current lr is saved as ``"initial_lr"``; resuming needs it there).

    Construction performs the first step (epoch 0). Subclasses write `get_lr`.
    """

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                initial_lr = group["lr"]
                if isinstance(initial_lr, TensorBase):
                    initial_lr = initial_lr.clone()
                group.setdefault("initial_lr", initial_lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        "resuming scheduler with last_epoch >= 0.\nThis typically happens "
                        "when:\n1. You're trying to resume training from a checkpoint but "
                        "haven't properly loaded the optimizer state\n2. You're using "
                        "last_epoch >= 0 for a fresh training run (not recommended)")
        self.base_lrs: list = _group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _track_step_calls(self)
        self._initial_step()

    def _initial_step(self) -> None:
        """The step made at construction (`get_lr` sees ``_is_initial``)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict[str, Any]:
        """Every attribute but the optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes saved by `state_dict`."""
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list:
        """The learning rates the last step set, one per group."""
        return self._last_lr

    def get_lr(self) -> list:
        """The learning rates of the current epoch (called by `step`)."""
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (or, deprecated, jump to `epoch`) and set the groups' lr."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(_OVERRIDDEN_STEP_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            _set_lr(group, lr)
        self._last_lr = _group_values(self.optimizer, "lr")

    def _warn_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please "
                          "use `get_last_lr()`.", UserWarning, stacklevel=3)

    def _current_lrs(self) -> list:
        return _group_values(self.optimizer, "lr")


class _LRScheduler(LRScheduler):
    """The old name of `LRScheduler`, kept for code that subclasses it."""


class LambdaLR(LRScheduler):
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
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got "
                                 f"{len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        """The attributes; of the lambdas only callable objects' `__dict__` (plain
        functions cannot be saved, and are saved as None)."""
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

    def get_lr(self) -> list:
        self._warn_outside_step()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas,
                                                                     self.base_lrs)]


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


from ._sequential import SequentialLR  # noqa: E402  (they subclass LRScheduler)
from ._one_cycle import OneCycleLR  # noqa: E402
from ._plateau import ReduceLROnPlateau  # noqa: E402

for _scheduler in (SequentialLR, OneCycleLR, ReduceLROnPlateau):
    _scheduler.__module__ = __name__        # where torch (and pickle) find them
