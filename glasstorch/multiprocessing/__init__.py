"""torch.multiprocessing: Python's multiprocessing, with torch's additions.

Every name of `multiprocessing` is here, so ``import torch.multiprocessing as mp`` stands
for it, plus `spawn`/`start_processes` (run a function in N processes, raising in the
parent what failed in a child) and the sharing-strategy settings. Tensors sent between
processes travel by pickling: the receiver gets a copy. torch instead moves a CPU
tensor's storage into shared memory, so that a child's in-place writes reach the
parent; glasstorch does not share storages between processes yet, and the strategy
setting records the choice only.
"""
import multiprocessing
from multiprocessing import *  # noqa: F401,F403

from .spawn import (ProcessContext, ProcessException, ProcessExitedException,  # noqa: F401
                    ProcessRaisedException, SpawnContext, spawn, start_processes)

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies"]
__all__ += multiprocessing.__all__

# the variable that makes `start_processes` start its processes in parallel (torch's
# fork server option; glasstorch starts them one after the other either way)
ENV_VAR_PARALLEL_START = "TORCH_MP_PARALLEL_START"
_ALL_STRATEGIES = frozenset({"file_descriptor", "file_system"})


def init_reductions() -> None:
    """Register how tensors are pickled between processes: glasstorch tensors pickle
    by value already, so there is nothing to register."""

_strategy = "file_descriptor"          # torch's default on Linux


def set_sharing_strategy(new_strategy: str) -> None:
    """Choose how tensors are shared between processes (``"file_descriptor"`` or
    ``"file_system"``)."""
    global _strategy
    assert new_strategy in _ALL_STRATEGIES, \
        f"invalid sharing strategy '{new_strategy}', expected one of {set(_ALL_STRATEGIES)}"
    _strategy = new_strategy


def get_sharing_strategy() -> str:
    """The current sharing strategy."""
    return _strategy


def get_all_sharing_strategies() -> set:
    """The sharing strategies this system supports."""
    return set(_ALL_STRATEGIES)
