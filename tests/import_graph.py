"""The import graph of a package's source, read with `ast`, and the two checks
`test_layers.py` makes of it: imports the layer map forbids (`layer_map.py`), and
import cycles.

Every import counts, wherever it sits: at module level, inside a function (a call-time
import is still a dependency, and a cycle through one is still a tangle), under ``if
TYPE_CHECKING:``, relative at any depth, and ``import_module`` of a name written out (a
string, or ``f"{__name__}.sub"``). Names computed at run time (the lazy attributes of a
package's ``__getattr__``) are out of its sight. ``module._name`` counts as importing
``_name`` from `module`.

An import names the module it loads: ``from ..aten import registry`` loads the module
``aten.registry``; ``from ..aten import ops`` loads the package ``aten`` (its
``__init__.py``) for one of its attributes. The parent packages Python loads on the way
are not counted (every module would otherwise be in a cycle with its package).
"""
from __future__ import annotations

import ast
import dataclasses
import pathlib


@dataclasses.dataclass(frozen=True)
class Import:
    """One import in one module: `source` loads `target` (both dotted module names)."""
    source: str
    target: str
    line: int
    names: tuple = ()            # the names taken from `target` (``from target import a``)
    function: str | None = None  # the function it runs in (None: at import time)

    def where(self, paths: dict) -> str:
        """``glasstorch/aten/dispatcher.py:194 (in _missing_kernel)``, for messages."""
        place = f"in {self.function}" if self.function else "at module level"
        return f"{paths[self.source]}:{self.line} ({place})"

    def describe(self, paths: dict) -> str:
        """Which file imports what: the place, the module, the names taken."""
        names = f" ({', '.join(self.names)})" if self.names else ""
        return f"{self.where(paths)} imports {self.target}{names}"


# ----------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------
def modules(root: pathlib.Path, package: str) -> dict:
    """Every module of `package` under `root`: dotted name -> path relative to `root`."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path.relative_to(root).as_posix()
    return found


def read_imports(root: pathlib.Path, package: str) -> tuple:
    """The imports `package`'s modules make of each other, and the modules' paths
    (dotted name -> path relative to `root`)."""
    paths = modules(root, package)
    found = []
    for name, path in paths.items():
        reader = _Reader(name, path.endswith("__init__.py"), paths)
        reader.visit(ast.parse((root / path).read_text(encoding="utf-8"), filename=path))
        found += [i for i in reader.imports
                  if i.target.split(".")[0] == package and i.target != name]
    return found, paths


class _Reader(ast.NodeVisitor):
    """Collects the imports of one module, each with the function it runs in."""

    def __init__(self, module: str, is_package: bool, known: dict):
        self.module, self.known, self.imports = module, known, []
        self.package = module if is_package else module.rpartition(".")[0]
        self.scopes = []         # the enclosing classes and functions: (name, is a function)
        self.aliases = {}        # a name bound to a module of the tree -> that module

    def _add(self, target: str, node: ast.AST, names: tuple = ()) -> None:
        in_function = any(is_function for _, is_function in self.scopes)
        function = ".".join(name for name, _ in self.scopes) if in_function else None
        self.imports.append(Import(self.module, target, node.lineno, names, function))

    def _scope(self, node: ast.AST) -> None:
        self.scopes.append((getattr(node, "name", "<lambda>"),
                            not isinstance(node, ast.ClassDef)))
        self.generic_visit(node)
        self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = _scope

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node)
            if alias.asname:
                self.aliases[alias.asname] = alias.name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = self._absolute(node.module or "", node.level)
        attributes = []
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            if submodule in self.known:
                self._add(submodule, node)
                self.aliases[alias.asname or alias.name] = submodule
            else:
                attributes.append(alias.name)
        if attributes:
            self._add(base, node, tuple(attributes))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        module = self.aliases.get(getattr(node.value, "id", None))
        if module is not None and _is_private(node.attr):
            self._add(module, node, (node.attr,))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        target = _import_module_target(node, self.module)
        if target is not None:
            name = target.lstrip(".")
            self._add(self._absolute(name, len(target) - len(name)), node)
        self.generic_visit(node)

    def _absolute(self, name: str, level: int) -> str:
        """The absolute name of ``from <level dots><name> import ...`` here."""
        if level == 0:
            return name
        parts = self.package.split(".")
        base = ".".join(parts[:len(parts) - (level - 1)])
        return f"{base}.{name}" if name else base


def _import_module_target(call: ast.Call, module: str) -> str | None:
    """The module an ``import_module(...)`` or ``__import__(...)`` call loads, when it is
    written out: a string (relative names resolve against the module's package, as
    ``import_module(".x", __package__)`` does) or ``f"{__name__}.rest"``."""
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called not in ("import_module", "__import__") or not call.args:
        return None
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    if isinstance(first, ast.JoinedStr) and len(first.values) == 2:
        head, tail = first.values
        if isinstance(head, ast.FormattedValue) and getattr(head.value, "id", None) == "__name__" \
                and isinstance(tail, ast.Constant):
            return module + tail.value
    return None


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


# ----------------------------------------------------------------------------------
# Checking
# ----------------------------------------------------------------------------------
def layer_of(path: str, layers: dict) -> str | None:
    """The layer whose entry names `path` most precisely (see `layer_map.py`)."""
    best, found = "", None
    for layer, entries in layers.items():
        for entry in entries:
            names = path == entry or (entry.endswith("/") and path.startswith(entry))
            if names and len(entry) > len(best):
                best, found = entry, layer
    return found


def unplaced(paths: dict, layers: dict) -> list:
    """The modules no layer names."""
    return sorted(path for path in paths.values() if layer_of(path, layers) is None)


def layer_violations(imports: list, paths: dict, rules) -> list:
    """One message per import that the map `rules` forbids (an object with the
    `layer_map.py` names LAYERS, MAY_IMPORT, PUBLIC_ONLY and EXCEPTIONS), saying which
    file imports what and which rule that breaks."""
    found = []
    for i in imports:
        source, target = paths[i.source], paths.get(i.target)
        if target is None or (source, target) in rules.EXCEPTIONS:
            continue
        mine, theirs = layer_of(source, rules.LAYERS), layer_of(target, rules.LAYERS)
        allowed = rules.MAY_IMPORT[mine]
        if mine != theirs and theirs not in allowed:
            found.append(f"{i.describe(paths)}: {mine} may import "
                         f"{'only ' + ', '.join(allowed) if allowed else 'no other layer'}, "
                         f"not {theirs}")
        elif theirs in rules.PUBLIC_ONLY.get(mine, ()):
            private = [n for n in i.names + tuple(i.target.split(".")) if _is_private(n)]
            if private:
                verb = "is" if len(private) == 1 else "are"
                found.append(f"{i.describe(paths)}: {mine} may use only public names of "
                             f"{theirs}, and {', '.join(private)} {verb} private")
    return found


def cycles(imports: list) -> list:
    """The import cycles: each a sorted list of the modules that import each other (the
    strongly connected components of two or more modules, by Tarjan's algorithm)."""
    graph: dict = {}
    for i in imports:
        graph.setdefault(i.source, set()).add(i.target)
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                connect(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def describe_cycle(component: list, imports: list, paths: dict) -> str:
    """A cycle's files, and the imports between them."""
    members = set(component)
    lines = [f"import cycle between {', '.join(paths[m] for m in component)}:"]
    lines += [f"  {i.describe(paths)}" for i in imports
              if i.source in members and i.target in members]
    return "\n".join(lines)
