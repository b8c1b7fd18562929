"""What glasstorch says of a torch name it lacks, from torch's own list of names.

Note [Names glasstorch does not implement yet]
    A torch program that reaches for a name glasstorch lacks (``torch.save`` before it
    exists) should learn that the name is missing *here*, not that it misspelt something:
    Python's own AttributeError would add "Did you mean: 'ravel'?". `torch_names.txt`,
    written by ``tools/torch_names.py`` from torch 2.13 itself, lists torch's public names
    per namespace and the torch modules a program can import. It is read only when a name
    is missing (and once at import for Tensor, below), never on a successful lookup:

    * a namespace's ``__getattr__`` raises `missing_attribute`: for a name torch has,
      "module 'glasstorch' has no attribute 'save': glasstorch does not implement
      torch.save yet", without a suggestion; for a name torch lacks too, the plain error;
    * Tensor cannot have a ``__getattr__`` (a class with one loses CPython's specialised
      attribute loads, every ``t.add`` and ``t.shape`` slower), so `install_missing` puts
      a small descriptor on the class for each of torch's Tensor names it lacks; a method
      added later (an operator declared, a binding compiled) replaces it;
    * `MissingModules`, a finder at the end of ``sys.meta_path``, answers
      ``import glasstorch.onnx`` for a torch module not written yet with a
      ModuleNotFoundError saying so (a module that exists is found by the finders before).
"""
from __future__ import annotations

import pathlib
import sys

_FILE = pathlib.Path(__file__).with_name("torch_names.txt")
_SECTIONS: dict = {}        # section -> its names: a frozenset, or the text until first asked


def sections() -> dict:
    """Every section of the data file: ``'torch.nn'`` -> its public names (a frozenset);
    ``'submodules'`` -> the importable torch modules."""
    for section in _texts():
        torch_names(section)
    return _SECTIONS


def _texts() -> dict:
    """The data file cut into sections, each still text (read on the first miss)."""
    if not _SECTIONS:
        text = "\n".join(line for line in _FILE.read_text(encoding="utf-8").splitlines()
                         if not line.startswith("#"))
        for block in text.split("[")[1:]:
            section, _, names = block.partition("]")
            _SECTIONS[section] = names
    return _SECTIONS


def torch_names(namespace: str) -> frozenset:
    """torch's public names in `namespace` (``'torch'``, ``'torch.Tensor'``,
    ``'torch.nn.functional'``, ...); empty for a namespace the data file does not list."""
    names = _texts().get(namespace, frozenset())
    if isinstance(names, str):
        names = _SECTIONS[namespace] = frozenset(names.split())
    return names


def torch_submodules() -> frozenset:
    """The torch modules a program can import (``'torch.nn.functional'``, ...)."""
    return torch_names("submodules")


def torch_spelling(module_name: str) -> str:
    """torch's name for a glasstorch module: ``'glasstorch.nn'`` -> ``'torch.nn'``."""
    return "torch" + module_name[len("glasstorch"):]


def not_implemented(qualified: str) -> str:
    """The sentence every missing-name error ends with."""
    return f"glasstorch does not implement {qualified} yet"


def missing_attribute(module_name: str, name: str) -> AttributeError:
    """The AttributeError a glasstorch namespace module raises for a missing `name`.

    Args:
        module_name: the glasstorch module looked in (its ``__name__``).
        name: the attribute asked for.

    Returns:
        AttributeError: saying glasstorch does not implement ``torch.<...>.<name>`` yet
        when torch has that name (and with no "Did you mean" suggestion), else the
        plain "module ... has no attribute ..." error.
    """
    message = f"module '{module_name}' has no attribute '{name}'"
    qualified = f"{torch_spelling(module_name)}.{name}"
    if name in torch_names(torch_spelling(module_name)) or qualified in torch_submodules():
        # obj given and name left None: Python then adds no "Did you mean" suggestion
        return AttributeError(f"{message}: {not_implemented(qualified)}",
                              obj=sys.modules[module_name])
    return AttributeError(message)


class _Missing:
    """A Tensor attribute torch has and glasstorch does not yet: reading it raises.

    A non-data descriptor, so anything set on the class or an instance replaces it.
    """

    __slots__ = ("owner", "name")

    def __init__(self, owner: type, name: str) -> None:
        self.owner = owner
        self.name = name

    def __get__(self, obj, cls=None):
        qualified = f"torch.{self.owner.__name__}.{self.name}"
        subject = f"'{type(obj).__name__}' object" if obj is not None else \
            f"type object '{cls.__name__}'"
        raise AttributeError(f"{subject} has no attribute '{self.name}': "
                             f"{not_implemented(qualified)}", obj=obj)


def install_missing(cls: type) -> None:
    """Put a `_Missing` on `cls` (Tensor) for each of torch's names it has nowhere in its MRO."""
    present = set().union(*(vars(base) for base in cls.__mro__))
    for name in torch_names(f"torch.{cls.__name__}") - present:
        setattr(cls, name, _Missing(cls, name))


def is_missing(cls: type, name: str) -> bool:
    """Whether `name` on `cls` is only a `_Missing` placeholder."""
    return isinstance(vars(cls).get(name), _Missing)


class MissingModules:
    """The import finder consulted last: a torch module glasstorch has not written yet
    (``import glasstorch.onnx``) is a ModuleNotFoundError saying so; any other name is
    left to Python's own "No module named ..." error."""

    @staticmethod
    def find_spec(fullname: str, path=None, target=None):
        if fullname.startswith("glasstorch.") and \
                torch_spelling(fullname) in torch_submodules():
            # no `name=`: ``from glasstorch import onnx`` then reports this, not its own
            # "cannot import name" (the import system swallows errors naming the module)
            raise ModuleNotFoundError(
                f"No module named '{fullname}': {not_implemented(torch_spelling(fullname))}")
        return None
