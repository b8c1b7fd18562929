"""glasstorch's operator schemas against torch's, argument by argument.

For every operator glasstorch declares (`registry.DECLARATIONS`, each overload), the
schema torch registers under the same name and overload
(``torch._C._jit_get_all_schemas()``) is compared: the arguments' names, types,
defaults and keyword-only marks, and the results. Also listed: torch's functional
overloads of those names that glasstorch does not declare (``isin.Tensor_Scalar``).

    /work/main/.venv/bin/python tests/conformance/signatures.py            # the summary
    ... signatures.py --details                                             # every gap

`test_signatures.py` keeps the counts from growing. Needs real torch.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import glasstorch  # noqa: E402,F401  (declares the core families)
from glasstorch.aten import native  # noqa: E402
from glasstorch.aten.registry import DECLARATIONS  # noqa: E402


def _normalised(schema_text: str) -> str:
    """A schema in one spelling: no namespace, alias annotations or result names; SymInt
    as int; defaults as Python reads them (``0.`` is ``0.0``, ``dtype=4`` is ``long``,
    ``int[2] stride=1`` is ``stride=[1,1]``),
    strings in one kind of quotes; out= overloads without the factory options torch
    leaves off them (they take the out tensor's)."""
    text = schema_text.removeprefix("aten::")
    text = re.sub(r"\((?:[a-z]!?)(?: -> \*)?\)", "", text)
    text = text.replace("SymInt", "int").replace('"', "'").replace(", ", ",")
    text = re.sub(r"=(-?\d+\.\d*(?:e-?\d+)?)", lambda m: f"={float(m.group(1))!r}", text)
    # a fixed-size list's default given as one number is that number repeated
    text = re.sub(r"int\[(\d)\] (\w+)=(-?\d+)(?=[,)])",
                  lambda m: f"int[{m[1]}] {m[2]}=[{','.join([m[3]] * int(m[1]))}]", text)
    text = text.replace("ScalarType? dtype=4", "ScalarType? dtype=long")
    text = re.sub(r"MemoryFormat memory_format=0", "MemoryFormat memory_format=contiguous_format",
                  text)
    head, arrow, returns = text.rpartition("->")
    returns = re.sub(r"Tensor \w+", "Tensor", returns)
    if "Tensor out" in head:
        head = head.replace("ScalarType? dtype=None,Layout? layout=None,Device? device=None,"
                            "bool? pin_memory=None,", "")
    return head + arrow + returns


def torch_schemas() -> dict:
    import torch
    return {f"{s.name.removeprefix('aten::')}.{s.overload_name}".rstrip("."):
            _normalised(str(s)) for s in torch._C._jit_get_all_schemas()
            if s.name.startswith("aten::")}


def glasstorch_schemas() -> dict:
    native.load_all()
    schemas = {}
    for declaration in DECLARATIONS.values():
        for overload in declaration.overloads.values():
            schema = overload._schema
            schemas[schema.qualified_name] = _normalised(str(schema))
    return schemas


def _reachable_from_python(name: str, text: str) -> bool:
    """A functional overload torch's Python API binds: it takes a tensor (TorchScript's
    number-only overloads such as ``add.int`` do not), names no dimension and writes
    nothing."""
    arguments = text.split("->")[0]
    return ("Tensor" in arguments and "Dimname" not in arguments and "!" not in arguments
            and not name.endswith("out") and not name.endswith("_"))


def compare() -> tuple:
    """(differing overloads {name: (theirs, mine)}, missing functional overloads [name])."""
    theirs, mine = torch_schemas(), glasstorch_schemas()
    differing = {name: (theirs[name], text) for name, text in sorted(mine.items())
                 if name in theirs and theirs[name] != text}
    names = {name.split(".")[0] for name in mine}
    missing = sorted(name for name, text in theirs.items()
                     if name.split(".")[0] in names and name not in mine
                     and _reachable_from_python(name, text))
    return differing, missing


# ----------------------------------------------------------------------------------
# The Python API: torch's stubs (every overload's parameter names) against the bindings
# ----------------------------------------------------------------------------------
def _stub_parameters(path: Path, class_name: str | None) -> dict:
    """name -> [set of parameter names, one per overload] from one of torch's .pyi files
    (its top-level functions, or one class's methods)."""
    import ast
    tree = ast.parse(path.read_text())
    body = tree.body
    if class_name is not None:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef)
                    and n.name == class_name).body
    found: dict = {}
    for node in body:
        if isinstance(node, ast.FunctionDef):
            arguments = node.args.args + node.args.kwonlyargs
            found.setdefault(node.name, []).append(
                {a.arg for a in arguments} - {"self"})
    return found


# Names torch's stubs list that its Python API does not take as written: methods refuse
# `out=` (the stubs copy the functions'); ``from`` is a keyword (the stubs say ``from_``);
# dimension names are another issue's.
_STUB_ONLY = {"function": {"names", "name"}, "method": {"names", "name", "out", "from_"}}


def _parameters(kind: str, name: str) -> set:
    """The parameter names glasstorch's ``torch.<name>`` / ``Tensor.<name>`` takes: its
    generated overloads', or the hand-written method's."""
    import inspect
    from glasstorch import _tensor
    from glasstorch.aten import binding
    if kind == "method" and name in _tensor._HAND_WRITTEN:
        return set(inspect.signature(getattr(glasstorch.Tensor, name)).parameters) - {"self"}
    binding.get_binding(kind, name)
    return set().union(*({p.name for p in binding.Signature(*a).params}
                         for a in binding._SIGNATURES[kind, name]))


def python_gaps() -> dict:
    """(kind, name) -> the parameter names torch's overloads take that no glasstorch
    overload of the same Python name does (names of dimensions, ``names=``, left out)."""
    import torch
    from glasstorch.aten import binding
    stubs = Path(torch.__file__).parent / "_C"
    theirs = {"function": _stub_parameters(stubs / "_VariableFunctions.pyi", None),
              "method": _stub_parameters(stubs / "__init__.pyi", "TensorBase")}
    gaps = {}
    for kind in ("function", "method"):
        for name in binding.names(kind):
            if name not in theirs[kind]:
                continue
            mine = _parameters(kind, name)
            lacking = set().union(*theirs[kind][name]) - mine - _STUB_ONLY[kind]
            if lacking:
                gaps[kind, name] = sorted(lacking)
    return gaps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--details", action="store_true", help="print every gap")
    args = parser.parse_args()
    differing, missing = compare()
    print(f"{len(differing)} declared overloads differ from torch's schema; "
          f"{len(missing)} functional overloads of declared names are missing")
    gaps = python_gaps()
    print(f"{len(gaps)} Python names lack parameters torch's overloads take")
    if args.details:
        for (kind, name), lacking in sorted(gaps.items()):
            print(f"  {'Tensor.' if kind == 'method' else 'torch.'}{name}: {', '.join(lacking)}")
        for name, (theirs, mine) in differing.items():
            print(f"\n{name}\n  torch:      {theirs}\n  glasstorch: {mine}")
        print("\nmissing:\n  " + "\n  ".join(missing))


if __name__ == "__main__":
    main()
