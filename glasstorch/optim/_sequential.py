"""Schedulers of schedulers: `SequentialLR` (each in charge from its milestone) and
`ChainedScheduler` (all stepped together, their effects multiplied)."""
from __future__ import annotations

from bisect import bisect_right
from typing import Any

from ._scheduler import LRScheduler, group_values, set_lr
from .optimizer import Optimizer


def _nested_state_dict(self) -> dict[str, Any]:
    """The attributes, with each scheduler's own state dict."""
    state = {key: value for key, value in self.__dict__.items()
             if key not in ("optimizer", "_schedulers")}
    state["_schedulers"] = [scheduler.state_dict() for scheduler in self._schedulers]
    return state


def _nested_load_state_dict(self, state_dict: dict[str, Any]) -> None:
    """Restore the attributes and each scheduler's state."""
    saved = state_dict.pop("_schedulers")
    self.__dict__.update(state_dict)
    state_dict["_schedulers"] = saved
    for scheduler, state in zip(self._schedulers, saved):
        scheduler.load_state_dict(state)


class SequentialLR(LRScheduler):
    """Hand the schedule from one scheduler to the next at each milestone.

    At a milestone the next scheduler restarts from its epoch 0 (its closed form at 0);
    between milestones the active scheduler steps as usual.

    Args:
        optimizer (Optimizer): the wrapped optimizer (every scheduler's).
        schedulers (list): the schedulers, in order (not `ReduceLROnPlateau`).
        milestones (list of int): the epochs at which the next scheduler takes over
            (one fewer than the schedulers).
        last_epoch (int): the index of the last epoch (default: -1).

    Example::

        >>> warmup = LinearLR(opt, start_factor=0.1, total_iters=5)
        >>> decay = ExponentialLR(opt, gamma=0.9)
        >>> sched = SequentialLR(opt, schedulers=[warmup, decay], milestones=[5])
    """

    def __init__(self, optimizer: Optimizer, schedulers: list, milestones: list,
                 last_epoch: int = -1) -> None:
        _check_schedulers(self, optimizer, schedulers, "")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                "than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to "
                f"{len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # Constructing the schedulers stepped each once: undo that, and start over
        # from the first one's epoch 0.
        for group in self.optimizer.param_groups:
            set_lr(group, group["initial_lr"])
        self.recursive_undo()
        index = bisect_right(self._milestones, 0)
        self._schedulers[index]._initial_step()
        self._last_lr = schedulers[index].get_last_lr()

    def recursive_undo(self, sched: Any = None) -> None:
        """Take one epoch back from every scheduler (nested sequences included)."""
        target = self if sched is None else sched
        if hasattr(target, "_schedulers"):
            for scheduler in target._schedulers:
                self.recursive_undo(scheduler)
        elif hasattr(target, "last_epoch"):
            target.last_epoch -= 1

    def step(self) -> None:
        """Advance one epoch with the scheduler in charge of it."""
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    state_dict = _nested_state_dict
    load_state_dict = _nested_load_state_dict


class ChainedScheduler(LRScheduler):
    """Step several schedulers together, every step: chainable schedules compose
    (their factors multiply).

    Args:
        schedulers (sequence): the schedulers (not `ReduceLROnPlateau`).
        optimizer (Optimizer, optional): their optimizer (default: the first one's).

    Example::

        >>> sched = ChainedScheduler([ConstantLR(opt, factor=0.1, total_iters=2),
        ...                           ExponentialLR(opt, gamma=0.9)])
    """

    def __init__(self, schedulers: list, optimizer: Optimizer | None = None) -> None:
        optimizer = optimizer or (schedulers[0].optimizer if schedulers else None)
        _check_schedulers(self, optimizer, schedulers, " to be chained")
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = group_values(schedulers[-1].optimizer, "lr")

    def step(self) -> None:
        """Step every scheduler, in order."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = group_values(self._schedulers[-1].optimizer, "lr")

    state_dict = _nested_state_dict
    load_state_dict = _nested_load_state_dict


def _check_schedulers(owner: LRScheduler, optimizer: Optimizer, schedulers: list,
                      purpose: str) -> None:
    from ._plateau import ReduceLROnPlateau
    name = type(owner).__name__
    if len(schedulers) < 1:
        raise ValueError(f"{name} expects at least one scheduler{purpose}, but got no "
                         "scheduler.")
    for index, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {index} should have `optimizer` as its "
                            "attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{name} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at index "
                f"{index} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{name} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {type(scheduler).__name__} at index {index} has "
                f"{scheduler.optimizer}, which is different from {type(optimizer).__name__}.")
