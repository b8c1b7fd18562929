"""Write the type stubs of the torch namespace and of Tensor, so IDEs and mypy see them.

    python tools/stubs.py            # rewrite glasstorch's .pyi files
    python tools/stubs.py --check    # exit 1 if they are stale

glasstorch's operator functions and methods are generated from schemas at run time
(Note [Bindings are generated on first use]); a type checker reads source, not run time,
so this script writes what it would see: every generated binding with its signatures
from the schemas (``@overload`` per overload), and the names written by hand as
re-exports from the modules that define them. Regenerate after declaring operators or
adding names to the namespace; `tests/test_stubs.py` fails while the stubs are stale.
"""
from __future__ import annotations

import argparse
import ast
import functools
import inspect
import keyword
import pathlib
import sys
import types

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import glasstorch  # noqa: E402
from glasstorch.aten import binding, torch_names  # noqa: E402
from glasstorch.aten.binding import Signature  # noqa: E402

_ABSENT = object()         # what a binding lookup gives for a name with none (None is a value)
TENSOR_STUB = ROOT / "glasstorch" / "_tensor.pyi"
HEADER = ("# Written by tools/stubs.py from the operator schemas and the namespace: do not edit.\n"
          "from __future__ import annotations\n\n"
          "import builtins\n"
          "from typing import Any, Iterator, Sequence, overload\n\n")
# Schema types as Python annotations (names the stubs import).
# The namespace defines `int`, `float`, `bool` (dtypes): the builtins go by other names.
ANNOTATIONS = {"Tensor": "Tensor", "int": "_int", "SymInt": "_int", "float": "_float",
               "SymFloat": "_float", "bool": "_bool", "Scalar": "_Number", "str": "str",
               "ScalarType": "_dtype", "Device": "_device | str | _int", "Layout": "_layout",
               "MemoryFormat": "_memory_format", "Generator": "_Generator", "Dimname": "str",
               "complex": "_complex"}
ALIASES = ("_int = builtins.int\n_float = builtins.float\n_bool = builtins.bool\n"
           "_complex = builtins.complex\n"
           "_Number = _int | _float | _bool | _complex\n"
           "_size = Sequence[_int]\n")
COMMON_IMPORTS = ("from glasstorch.c10.device import device as _device\n"
                  "from glasstorch.c10.dtype import dtype as _dtype\n"
                  "from glasstorch.c10.generator import Generator as _Generator\n"
                  "from glasstorch.c10.layout import layout as _layout, "
                  "memory_format as _memory_format\n")
# Tensor's attributes written by hand, typed here (the rest read as Any).
TENSOR_ATTRIBUTES = {"shape": "Size", "dtype": "_dtype", "device": "_device",
                     "requires_grad": "_bool", "grad": "Tensor | None", "data": "Tensor",
                     "grad_fn": "Any", "is_leaf": "_bool", "ndim": "_int", "T": "Tensor",
                     "mT": "Tensor", "H": "Tensor", "mH": "Tensor", "layout": "_layout",
                     "names": "Any", "real": "Tensor", "imag": "Tensor"}
# Tensor's Python protocol: what each operator method returns.
PROTOCOL = {"__len__": "_int", "__bool__": "_bool", "__float__": "_float", "__int__": "_int",
            "__complex__": "_complex", "__index__": "_int", "__hash__": "_int",
            "__iter__": "Iterator[Tensor]", "__repr__": "str", "__format__": "str",
            "__array__": "Any", "__reduce_ex__": "Any", "__setitem__": "None",
            "__contains__": "_bool", "__deepcopy__": "Tensor"}


def annotation(type_, numbers: bool = False) -> str:
    """A schema type as a Python annotation."""
    base = ANNOTATIONS.get(type_.base, "Any")
    if type_.base == "Tensor" and numbers:
        base = "Tensor | _Number"
    if type_.is_list:
        base = f"Sequence[{base}]"
        if type_.base in ("int", "SymInt"):       # int[2] also takes one int
            base = "_size" if type_.size is None else "_int | _size"
    return f"{base} | None" if type_.optional else base


def returned(schema) -> str:
    """A schema's returns as one annotation."""
    types_ = [annotation(r.type) for r in schema.returns]
    types_ = [f"list[{t[9:-1]}]" if t.startswith("Sequence[") else t for t in types_]
    if not types_:
        return "None"
    return types_[0] if len(types_) == 1 else f"tuple[{', '.join(types_)}]"


def parameters(sig: Signature, varargs: bool) -> list:
    """The parameters of one overload, rendered; the size list as ``*size: int`` if asked."""
    parts, star = [], False
    for p in sig.params:
        if varargs and not p.kwarg_only:
            parts.append(f"*{p.name}: _int")
            star = True
            continue
        if p.kwarg_only and not star:
            parts.append("*")
            star = True
        numbers = getattr(p.convert, "__name__", "") == "to_tensor_or_number"
        spelt = f"{p.name}_" if keyword.iskeyword(p.name) else p.name      # random_(from, to)
        text = f"{spelt}: {annotation(p.type, numbers) if p.type else '_bool'}"
        parts.append(text + (" = ..." if p.default is not binding.NO_DEFAULT else ""))
    return parts


def overloads(kind: str, name: str, method: bool, prefix: str = "") -> list:
    """The ``def`` lines of a generated binding: one per overload (two where a size
    list may also be spelt out, ``zeros(2, 3)``); `prefix` is the namespace's
    (``linalg_``: ``linalg_det`` is ``torch.linalg.det``)."""
    sigs = [Signature(*arguments) for arguments in binding._SIGNATURES[kind, prefix + name]]
    shapes = [(sig, False) for sig in sigs] + [(sig, True) for sig in sigs if sig.varargs]
    lines = []
    for sig, varargs in shapes:
        params = (["self"] if method else []) + parameters(sig, varargs)
        if len(shapes) > 1:
            lines.append("@overload")
        lines.append(f"def {name}({', '.join(params)}) -> {returned(sig.schema)}: ...")
    return lines


@functools.cache
def source_names(module_name: str) -> frozenset:
    """The names a module's source binds at top level: what a type checker sees of it
    (a name put in its ``globals()`` at run time is not among them)."""
    path = getattr(sys.modules[module_name], "__file__", None)
    if not path or not path.endswith(".py"):
        return frozenset()
    bound = set()
    for node in ast.parse(pathlib.Path(path).read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return frozenset(bound)


def reexport(module, name: str, value) -> str:
    """How the stub of `module` states a name written by hand (or bound in another one)."""
    if value is binding._GENERATED.get(("function", name), _ABSENT):   # torch.relu_ in F
        return f"from glasstorch import {name} as {name}"
    if getattr(value, "__module__", None) == module.__name__:     # written in the module
        return f"def {name}(*args: Any, **kwargs: Any) -> Any: ..."
    if name in glasstorch._FAMILY_FUNCTIONS:
        family, attribute = glasstorch._FAMILY_FUNCTIONS[name]
        return f"from glasstorch.aten.native.{family} import {attribute} as {name}"
    if isinstance(value, types.ModuleType) and getattr(value, "__file__", None) is None:
        return f"{name}: Any"           # a shell module, made by an import finder
    if isinstance(value, types.ModuleType):
        parent, _, leaf = value.__name__.rpartition(".")
        return f"from {parent} import {leaf} as {name}"
    home = getattr(value, "__module__", None)
    own = getattr(value, "__name__", None)
    if home and own and getattr(sys.modules.get(home), own, None) is value \
            and own in source_names(home):
        return f"from {home} import {own} as {name}"
    if callable(value) and not isinstance(value, type):
        return f"def {name}(*args: Any, **kwargs: Any) -> Any: ..."
    holder = type(value)
    if value is None:
        return f"{name}: None"
    if holder.__module__ == "builtins":
        return f"{name}: builtins.{holder.__name__}"
    return f"{name}: dtype" if holder.__module__ == "glasstorch.c10.dtype" else f"{name}: Any"


def namespace_stub(module, kind: str, prefix: str, generated: set) -> str:
    """The stub of a namespace module: its `generated` bindings (of `kind`, named with
    `prefix` in the binding table) with their signatures, the rest re-exported."""
    defs, imports = [], []
    for name in sorted(n for n in dir(module) if not n.startswith("_")):
        if name in generated:
            defs += overloads(kind, name, False, prefix) + [""]
            continue
        try:
            value = getattr(module, name)
        except AttributeError:
            continue
        imports.append(reexport(module, name, value))
    tensor = "Tensor as Tensor" if module is glasstorch else "Tensor"
    imports.append(f"from glasstorch._tensor import {tensor}")
    body = sorted(set(imports), key=lambda line: (line[:4] != "from", line[:3] == "def", line))
    return (HEADER + COMMON_IMPORTS + "from glasstorch.c10.dtype import dtype\n"
            + "\n".join(body) + "\n\n" + ALIASES + "\n\n" + "\n".join(defs)).rstrip() + "\n"


def namespace_stubs() -> dict:
    """Path -> text of the stubs of torch, torch.linalg, torch.special and torch.nn.functional
    (the namespaces whose functions include generated bindings)."""
    import glasstorch.nn.functional as F
    package = ROOT / "glasstorch"
    return {
        package / "__init__.pyi": namespace_stub(
            glasstorch, "function", "", set(binding.names("function")) - glasstorch._HAND_WRITTEN),
        package / "linalg" / "__init__.pyi": namespace_stub(
            glasstorch.linalg, "linalg", "linalg_", set(binding.namespace_names("linalg", "linalg_"))),
        package / "special" / "__init__.pyi": namespace_stub(
            glasstorch.special, "special", "special_",
            set(binding.namespace_names("special", "special_"))),
        package / "nn" / "functional.pyi": namespace_stub(
            F, "nn", "", F._NN_FUNCTIONS & set(binding.namespace_names("nn"))),
    }


def tensor_members() -> list:
    """The stub lines of class Tensor's body."""
    Tensor = glasstorch.Tensor
    generated = set(binding.names("method"))
    lines = []
    for name in sorted(set(dir(Tensor)) | generated):
        if (name.startswith("_") and not name.startswith("__")) or name in vars(object) \
                and name not in ("__eq__", "__ne__", "__hash__", "__repr__", "__format__") \
                or torch_names.is_missing(Tensor, name):
            continue
        static = inspect.getattr_static(Tensor, name, None)
        if isinstance(static, binding.LazyMethod) or getattr(static, "fronts_binding", False) \
                or static is not None and static is binding._GENERATED.get(("method", name)):
            lines += overloads("method", name, method=True)
        elif name.startswith("__") and not inspect.isfunction(static):
            continue                      # __slots__, __module__, ...
        elif name in TENSOR_ATTRIBUTES or isinstance(static, property):
            lines.append(f"{name}: {TENSOR_ATTRIBUTES.get(name, 'Any')}")
        elif name.startswith("__") and name not in PROTOCOL:
            ignore = "  # type: ignore[override]" if name in ("__eq__", "__ne__") else ""
            lines.append(f"def {name}(self, *args: Any, **kwargs: Any) -> Tensor: ...{ignore}")
        else:
            lines.append(f"def {name}(self, *args: Any, **kwargs: Any) -> "
                         f"{PROTOCOL.get(name, 'Any')}: ...")
    return lines


def tensor_stub() -> str:
    """The text of ``glasstorch/_tensor.pyi``."""
    body = "\n".join(f"    {line}" if line else "" for line in tensor_members())
    return (HEADER + COMMON_IMPORTS + "from glasstorch.c10.size import Size\n"
            "from glasstorch.c10.tensor_impl import TensorBase\n\n" + ALIASES + "\n\n"
            "class Tensor(TensorBase):\n"
            "    def __init__(self, *args: Any, **kwargs: Any) -> None: ...\n" + body + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the stubs are stale")
    args = parser.parse_args(argv)
    for kind in ("function", "method", "linalg", "special", "nn"):   # every overload declared
        for name in binding.names(kind):
            binding.get_binding(kind, name)
    stubs = {**namespace_stubs(), TENSOR_STUB: tensor_stub()}
    stale = [path.name for path, text in stubs.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        if stale:
            print(f"stale: {', '.join(stale)}; run python tools/stubs.py", file=sys.stderr)
        return 1 if stale else 0
    for path, text in stubs.items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
