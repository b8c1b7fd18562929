"""torch.cuda.random, without CUDA: seeds are kept for later, states refuse.

torch queues a seeding until CUDA initialises (which never happens here), so
`manual_seed` and `seed` succeed and do nothing visible; reading a generator's state
initialises CUDA and refuses.
"""
from __future__ import annotations

from ._unavailable import lazy_init

__all__ = ["get_rng_state", "get_rng_state_all", "set_rng_state", "set_rng_state_all",
           "manual_seed", "manual_seed_all", "seed", "seed_all", "initial_seed"]


def get_rng_state(device="cuda"):
    """The state of a CUDA generator as a ByteTensor (AssertionError: no CUDA)."""
    lazy_init()


def get_rng_state_all() -> list:
    """The states of every CUDA generator: none."""
    return []


def set_rng_state(new_state, device="cuda") -> None:
    """Set a CUDA generator's state, once CUDA initialises (never, here)."""
    new_state.clone()


def set_rng_state_all(new_states) -> None:
    """Set the state of each CUDA generator from `new_states`."""
    for index, state in enumerate(new_states):
        set_rng_state(state, index)


def manual_seed(seed: int) -> None:
    """Seed the current CUDA generator (kept for a device that never comes).

    Example::

        >>> torch.cuda.manual_seed(0)    # safe to call without a GPU
    """
    int(seed)


def manual_seed_all(seed: int) -> None:
    """Seed every CUDA generator (kept for devices that never come)."""
    int(seed)


def seed() -> None:
    """Seed the current CUDA generator from a random number."""


def seed_all() -> None:
    """Seed every CUDA generator from a random number."""


def initial_seed() -> int:
    """The current CUDA generator's initial seed (AssertionError: no CUDA)."""
    lazy_init()
