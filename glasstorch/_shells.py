"""Torch modules glasstorch has only as shells: importable, each name saying it is not
implemented yet.

Note [Shell modules]
    Some torch modules are imported by programs that never use them on the CPU
    (``import torch.ao.quantization`` at the top of a file, ``torch.utils.mobile_optimizer``
    in an export path), or belong to areas glasstorch has not built (quantization, sparse
    and nested tensors, packaging). Failing at the import would stop such a program before
    its first line of real work, so these modules import as *shells*: a `ShellModule`
    whose every public name raises AttributeError "glasstorch does not implement
    torch.<module>.<name> yet" (torch's names per module are in aten/torch_names.txt, for
    ``dir()``). One import finder, `ShellModules`, answers for all of them (`SHELLS` is the
    list); a module glasstorch writes for real is found before it, by the path finder, and
    the shell is never made.
"""
from __future__ import annotations

import importlib.machinery
import types

from .aten.torch_names import not_implemented, torch_names, torch_spelling

SHELLS = frozenset("""
    torch.ao torch.ao.quantization torch.ao.nn torch.ao.nn.quantized torch.ao.nn.qat
    torch.ao.nn.intrinsic torch.ao.nn.quantizable torch.ao.pruning torch.ao.ns
    torch.quantization torch.nn.quantized torch.nn.qat torch.nn.intrinsic
    torch.nn.quantizable torch.nn.cpp torch.nn.backends torch.sparse
    torch.nested torch.package
    torch.monitor torch.nativert torch.numa torch.contrib
    torch.utils.hipify torch.utils.mobile_optimizer torch.utils.bundled_inputs
    torch.utils.model_dump torch.utils.viz torch.utils.jit torch.utils.mkldnn
    torch.utils.cpp_backtrace torch.utils.debug_log torch.utils.backend_registration
    torch.utils.show_pickle torch.utils.throughput_benchmark
""".split())


class ShellModule(types.ModuleType):
    """A torch module glasstorch has not written: every public name raises, saying so."""

    def __getattr__(self, name: str):
        if name.startswith("__"):           # Python's own probes (__wrapped__, __file__...)
            raise AttributeError(f"module '{self.__name__}' has no attribute '{name}'")
        qualified = f"{torch_spelling(self.__name__)}.{name}"
        raise AttributeError(f"module '{self.__name__}' has no attribute '{name}': "
                             f"{not_implemented(qualified)}", obj=self)

    def __dir__(self) -> list:
        return sorted(set(vars(self)) | torch_names(torch_spelling(self.__name__)))


class ShellModules:
    """The import finder (and loader) making the modules of `SHELLS`, placed before the
    finder that refuses torch modules glasstorch lacks."""

    @classmethod
    def find_spec(cls, fullname: str, path=None, target=None):
        if fullname.startswith("glasstorch.") and torch_spelling(fullname) in SHELLS:
            return importlib.machinery.ModuleSpec(fullname, cls, is_package=True)
        return None

    @staticmethod
    def create_module(spec) -> ShellModule:
        module = ShellModule(spec.name, f"{torch_spelling(spec.name)}: a shell (Note "
                                        f"[Shell modules] in glasstorch/_shells.py)")
        module.__path__ = []
        return module

    @staticmethod
    def exec_module(module) -> None:
        """Nothing to run: a shell has no content."""


def install(meta_path: list, before) -> None:
    """Put `ShellModules` in `meta_path`, ahead of the finder `before` if it is there."""
    if ShellModules not in meta_path:
        position = meta_path.index(before) if before in meta_path else len(meta_path)
        meta_path.insert(position, ShellModules)
