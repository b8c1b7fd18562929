"""Builds `_family_index.py`: which operator family declares each name (Note [Families
load on first use] in `__init__.py`).

    python -m glasstorch.aten.native.family_index     # rewrite the index

The families are found, not listed: every module of a topic package that declares an
operator. They are loaded in the order of their own imports (a family after the families
it imports, ties by name), so no import drags in a family that has not been counted yet;
what each import declared is noted: Python bindings (``kind:name``, through a binding
sink) and `torch.ops.aten` operators. The build fails when two families declare overloads
of one operator and neither imports the other (Note [Declaration order]).
"""
from __future__ import annotations

import ast
import importlib
import pkgutil
import pprint
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).parent


def modules() -> dict:
    """Every module of the topic packages (``"pointwise.unary"``) -> the modules of the
    topic packages it imports at module level."""
    found = {}
    for topic in sorted(p.name for p in HERE.iterdir() if (p / "__init__.py").exists()):
        for info in pkgutil.iter_modules([str(HERE / topic)]):
            name = f"{topic}.{info.name}"
            found[name] = _imports(name)
    return {name: sorted(i for i in imported if i in found) for name, imported in found.items()}


def _imports(name: str) -> set:
    """The sibling modules `name` imports at module level, as ``topic.module`` names."""
    topic = name.split(".")[0]
    tree = ast.parse((HERE / (name.replace(".", "/") + ".py")).read_text())
    imported = set()
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        if node.level == 1:                       # from .x import / from . import x
            package = [topic]
        elif node.level == 2:                     # from ..topic.x import
            package = []
        else:
            continue
        parts = package + (node.module.split(".") if node.module else [])
        if len(parts) == 2:
            imported.add(".".join(parts))
        elif len(parts) == 1:                     # from . import x, y
            imported.update(f"{parts[0]}.{alias.name}" for alias in node.names)
    return imported


def load_order(graph: dict) -> list:
    """The modules, each after those it imports (ties by name)."""
    order, done = [], set()

    def visit(name):
        if name in done:
            return
        done.add(name)
        for earlier in graph[name]:
            visit(earlier)
        order.append(name)
    for name in sorted(graph):
        visit(name)
    return order


def _reaches(graph: dict, start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name == goal:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return False


def build() -> dict:
    """The index of the current sources, as the dicts `_family_index.py` holds.

    `fresh_source()` calls it in a fresh interpreter with an empty index, after
    ``import glasstorch``, which loads no family.
    """
    from .. import binding, derivatives, dispatcher, registry
    graph = modules()
    bindings, operators, bases = defaultdict(list), defaultdict(list), defaultdict(list)
    current = []
    binding.add_sink(lambda kind, name: current and bindings[kind, name].append(current[0]))
    families = []
    # without an index, a formula's operator declared by a family not loaded yet is
    # known only once all have loaded (Note [When formula names are checked])
    with derivatives.deferred_checks():
        for family in load_order(graph):
            module = f"{__package__}.{family}"
            if module in sys.modules:       # its names would be in no index
                raise RuntimeError(f"{module} loads with `import glasstorch` (Note "
                                   f"[Families load on first use])")
            overloads = _overloads(dispatcher)
            current[:] = [family]
            importlib.import_module(module)
            new = _overloads(dispatcher) - overloads
            for name, _ in new:
                operators[name].append(family)
            if new:
                families.append(family)
    for decl in registry.DECLARATIONS.values():
        bases[decl.name.split(".")[0]].append(_family_of(decl))
    _check_declaration_order(graph, bases)
    return {"FAMILIES": tuple(families),
            "BINDINGS": _by_family({f"{kind}:{name}": v for (kind, name), v in bindings.items()}),
            "OPERATORS": _by_family(operators)}


def _family_of(declaration) -> str:
    module = (declaration.kernel or declaration.meta).__module__
    return module.removeprefix(f"{__package__}.")


def _check_declaration_order(graph: dict, bases: dict) -> None:
    """Refuse families that declare overloads of one operator without importing each
    other: their declaration order, and so the node names, would hang on load order."""
    for base, families in sorted(bases.items()):
        distinct = sorted(set(f for f in families if f in graph))
        for i, first in enumerate(distinct):
            for second in distinct[i + 1:]:
                if not (_reaches(graph, first, second) or _reaches(graph, second, first)):
                    raise RuntimeError(
                        f"{first} and {second} both declare overloads of {base}: one must "
                        f"import the other (Note [Declaration order])")


def _by_family(declared: dict) -> dict:
    """name -> families, turned into family -> its sorted names in one string, separated
    by spaces (without cached bytecode, Python compiles that file in a fifth of the time
    tuples of strings take)."""
    names = defaultdict(set)
    for name, families in declared.items():
        for family in families:
            names[family].add(name)
    return {family: " ".join(sorted(v)) for family, v in sorted(names.items())}


def _overloads(dispatcher) -> set:
    return {(name, overload) for name, packet in dispatcher.ops.aten._packets.items()
            for overload in packet._overloads}


def source(index: dict) -> str:
    """The text of `_family_index.py` for `index`."""
    parts = ['"""Generated by `python -m glasstorch.aten.native.family_index`: do not edit."""']
    for name, value in index.items():
        parts.append(f"{name} = {pprint.pformat(value, width=92, compact=True)}")
    return "\n\n".join(parts) + "\n"


def fresh_source() -> str:
    """`source(build())`, built in a fresh interpreter."""
    code = ("import sys, types\n"
            "empty = types.ModuleType('glasstorch.aten.native._family_index')\n"
            "empty.BINDINGS, empty.OPERATORS, empty.FAMILIES = {}, {}, ()\n"
            "sys.modules[empty.__name__] = empty\n"
            "import glasstorch\n"              # the core, with the families it imports
            "from glasstorch.aten.native.family_index import build, source\n"
            "print(source(build()), end='')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).parents[3])
    return done.stdout


if __name__ == "__main__":
    Path(__file__).with_name("_family_index.py").write_text(fresh_source())
