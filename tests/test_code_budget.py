"""House rules checked on the source tree itself.

* Every module under glasstorch/ stays under the size budget (STYLE.md item 14):
  a file that outgrows it should be split by topic.
* glasstorch never imports torch (DESIGN.md section 1): only tests and benchmarks may.
* Every folder of Python modules is a regular package (has ``__init__.py``), so a
  non-editable ``pip install .`` ships it.
"""
import pathlib
import re

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "glasstorch"
LINE_BUDGET = 600
IMPORTS_TORCH = re.compile(r"^\s*(import torch\b|from torch\b)", re.MULTILINE)

SOURCES = sorted(PACKAGE.rglob("*.py"))


def _name(path: pathlib.Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def test_package_found():
    assert PACKAGE.is_dir() and SOURCES, f"no sources under {PACKAGE}"


@pytest.mark.parametrize("path", SOURCES, ids=_name)
def test_file_under_line_budget(path):
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines < LINE_BUDGET, (
        f"{_name(path)} has {lines} lines; the budget is {LINE_BUDGET}: split it by topic")


@pytest.mark.parametrize("path", SOURCES, ids=_name)
def test_never_imports_torch(path):
    match = IMPORTS_TORCH.search(path.read_text(encoding="utf-8"))
    assert match is None, f"{_name(path)} imports torch: {match.group(0).strip()!r}"


def test_every_source_folder_is_a_package():
    folders = {p.parent for p in SOURCES}
    missing = sorted(_name(f) for f in folders if not (f / "__init__.py").exists())
    assert not missing, f"folders without __init__.py (pip install would drop them): {missing}"
