"""Selective checkpointing: a policy decides, operator by operator, which results of a
checkpointed block are kept from the forward (and handed back, not recomputed, when
backward runs the block again). Two dispatch modes do it, one around the forward and
one around the recomputation; `checkpoint(..., context_fn=...)` enters them."""
from __future__ import annotations

import enum
from collections import defaultdict
from typing import Callable

from ..aten import ops
from ..aten.dispatcher import has_operator
from ..c10.tensor_impl import TensorBase
from ._python_dispatch import TorchDispatchMode

__all__ = ["CheckpointPolicy", "SelectiveCheckpointContext",
           "create_selective_checkpoint_contexts", "SAC_IGNORED_OPS"]


class CheckpointPolicy(enum.Enum):
    """What to do with one operator's result in a selectively checkpointed block."""

    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


_SAVING = (CheckpointPolicy.MUST_SAVE, CheckpointPolicy.PREFER_SAVE,
           CheckpointPolicy.MUST_CPU_OFFLOAD, CheckpointPolicy.PREFER_CPU_OFFLOAD)


class SelectiveCheckpointContext:
    """What a policy function is told besides the operator: whether this is the
    recomputation."""

    def __init__(self, *, is_recompute: bool) -> None:
        self.is_recompute = is_recompute


def _ignored_ops() -> set:
    """The operators no policy is asked about: they read metadata or detach."""
    names = [("detach", "default"), ("size", "default"), ("stride", "default"),
             ("storage_offset", "default"), ("numel", "default"), ("dim", "default"),
             ("is_contiguous", "default"), ("is_contiguous", "memory_format")]
    found = set()
    for name, overload in names:
        if has_operator(name):
            packet = getattr(ops.aten, name)
            if overload in packet.overloads():
                found.add(getattr(packet, overload))
    return found


SAC_IGNORED_OPS = _ignored_ops()


def _policy(policy_fn_or_list) -> Callable:
    if callable(policy_fn_or_list):
        return policy_fn_or_list
    if isinstance(policy_fn_or_list, list):
        saved = list(policy_fn_or_list)

        def policy_fn(ctx, op, *args, **kwargs):
            return (CheckpointPolicy.MUST_SAVE if op in saved
                    else CheckpointPolicy.PREFER_RECOMPUTE)
        return policy_fn
    raise TypeError("policy_fn_or_list must be either a function or a list of ops.")


def _decide(policy_fn, is_recompute: bool, func, args, kwargs) -> bool:
    """Whether `func`'s result is kept from the forward."""
    if func in SAC_IGNORED_OPS:
        return False
    policy = policy_fn(SelectiveCheckpointContext(is_recompute=is_recompute), func, *args,
                       **kwargs)
    if isinstance(policy, bool):                  # torch's older policies answered a bool
        policy = CheckpointPolicy.MUST_SAVE if policy else CheckpointPolicy.PREFER_RECOMPUTE
    return policy in _SAVING


def _detached(value):
    if isinstance(value, TensorBase):
        return value.detach()
    if isinstance(value, (tuple, list)):
        return type(value)(_detached(v) for v in value)
    return value


class _CachingMode(TorchDispatchMode):
    """The forward's mode: keeps the results the policy saves."""

    def __init__(self, policy_fn: Callable, storage: dict) -> None:
        self.policy_fn = policy_fn
        self.storage = storage

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if _decide(self.policy_fn, False, func, args, kwargs):
            self.storage[func].append(_detached(out))
        return out


class _CachedMode(TorchDispatchMode):
    """The recomputation's mode: hands back the kept results in the order kept."""

    def __init__(self, policy_fn: Callable, storage: dict) -> None:
        self.policy_fn = policy_fn
        self.storage = storage

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if _decide(self.policy_fn, True, func, args, kwargs) and self.storage[func]:
            return self.storage[func].pop(0)
        return func(*args, **kwargs)


def create_selective_checkpoint_contexts(policy_fn_or_list, allow_cache_entry_mutation=False):
    """The two contexts of a selective checkpoint, for ``checkpoint(context_fn=...)``.

    Args:
        policy_fn_or_list: ``policy(ctx, op, *args, **kwargs) -> CheckpointPolicy``, or a
            list of operators whose results are kept (the rest are recomputed).
        allow_cache_entry_mutation: accepted for torch's signature.

    Returns:
        (the forward's context, the recomputation's context).

    Example::

        >>> context_fn = functools.partial(create_selective_checkpoint_contexts,
        ...                                [torch.ops.aten.mm.default])
        >>> checkpoint(block, x, use_reentrant=False, context_fn=context_fn)
    """
    policy_fn = _policy(policy_fn_or_list)
    storage: dict = defaultdict(list)
    return _CachingMode(policy_fn, storage), _CachedMode(policy_fn, storage)
