"""torch.nn.attention: which kernels `scaled_dot_product_attention` may use.

`sdpa_kernel` sets, for the length of a ``with`` block, the switches of
`torch.backends.cuda` (``enable_flash_sdp`` and its siblings), as torch's sets its
context's flags, and puts the previous ones back afterwards. No flash-attention library
can be registered here: the list of registered implementations is empty.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterable

import glasstorch as torch

__all__ = ["SDPBackend", "sdpa_kernel", "WARN_FOR_UNFUSED_KERNELS",
           "register_flash_attention_impl", "activate_flash_attention_impl",
           "list_flash_attention_impls", "current_flash_attention_impl",
           "restore_flash_attention_impl"]

# Set True to be told why a fused kernel could not run (no fused kernel warns on CPU).
WARN_FOR_UNFUSED_KERNELS = False

SDPBackend = torch.backends.cuda.SDPBackend

# each switch of torch.backends.cuda and the backend it allows
_SWITCHES = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
             "mem_efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH}


def _enabled_backends() -> list:
    return [backend for name, backend in _SWITCHES.items()
            if getattr(torch.backends.cuda, f"{name}_sdp_enabled")()]


def _allow_only(backends: Iterable) -> None:
    allowed = set(backends)
    for name, backend in _SWITCHES.items():
        getattr(torch.backends.cuda, f"enable_{name}_sdp")(backend in allowed)


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority: bool = False):
    """Allow only `backends` for `scaled_dot_product_attention` inside the block.

    Args:
        backends (SDPBackend or list of SDPBackend): the kernels allowed.
        set_priority (bool): whether the list's order is the order to try them in.

    Example::

        >>> with sdpa_kernel(SDPBackend.MATH):
        ...     torch.backends.cuda.flash_sdp_enabled()
        False
    """
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of "
                             f"SDPBackend instances, got {type(backends).__name__}")
    if isinstance(backends, SDPBackend):
        backends = [backends]
    previous = _enabled_backends()
    try:
        _allow_only(dict.fromkeys(backends))
        yield {}
    finally:
        _allow_only(previous)


# registered flash-attention libraries: name -> the function that installs it; the active one
_IMPLS: dict = {}
_ACTIVE: list = [None]


def register_flash_attention_impl(impl: str, *, register_fn) -> None:
    """Register a flash-attention library under a name (`activate_...` then uses it)."""
    _IMPLS[impl] = register_fn


def list_flash_attention_impls() -> list[str]:
    """The names of the registered flash-attention libraries."""
    return sorted(_IMPLS)


def activate_flash_attention_impl(impl: str) -> None:
    """Use the registered flash-attention library `impl`."""
    if impl not in _IMPLS:
        raise ValueError(f"Unknown flash attention impl '{impl}'. Available implementations: "
                         f"{list_flash_attention_impls()}")
    _ACTIVE[0] = impl
    _IMPLS[impl]()


def current_flash_attention_impl() -> str | None:
    """The name of the active flash-attention library, or None."""
    return _ACTIVE[0]


def restore_flash_attention_impl() -> None:
    """Go back to the built-in flash-attention kernel."""
    _ACTIVE[0] = None

