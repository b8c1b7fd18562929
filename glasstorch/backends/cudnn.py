"""torch.backends.cudnn: cuDNN's switches; a CPU-only build has no cuDNN."""
from __future__ import annotations

import contextlib
import sys

from . import install_flags

_DEFAULTS = {"enabled": True, "benchmark": False, "benchmark_limit": None,
             "deterministic": False, "allow_tf32": True, "fp32_precision": "none"}


def is_available() -> bool:
    """Whether cuDNN is available: not in this build."""
    return False


def version():
    """The cuDNN version (None: not built with it)."""
    return None


def is_acceptable(tensor) -> bool:
    """Whether cuDNN would run on `tensor`: only CUDA tensors, with cuDNN enabled."""
    return False


def set_flags(_enabled=None, _benchmark=None, _benchmark_limit=None, _deterministic=None,
              _allow_tf32=None, _fp32_precision="none", _depthwise_kernel=None) -> tuple:
    """Set the flags given (None: unchanged); returns the previous ones."""
    module = sys.modules[__name__]
    previous = (module.enabled, module.benchmark, module.benchmark_limit,
                module.deterministic, module.allow_tf32, module.fp32_precision, "auto")
    for name, value in (("enabled", _enabled), ("benchmark", _benchmark),
                        ("benchmark_limit", _benchmark_limit),
                        ("deterministic", _deterministic), ("allow_tf32", _allow_tf32)):
        if value is not None:
            module.set_flag(name, value)
    return previous


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False,
          allow_tf32=True, fp32_precision="none", depthwise_kernel="auto"):
    """A context with cuDNN's flags set as given (torch's defaults: cuDNN off)."""
    previous = set_flags(enabled, benchmark, benchmark_limit, deterministic, allow_tf32)
    try:
        yield
    finally:
        set_flags(*previous[:5])


install_flags(__name__, _DEFAULTS, {"enabled": "set_enabled_cudnn",
                                    "benchmark": "set_benchmark_cudnn",
                                    "deterministic": "set_deterministic_cudnn",
                                    "allow_tf32": "set_allow_tf32_cudnn"})
