"""Run a PyTorch program unchanged: ``import torch`` answered by glasstorch.

Note [Answering import torch]
    A program written for torch says ``import torch``, ``import torch.nn as nn`` and
    ``from torch.utils.data import DataLoader``. Rebinding the one name
    (``sys.modules["torch"] = glasstorch``) is not enough: Python then loads
    ``torch.nn`` from glasstorch's files a second time, as a new module with its own
    state (a second grad mode, a second Module class), and the two copies disagree.
    `TorchAlias`, an import finder, answers every ``torch`` and ``torch.<...>`` import
    with the glasstorch module itself: ``torch.nn`` *is* ``glasstorch.nn``, one object
    under two names. A torch module glasstorch lacks fails to import with glasstorch's
    own explanation (Note [Names glasstorch does not implement yet]).

    ``python -m glasstorch script.py [args]`` runs a script so; `install` does it from
    Python. Only the process that installs it is affected: a torch installed beside
    glasstorch stays untouched on disk and in every other process.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types


def glasstorch_name(torch_name: str) -> str:
    """``'torch.nn.functional'`` -> ``'glasstorch.nn.functional'``."""
    return "glasstorch" + torch_name[len("torch"):]


class _ExistingModule(importlib.abc.Loader):
    """Hands the import system a module already loaded under glasstorch's name."""

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec) -> types.ModuleType:
        return self.module

    def exec_module(self, module: types.ModuleType) -> None:
        # the import system set the alias's spec on the module: give it back its own
        module.__spec__ = self.spec


class TorchAlias(importlib.abc.MetaPathFinder):
    """The finder answering ``torch`` and ``torch.<...>`` with glasstorch's modules."""

    @staticmethod
    def find_spec(fullname: str, path=None, target=None):
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        module = importlib.import_module(glasstorch_name(fullname))
        is_package = hasattr(module, "__path__")
        return importlib.machinery.ModuleSpec(fullname, _ExistingModule(module),
                                              is_package=is_package)


def install() -> None:
    """Make ``import torch`` (and every ``torch.<...>``) give glasstorch, in this process.

    Modules already imported under a ``torch`` name (a real torch loaded earlier) are
    left alone; call this before the program's first ``import torch``.

    Example::

        >>> import glasstorch.torch_alias
        >>> glasstorch.torch_alias.install()
        >>> import torch.nn as nn
        >>> nn.Linear.__module__
        'glasstorch.nn.modules.linear'
    """
    if TorchAlias not in sys.meta_path:
        sys.meta_path.insert(0, TorchAlias)
