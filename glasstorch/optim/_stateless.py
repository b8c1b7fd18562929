"""`swap_in_optimizer_params_and_state`: run an optimizer, for the length of a ``with``
block, on other parameter tensors and another state (given in `state_dict`'s packed
form), leaving the live optimizer as it was afterwards."""
from __future__ import annotations

import contextlib
from collections import defaultdict
from typing import Any, Iterator

from ..c10.tensor_impl import TensorBase
from .optimizer import Optimizer

_NAME = "swap_in_optimizer_params_and_state"


def _check_state(state: Any) -> dict:
    if not isinstance(state, dict):
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['state'] to be a dict "
                           "mapping packed parameter ids to per-param state dicts, got "
                           f"{type(state).__name__}.")
    if any(isinstance(key, TensorBase) for key in state):
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style state keyed by "
                           "packed parameter ids.")
    if any(isinstance(key, int) and not isinstance(value, dict) for key, value in state.items()):
        raise RuntimeError(f"{_NAME} requires per-parameter optimizer state entries to be "
                           "dictionaries.")
    return state


def _check_groups(optimizer: Optimizer, groups: Any) -> list:
    if not isinstance(groups, list):
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['param_groups'] to be a "
                           f"list of param-group dicts, got {type(groups).__name__}.")
    if len(optimizer.param_groups) != len(groups):
        raise RuntimeError("swapin_optim_state has a different number of parameter groups "
                           "than the live optimizer.")
    return groups


def _check_group(index: int, group: dict, swapin: Any) -> list:
    """The packed ids of a swap-in group, which must have the live group's keys."""
    if not isinstance(swapin, dict):
        raise RuntimeError(f"{_NAME} requires each optimizer param group to be a dictionary.")
    ids = swapin.get("params")
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style "
                           "param_groups[*]['params'] entries keyed by packed parameter ids.")
    if len(group["params"]) != len(ids):
        raise RuntimeError(f"swapin_optim_state param group {index} has a different number "
                           "of params than the live optimizer param group.")
    swapin_only = [key for key in swapin if key not in group]
    live_only = [key for key in group if key not in swapin]
    if swapin_only or live_only:
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style param group keys "
                           "to exactly match the live optimizer group keys for group "
                           f"{index}. Keys only in swap-in: {swapin_only}. Keys only in "
                           f"live: {live_only}.")
    return ids


def _swap_plan(optimizer: Optimizer, parameters: dict, optim_state: Any) -> tuple[dict, list]:
    """The packed state and, per group, (live group, swap-in group, swap-in tensors)."""
    if not optimizer.state:
        raise RuntimeError(f"{_NAME} requires initialized optimizer state.")
    if not isinstance(optim_state, dict):
        raise RuntimeError(f"{_NAME} requires a DCP-style optimizer state_dict.")
    state = _check_state(optim_state.get("state"))
    groups = _check_groups(optimizer, optim_state.get("param_groups"))
    tensors = list(parameters.values())
    offset, seen, plan = 0, set(), []
    for index, (group, swapin) in enumerate(zip(optimizer.param_groups, groups)):
        ids = _check_group(index, group, swapin)
        seen.update(ids)
        if offset + len(ids) > len(tensors):
            raise RuntimeError(f"{_NAME} requires the explicit parameter state to match "
                               "optimizer.param_groups ordering.")
        plan.append((group, swapin, tensors[offset:offset + len(ids)]))
        offset += len(ids)
    extra = [key for key in state if key not in seen]
    if extra:
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['state'] to be keyed only by "
                           f"packed parameter ids from param_groups[*]['params']; got extra "
                           f"keys {extra!r}.")
    return state, plan


@contextlib.contextmanager
def swap_in_optimizer_params_and_state(optimizer: Optimizer, swapin_parameters: dict,
                                       swapin_optim_state: dict) -> Iterator[None]:
    """Within the block, `optimizer` works on `swapin_parameters` with the state and
    group options of `swapin_optim_state`; on exit its own come back.

    Args:
        optimizer (Optimizer): the live optimizer (its state already initialized).
        swapin_parameters (dict): name to tensor, in the order of the optimizer's
            parameters (``model.named_parameters()`` order, usually).
        swapin_optim_state (dict): a `state_dict`-shaped dict (state keyed by packed
            ids). Its state tensors are used as they are, so in-place updates reach
            it; anything else the step assigns is dropped on exit.

    Example::

        >>> with swap_in_optimizer_params_and_state(opt, dict(copy.named_parameters()),
        ...                                         saved_state):
        ...     opt.step()
    """
    packed, plan = _swap_plan(optimizer, swapin_parameters, swapin_optim_state)
    live_state = optimizer.state
    snapshots = [dict(group) for group in optimizer.param_groups]
    try:
        state: defaultdict = defaultdict(dict)
        for group, swapin, tensors in plan:
            group.update({key: value for key, value in swapin.items() if key != "params"})
            group["params"] = tensors
            for tensor, packed_id in zip(tensors, swapin["params"]):
                state[tensor] = dict(packed.get(packed_id, {}))
        optimizer.state = state
        yield
    finally:
        for group, snapshot in zip(optimizer.param_groups, snapshots):
            group.clear()
            group.update(snapshot)
        optimizer.state = live_state
