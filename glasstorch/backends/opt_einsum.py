"""torch.backends.opt_einsum: contraction-order search for einsum, through the opt_einsum
package when installed (it is not used here: einsum contracts with NumPy)."""
from __future__ import annotations

import contextlib
import importlib.util
import sys

from . import install_flags


def is_available() -> bool:
    """Whether the opt_einsum package is installed."""
    return importlib.util.find_spec("opt_einsum") is not None


def get_opt_einsum():
    """The opt_einsum package, or None when it is not installed."""
    return importlib.import_module("opt_einsum") if is_available() else None


@contextlib.contextmanager
def flags(enabled=None, strategy=None):
    """A context with the flags given (None: unchanged)."""
    module = sys.modules[__name__]
    saved = (module.enabled, module.strategy)
    if enabled is not None:
        module.enabled = enabled
    if strategy is not None:
        module.strategy = strategy
    try:
        yield
    finally:
        module.enabled, module.strategy = saved


install_flags(__name__, {"enabled": is_available(), "strategy": "auto" if is_available()
                         else None}, {})
