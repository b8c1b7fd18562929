"""`torch.random`: seeding and saving the default generator's state.

Every random operator without ``generator=`` draws from `default_generator`, a
`torch.Generator` (c10/generator.py) seeded from the OS at import, as torch's is.
"""
from __future__ import annotations

import contextlib
from typing import Iterator

from .c10.generator import Generator, default_generator

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed",
           "get_rng_state", "set_rng_state", "fork_rng", "thread_safe_generator"]


def manual_seed(seed) -> Generator:
    """Seed the default generator and return it.

    Args:
        seed: an integer (anything `int()` accepts); negative values wrap to 64 bits.

    Example::

        >>> torch.manual_seed(0)
        <torch._C.Generator object at ...>
        >>> torch.rand(1)
        tensor([0.4963])
    """
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    """Seed the default generator from the OS and return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state: torch's 5056-byte uint8 tensor (interchangeable
    with torch's `torch.get_rng_state()`)."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the default generator from a state made by `get_rng_state`.

    Args:
        new_state: a uint8 tensor of 5056 bytes.
    """
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, _caller: str = "fork_rng",
             _devices_kw: str = "devices", device_type: str = "cuda") -> Iterator:
    """Run a block whose random draws leave the default generator as it was.

    Args:
        devices: accelerator devices whose generators to save too; glasstorch has
            none, so only the CPU generator is saved.
        enabled: when False, the block runs with the generators shared.

    Example::

        >>> torch.manual_seed(0)
        >>> with torch.random.fork_rng():
        ...     _ = torch.rand(3)
        >>> torch.rand(1)
        tensor([0.4963])
    """
    if not enabled or device_type == "meta":
        yield
        return
    saved = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(saved)


def thread_safe_generator() -> Generator | None:
    """The generator a DataLoader *thread* worker should draw from, or None to draw from
    the default generator: glasstorch's DataLoader workers are processes (each with its
    own default generator) or the main thread, so the answer is None, as torch's is
    there."""
    return None
