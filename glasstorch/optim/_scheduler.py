"""`LRScheduler`, the base class of every learning-rate schedule, and what the schedules
share: reading and writing each group's rate, one value per group.

The schedules themselves live in `lr_scheduler.py` (the chainable ones), `_sequential.py`,
`_one_cycle.py` and `_plateau.py`; `torch.optim.lr_scheduler` shows them all.
"""
from __future__ import annotations

import functools
import warnings
import weakref
from typing import Any

from ..c10.tensor_impl import TensorBase
from .optimizer import Optimizer, to_scalar

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


def group_values(optimizer: Optimizer, key: str) -> list:
    """Each group's `key` (tensor values cloned, so later in-place fills don't show)."""
    return [group[key].clone() if isinstance(group[key], TensorBase) else group[key]
            for group in optimizer.param_groups]


def set_lr(group: dict, value: Any) -> None:
    """Write `value` to ``group["lr"]``: in place when the group holds a tensor lr."""
    if isinstance(group["lr"], TensorBase):
        group["lr"].fill_(to_scalar(value))
    else:
        group["lr"] = value


def per_group(name: str, optimizer: Optimizer, value: Any) -> list:
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
        self.base_lrs: list = group_values(optimizer, "initial_lr")
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
            set_lr(group, lr)
        self._last_lr = group_values(self.optimizer, "lr")

    def _warn_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please "
                          "use `get_last_lr()`.", UserWarning, stacklevel=3)

    def _current_lrs(self) -> list:
        return group_values(self.optimizer, "lr")
