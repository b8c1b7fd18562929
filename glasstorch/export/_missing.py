"""Names that exist so that programs import, and refuse when used.

torch.export, torch.fx and torch.onnx turn a program into a graph; glasstorch has no
tracer yet (a later issue). Their modules import, every public name is there, and using
one raises NotImplementedError naming it, rather than failing at the import line.
"""
from __future__ import annotations

from typing import Any, Callable, NoReturn


def refuse(qualname: str) -> NoReturn:
    """Raise the error every graph-capturing name of these modules raises on use."""
    raise NotImplementedError(
        f"glasstorch does not implement {qualname} yet: it needs a graph tracer, which "
        "glasstorch does not have; run the model eagerly instead")


def missing_function(qualname: str) -> Callable:
    """A function named as torch's, refusing when called."""
    def function(*args: Any, **kwargs: Any) -> NoReturn:
        refuse(qualname)
    function.__name__ = function.__qualname__ = qualname.rpartition(".")[2]
    function.__doc__ = f"{qualname}: not implemented yet (it raises NotImplementedError)."
    return function


def missing_class(qualname: str, base: type = object) -> type:
    """A class named as torch's, refusing when instantiated."""
    def __init__(self, *args: Any, **kwargs: Any) -> NoReturn:
        refuse(qualname)
    module, _, name = qualname.rpartition(".")
    doc = f"{qualname}: not implemented yet (making one raises NotImplementedError)."
    return type(name, (base,), {"__init__": __init__, "__module__": module, "__doc__": doc})
