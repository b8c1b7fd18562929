"""torch.backends.mkldnn: oneDNN's switches (torch's CPU wheel has oneDNN)."""
from __future__ import annotations

import contextlib
import sys
import warnings

from . import install_flags

VERBOSE_OFF = 0
VERBOSE_ON = 1
VERBOSE_ON_CREATION = 2


def is_available() -> bool:
    """Whether oneDNN is available (torch's CPU wheel: yes)."""
    return True


class verbose:
    """A context for oneDNN's verbose output (NumPy computes here: nothing to print)."""

    def __init__(self, level: int) -> None:
        self.level = level

    def __enter__(self) -> "verbose":
        return self

    def __exit__(self, *exc) -> bool:
        return False


def set_flags(_enabled=None, _deterministic=None, _allow_tf32=None,
              _fp32_precision="none") -> tuple:
    """Set the flags given (None: unchanged); returns the previous ones."""
    module = sys.modules[__name__]
    previous = (module.enabled, module.deterministic, module.allow_tf32,
                module.fp32_precision)
    if _allow_tf32:
        warnings.warn("TF32 acceleration on top of oneDNN is available for Intel GPUs. The "
                      "current Torch version does not have Intel GPU Support.", stacklevel=3)
    for name, value in (("enabled", _enabled), ("deterministic", _deterministic),
                        ("allow_tf32", _allow_tf32)):
        if value is not None:
            module.set_flag(name, value)
    return previous


@contextlib.contextmanager
def flags(enabled=False, deterministic=False, allow_tf32=True, fp32_precision="none"):
    """A context with oneDNN's flags set as given."""
    previous = set_flags(enabled, deterministic, allow_tf32)
    try:
        yield
    finally:
        set_flags(*previous[:3])


install_flags(__name__, {"enabled": True, "deterministic": False, "allow_tf32": None,
                         "fp32_precision": "none"},
              {"enabled": "set_enabled_mkldnn", "deterministic": "set_deterministic_mkldnn"})
