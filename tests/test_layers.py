"""The layers enforced: every import between glasstorch's modules follows the layer map
(`layer_map.py`), and no modules import each other in a cycle, counting imports inside
functions too (`import_graph.py` reads them). The checks are tested on a small
synthetic package as well, so a checker that stopped seeing would be noticed.
"""
import pathlib
import types

import pytest

import import_graph as graph
import layer_map

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def package():
    return graph.read_imports(ROOT, "glasstorch")


def test_every_module_has_a_layer(package):
    _, paths = package
    missing = graph.unplaced(paths, layer_map.LAYERS)
    assert not missing, f"modules no layer names (add them to tests/layer_map.py): {missing}"


def test_imports_follow_the_layer_map(package):
    broken = graph.layer_violations(*package, layer_map)
    assert not broken, "imports breaking tests/layer_map.py:\n" + "\n".join(broken)


def test_no_import_cycles(package):
    imports, paths = package
    found = [graph.describe_cycle(c, imports, paths) for c in graph.cycles(imports)]
    assert not found, "\n".join(found)


def test_the_map_names_real_layers_and_real_files(package):
    _, paths = package
    layers = set(layer_map.LAYERS)
    assert set(layer_map.MAY_IMPORT) == layers
    named = {n for allowed in layer_map.MAY_IMPORT.values() for n in allowed}
    named |= {n for guarded in layer_map.PUBLIC_ONLY.values() for n in guarded}
    assert named | set(layer_map.PUBLIC_ONLY) <= layers
    entries = [e for group in layer_map.LAYERS.values() for e in group]
    files = set(paths.values())
    stale = [e for e in entries if not any(f == e or f.startswith(e) for f in files)]
    assert not stale, f"layer entries naming no module: {stale}"
    for (source, target), reason in layer_map.EXCEPTIONS.items():
        assert source in files and target in files and reason, (source, target)


# ----- the checker itself, on a synthetic package -----------------------------------
SYNTHETIC = {
    "pkg/__init__.py": "from .high import b\n",
    "pkg/low/__init__.py": "",
    "pkg/low/a.py": "def f():\n    from ..high import b\n",
    "pkg/low/c.py": "import importlib\nMOD = importlib.import_module('pkg.high.b')\n",
    "pkg/low/d.py": "_secret = 1\n\n\nclass K:\n    def m(self):\n        from .. import high\n",
    "pkg/high/__init__.py": "",
    "pkg/high/b.py": "from ..low import a\nfrom ..low.d import _secret\n",
    "pkg/high/p.py": "from ..low import d as lows\n\n\ndef g():\n    return lows._secret\n",
    "pkg/high/x.py": "from . import y\n",
    "pkg/high/y.py": "def h():\n    import pkg.high.x\n",
    "pkg/stray.py": "",
}
RULES = types.SimpleNamespace(
    LAYERS={"low": ("pkg/low/",), "high": ("pkg/high/",), "top": ("pkg/__init__.py",)},
    MAY_IMPORT={"low": (), "high": ("low",), "top": ("low", "high")},
    PUBLIC_ONLY={"high": ("low",)}, EXCEPTIONS={})


@pytest.fixture()
def synthetic(tmp_path):
    for name, text in SYNTHETIC.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return graph.read_imports(tmp_path, "pkg")


def test_checker_sees_upward_imports_of_every_form(synthetic):
    broken = graph.layer_violations(*synthetic, RULES)
    assert "pkg/low/a.py:2 (in f) imports pkg.high.b: low may import no other layer, " \
           "not high" in broken                                      # relative, in a function
    assert "pkg/low/c.py:2 (at module level) imports pkg.high.b: low may import no other " \
           "layer, not high" in broken                               # importlib, a string
    assert "pkg/low/d.py:6 (in K.m) imports pkg.high: low may import no other layer, " \
           "not high" in broken                                      # two dots, a package
    assert len([b for b in broken if "may import" in b]) == 3


def test_checker_sees_private_names(synthetic):
    broken = graph.layer_violations(*synthetic, RULES)
    assert "pkg/high/b.py:2 (at module level) imports pkg.low.d (_secret): high may use " \
           "only public names of low, and _secret is private" in broken
    assert "pkg/high/p.py:5 (in g) imports pkg.low.d (_secret): high may use only public " \
           "names of low, and _secret is private" in broken         # read off the module


def test_checker_sees_cycles_through_functions(synthetic):
    imports, paths = synthetic
    found = graph.cycles(imports)
    assert ["pkg.high.x", "pkg.high.y"] in found
    text = graph.describe_cycle(["pkg.high.x", "pkg.high.y"], imports, paths)
    assert text.splitlines() == [
        "import cycle between pkg/high/x.py, pkg/high/y.py:",
        "  pkg/high/x.py:1 (at module level) imports pkg.high.y",
        "  pkg/high/y.py:2 (in h) imports pkg.high.x"]


def test_checker_sees_modules_without_a_layer(synthetic):
    assert graph.unplaced(synthetic[1], RULES.LAYERS) == ["pkg/stray.py"]
