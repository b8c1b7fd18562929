"""Operator declarations, in topic packages, each family loaded on first use.

A *family* is one module of a topic package (`pointwise/unary.py`, `nn/softmax.py`) that
declares operators; its name in the index is its path below this package
(``"pointwise.unary"``). Each topic package's README says what lives there and how to
add an operator.

Note [Families load on first use]
    Declaring every operator at `import glasstorch` would cost most of the import
    (hundreds of schemas parsed, overloads and bindings registered, and, without
    cached bytecode, every family compiled). So no family loads with it: a generated
    index (`_family_index.py`, made by `family_index.py` and checked by
    `tests/aten/test_lazy_families.py`) says which families declare each Python name
    and each `torch.ops.aten` operator, and the first lookup that misses
    (`binding.get_binding`, `ops.aten.<name>`) loads them. Nothing else changes: a
    loaded family declares exactly as an eagerly imported one would.

    The core therefore names no family at module level: the Python functions it
    re-exports (`torch.einsum`, `Tensor.unique`, `Tensor.to`) come through `member` on
    first access, Python's operators (`a + b`, `x[idx]`) look their overload up on
    first use, the operators and helpers the Tensor face calls (indexing's views and
    writes, `Tensor(...)`) are `first_use` stand-ins that put the real function in
    their place, the constructors from Python data (`_tensor_new.py`) load with their
    families on first use, and code that runs after an operator (a derivative formula)
    imports from the operator's family inside the function.

Note [Declaration order]
    Nothing here orders the families by hand. A family that adds overloads to an
    operator another family declares imports that family (`pointwise/division.py`
    imports `binary` and `binary_scalar` before declaring ``div.Tensor_mode``), so
    whichever way they load, the earlier overloads are declared first, and the node
    names that number an operator's overloads in declaration order (``DivBackward2``)
    come out the same. `family_index.py` refuses an index where two families declare
    overloads of one operator and neither imports the other.
"""
import importlib
import sys
from typing import Callable

from .. import binding, dispatcher
from ._family_index import BINDINGS, FAMILIES, OPERATORS


def load(family: str) -> None:
    """Import one family (``"pointwise.unary"``); its imports load what it builds on."""
    module = f"{__name__}.{family}"
    if module not in sys.modules:
        importlib.import_module(module)


def member(family: str, name: str):
    """A Python object a family defines (`torch.einsum`, `Tensor.unique`: the hand-written
    functions the core re-exports), its family loaded on first use."""
    load(family)
    return getattr(sys.modules[f"{__name__}.{family}"], name)


def first_use(namespace: dict, name: str, find: Callable[[], Callable]) -> Callable:
    """A stand-in for the function the core module `namespace` binds as `name` and takes
    from a family (an operator's ``call``, a helper) or another module loaded on first
    use: its first call finds the function with `find`, which loads the module, puts it
    in its own place, and calls it."""
    def stand_in(*args):
        function = namespace[name] = find()
        return function(*args)
    return stand_in


def load_all() -> None:
    """Import every family (what enumerating all operators needs)."""
    for family in FAMILIES:
        load(family)


def _by_name(by_family: dict, key=lambda name: name) -> dict:
    """The index's family -> names (separated by spaces), turned into name -> families,
    a tuple (most names have one family: they share one tuple, fewer objects to make
    and for the garbage collector to visit at import)."""
    families: dict = {}
    for family, names in by_family.items():
        one = (family,)
        for name in names.split():
            name = key(name)
            found = families.get(name)
            families[name] = one if found is None else found + one
    return families


binding.expect(_by_name(BINDINGS, lambda name: tuple(name.split(":"))), load)
dispatcher.expect(_by_name(OPERATORS), load, load_all)
