"""Modules of torch that re-export names living elsewhere (torch.functional's
``torch.functional.einsum`` is ``torch.einsum``).

Each such glasstorch module lists torch's names and lets `reexporter` find them on first
use in the glasstorch namespace; a name glasstorch does not have yet raises the
"glasstorch does not implement torch.<module>.<name> yet" error of
Note [Names glasstorch does not implement yet].
"""
from __future__ import annotations

import importlib
import sys
from typing import Callable, Iterable

from .aten.torch_names import missing_attribute


def reexporter(module_name: str, names: Iterable[str], source: str = "glasstorch") -> Callable:
    """A module ``__getattr__`` answering `names` from the module `source`.

    Args:
        module_name: the module that re-exports (its ``__name__``).
        names: the names it re-exports.
        source: the module they come from.

    Returns:
        The ``__getattr__`` function, caching each name found in the module.
    """
    names = frozenset(names)

    def __getattr__(name: str):
        if name in names:
            try:
                value = getattr(importlib.import_module(source), name)
            except AttributeError:
                raise missing_attribute(module_name, name) from None
            setattr(sys.modules[module_name], name, value)
            return value
        raise missing_attribute(module_name, name)
    return __getattr__
