"""How much of torch 2.13's public surface glasstorch has, per namespace; README's table.

    python tools/coverage.py                     # the table
    python tools/coverage.py --missing torch.nn  # the names torch.nn still lacks here
    python tools/coverage.py --write             # rewrite README's coverage table
    python tools/coverage.py --check             # exit 1 if README's table is not true

torch's names come from ``glasstorch/aten/torch_names.txt`` (written from torch by
``tools/torch_names.py``); this script needs glasstorch only, not torch.
"""
from __future__ import annotations

import argparse
import importlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glasstorch.aten import torch_names  # noqa: E402

README = ROOT / "README.md"
BEGIN = "<!-- coverage table: written by `python tools/coverage.py --write` -->"
END = "<!-- end of coverage table -->"
MODULES = "importable torch modules"
# README's table: the namespaces programs use most (the data file has every submodule's;
# the plain table lists them all)
README_SECTIONS = (
    "torch", "torch.Tensor", "torch.cuda", "torch.backends", "torch.amp", "torch.autograd",
    "torch.random", "torch.testing", "torch.jit", "torch.hub", "torch.utils.checkpoint",
    "torch.serialization", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.linalg",
    "torch.fft", "torch.special", "torch.optim", "torch.optim.lr_scheduler",
    "torch.distributions", "torch.utils.data", "torch.func", "submodules")


def counterpart(namespace: str):
    """glasstorch's object for a torch namespace (module or class); None if it has none."""
    name = "glasstorch" + namespace[len("torch"):]
    try:
        return importlib.import_module(name)
    except ImportError:
        parent, _, attribute = name.rpartition(".")
        try:
            return getattr(importlib.import_module(parent), attribute, None)
        except ImportError:
            return None


def importable(module: str) -> bool:
    """Whether ``import glasstorch.<...>`` works for the torch module `module`."""
    try:
        importlib.import_module("glasstorch" + module[len("torch"):])
    except ImportError:
        return False
    return True


def missing(namespace: str) -> list:
    """torch's public names in `namespace` that glasstorch lacks (torch modules that do
    not import, for ``'submodules'``), sorted."""
    if namespace == "submodules":
        return sorted(m for m in torch_names.torch_submodules() if not importable(m))
    here = counterpart(namespace)
    return sorted(name for name in torch_names.torch_names(namespace)
                  if here is None or not hasattr(here, name))


def rows(sections=None) -> list:
    """``(namespace, torch's count, glasstorch's count)`` for `sections` (default: every
    section of the data file)."""
    every = torch_names.sections()
    table = []
    for section in sections or every:
        label = MODULES if section == "submodules" else section
        total = len(every[section])
        table.append((label, total, total - len(missing(section))))
    return table


def render(table: list) -> str:
    """The Markdown table, between its markers."""
    lines = [BEGIN, "", "| torch namespace | torch's public names | in glasstorch |",
             "|---|---:|---:|"]
    for label, total, here in table:
        shown = label if label == MODULES else f"`{label}`"
        share = f" ({100 * here // total}%)" if total else ""
        lines.append(f"| {shown} | {total} | {here}{share} |")
    return "\n".join(lines + ["", END])


def readme_with(table_text: str) -> str:
    """README's text with its coverage table replaced by `table_text`."""
    text = README.read_text(encoding="utf-8")
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + table_text + text[stop:]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", metavar="NAMESPACE",
                        help="list what a namespace lacks ('submodules': the modules)")
    parser.add_argument("--write", action="store_true", help="rewrite README's table")
    parser.add_argument("--check", action="store_true", help="fail if README's table is stale")
    args = parser.parse_args(argv)
    if args.missing:
        print("\n".join(missing(args.missing)))
        return 0
    table_text = render(rows(README_SECTIONS if args.write or args.check else None))
    if args.write:
        README.write_text(readme_with(table_text), encoding="utf-8")
    elif args.check:
        if readme_with(table_text) != README.read_text(encoding="utf-8"):
            print("README's coverage table is stale: run python tools/coverage.py --write",
                  file=sys.stderr)
            return 1
    else:
        print(table_text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
