"""torch.utils.collect_env: the facts of this installation, for bug reports
(``python -m glasstorch.utils.collect_env``), in torch's layout.

glasstorch is pure Python over NumPy: no compiler, CUDA or ROCm stands behind it, so
those lines say N/A; the packages lines list the numerical libraries it runs on.
"""
from __future__ import annotations

import importlib.metadata
import platform
import sys
from collections import namedtuple

from ..version import __version__, debug

SystemEnv = namedtuple("SystemEnv", [
    "torch_version", "is_debug_build", "cuda_compiled_version", "os", "python_version",
    "python_platform", "is_cuda_available", "pip_packages", "cpu_info"])

_PACKAGES = ("glasstorch", "numpy", "ml_dtypes", "scipy", "torch")


def _installed(names) -> str:
    lines = []
    for name in names:
        try:
            lines.append(f"[pip3] {name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    return "\n".join(lines) or "Could not collect"


def get_env_info() -> SystemEnv:
    """The facts, as a SystemEnv."""
    bits = "64-bit" if sys.maxsize > 2 ** 32 else "32-bit"
    return SystemEnv(
        torch_version=str(__version__), is_debug_build=str(debug),
        cuda_compiled_version=None, os=f"{platform.system()} {platform.release()} "
                                       f"({platform.machine()})",
        python_version=f"{sys.version.replace(chr(10), ' ')} ({bits} runtime)",
        python_platform=platform.platform(), is_cuda_available="False",
        pip_packages=_installed(_PACKAGES), cpu_info=platform.processor() or "Could not collect")


def pretty_str(env: SystemEnv) -> str:
    """`env` as the report's text."""
    return "\n".join([
        f"PyTorch version: {env.torch_version}",
        f"Is debug build: {env.is_debug_build}",
        f"CUDA used to build PyTorch: {env.cuda_compiled_version or 'N/A'}",
        "ROCM used to build PyTorch: N/A", "",
        f"OS: {env.os}", "",
        f"Python version: {env.python_version}",
        f"Python platform: {env.python_platform}",
        f"Is CUDA available: {env.is_cuda_available}", "",
        "CPU:", env.cpu_info, "",
        "Versions of relevant libraries:", env.pip_packages])


def get_pretty_env_info() -> str:
    """The report torch's bug template asks for."""
    return pretty_str(get_env_info())


def main() -> None:
    print("Collecting environment information...")
    print(get_pretty_env_info())


if __name__ == "__main__":
    main()
