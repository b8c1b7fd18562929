"""torch.utils.cpp_extension: importable, but building C++ extensions is refused.

glasstorch is written in Python over NumPy: there is no C++ library to compile against
or link with, so `load`, `load_inline` and the setuptools extensions raise at once,
saying so.
"""
from __future__ import annotations

import sys

from ..torch_version import TorchVersion  # noqa: F401  (torch's module exposes it)
from .file_baton import FileBaton  # noqa: F401

CUDA_HOME = None
CUDNN_HOME = None
ROCM_HOME = None
HIP_HOME = None
SYCL_HOME = None
IS_HIP_EXTENSION = False
IS_LINUX = sys.platform.startswith("linux")
IS_MACOS = sys.platform.startswith("darwin")
IS_WINDOWS = sys.platform == "win32"

_REFUSAL = ("glasstorch has no C++ library to build extensions against (it is pure Python "
            "over NumPy): torch.utils.cpp_extension.{} is not available; write the "
            "operator in Python with torch.library.custom_op instead")


def _refuse(name: str):
    def refused(*args, **kwargs):
        raise RuntimeError(_REFUSAL.format(name))
    refused.__name__ = refused.__qualname__ = name
    refused.__doc__ = f"Refused: {_REFUSAL.format(name)}."
    return refused


load = _refuse("load")
load_inline = _refuse("load_inline")
CppExtension = _refuse("CppExtension")
CUDAExtension = _refuse("CUDAExtension")
SyclExtension = _refuse("SyclExtension")
BuildExtension = _refuse("BuildExtension")
include_paths = _refuse("include_paths")
library_paths = _refuse("library_paths")


def is_ninja_available() -> bool:
    """Whether ninja could build extensions: never, here."""
    return False


def verify_ninja_availability() -> None:
    raise RuntimeError("Ninja is required to load C++ extensions")
