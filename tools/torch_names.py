"""Write glasstorch/aten/torch_names.txt: torch 2.13's public names, read from torch itself.

Run with torch installed (``python tools/torch_names.py``); glasstorch keeps the file it
writes and never imports torch. The file holds, per namespace, the names a program may
use (``[torch]``, ``[torch.Tensor]``, ``[torch.nn.functional]``, ...) and, under
``[submodules]``, the torch modules a program can import. glasstorch reads it only when a
name is missing, to say "glasstorch does not implement torch.<name> yet"
(`glasstorch/aten/torch_names.py`); `tools/coverage.py` and the coverage tests read it too.
"""
import importlib
import inspect
import pathlib
import pkgutil
import sys
import types
import warnings

import torch

OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "glasstorch" / "aten" / "torch_names.txt"

# The namespaces whose public names are listed: modules, and the classes Tensor, Size, dtype.
NAMESPACES = (
    "torch", "torch.Tensor", "torch.Size", "torch.dtype", "torch.cuda", "torch.backends",
    "torch.amp", "torch.autograd", "torch.random", "torch.testing", "torch.jit", "torch.hub",
    "torch.utils.checkpoint", "torch.serialization", "torch.nn", "torch.nn.functional",
    "torch.nn.init", "torch.linalg", "torch.fft", "torch.special", "torch.optim",
    "torch.optim.lr_scheduler", "torch.distributions", "torch.utils.data", "torch.func",
    # torch's smaller submodules (issue 14's modules scope)
    "torch.version", "torch.torch_version", "torch.types", "torch.functional", "torch.storage",
    "torch.nn.common_types", "torch.overrides", "torch.multiprocessing", "torch.library",
    "torch.quasirandom", "torch.utils.flop_counter", "torch.utils.module_tracker",
    "torch.utils.weak", "torch.utils.model_zoo", "torch.utils.deterministic",
    "torch.utils.collect_env", "torch.utils.file_baton", "torch.utils.backcompat",
    "torch.utils.cpp_extension", "torch.ao", "torch.quantization", "torch.nn.quantized",
    "torch.nn.qat", "torch.nn.intrinsic", "torch.nn.quantizable", "torch.masked",
    "torch.sparse", "torch.nested", "torch.package", "torch.monitor", "torch.nativert",
    "torch.numa", "torch.contrib", "torch.utils.hipify", "torch.utils.mobile_optimizer",
    "torch.utils.bundled_inputs", "torch.utils.model_dump", "torch.utils.viz",
    "torch.utils.jit", "torch.utils.mkldnn", "torch.utils.cpp_backtrace",
    "torch.utils.debug_log", "torch.utils.backend_registration", "torch.utils.show_pickle",
    "torch.utils.throughput_benchmark",
)
# Namespaces measured by their ``__all__`` alone (their dir() is mostly imports).
BY_ALL = ("torch.serialization",)
# Packages whose public child modules are listed under [submodules], with torch's own
# top-level modules: the imports programs write (``import torch.nn.functional as F``).
SUBMODULE_PARENTS = (
    "torch", "torch.nn", "torch.nn.utils", "torch.nn.parallel", "torch.utils",
    "torch.utils.data", "torch.backends", "torch.cuda", "torch.cpu", "torch.amp",
    "torch.autograd", "torch.optim",
)


def resolve(name: str):
    """The module or class named `name` (``torch.Tensor`` is an attribute of torch)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        parent, _, attribute = name.rpartition(".")
        return getattr(importlib.import_module(parent), attribute)


def is_torch_name(namespace: str, name: str, value) -> bool:
    """Whether `value` belongs to torch rather than being an import (os, typing.Any...)
    or a leftover (``torch.backends.m``, a loop variable holding the module itself)."""
    if name == "TYPE_CHECKING":
        return False
    if isinstance(value, types.ModuleType):
        return value.__name__.startswith("torch.") and value.__name__ != namespace
    if inspect.isclass(value) or callable(value):
        return (getattr(value, "__module__", None) or "").startswith("torch")
    return type(value).__module__.split(".")[0] in ("torch", "builtins")


def public_names(name: str) -> list:
    """The public names of one namespace, sorted."""
    namespace = resolve(name)
    if name in BY_ALL:
        return sorted(namespace.__all__)
    if inspect.isclass(namespace):
        return sorted(n for n in dir(namespace) if not n.startswith("_"))
    return sorted(n for n in dir(namespace)
                  if not n.startswith("_") and is_torch_name(name, n, getattr(namespace, n)))


def submodules() -> list:
    """The public torch modules that import, children of `SUBMODULE_PARENTS`."""
    found = set()
    for parent in SUBMODULE_PARENTS:
        package = importlib.import_module(parent)
        for child in pkgutil.iter_modules(package.__path__):
            if child.name.startswith("_"):
                continue
            name = f"{parent}.{child.name}"
            try:
                importlib.import_module(name)
            except Exception:          # needs what the CPU wheel lacks: not importable
                continue
            found.add(name)
    return sorted(found)


def sections() -> dict:
    """Every section of the data file: namespace -> names."""
    data = {name: public_names(name) for name in NAMESPACES}
    data["submodules"] = submodules()
    return data


def render(data: dict) -> str:
    """The data file's text: a header, then each section's names, wrapped."""
    lines = [f"# torch {torch.__version__}'s public names, written by tools/torch_names.py:",
             "# regenerate with that script, do not edit by hand."]
    for section, names in data.items():
        lines.append(f"[{section}]")
        line = ""
        for name in names:
            if line and len(line) + len(name) > 90:
                lines.append(line)
                line = ""
            line = f"{line} {name}" if line else name
        if line:
            lines.append(line)
    return "\n".join(lines) + "\n"


def main() -> None:
    warnings.simplefilter("ignore")          # torch's deprecated modules warn on import
    OUTPUT.write_text(render(sections()), encoding="utf-8")
    print(f"wrote {OUTPUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
