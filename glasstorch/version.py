"""torch.version: the facts of this build, as torch's CPU-only wheel states its own.

glasstorch is built for no accelerator, so every toolkit version is None; it is no debug
build, and it records no git revision.
"""
from typing import Optional  # noqa: F401  (torch.version exposes it too)

from .torch_version import TorchVersion

__all__ = ["__version__", "debug", "cuda", "git_version", "hip", "rocm", "xpu"]

__version__ = TorchVersion("2.13.0+glasstorch")
debug = False
cuda: Optional[str] = None
git_version = "Unknown"
hip: Optional[str] = None
rocm: Optional[str] = None
xpu: Optional[str] = None
