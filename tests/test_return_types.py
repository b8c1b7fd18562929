"""`torch.return_types`: each named-results type is made on first lookup, and the public
module finds every declared one (also those a family declares when it loads)."""
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import glasstorch as gt
from glasstorch.aten import return_types

ROOT = Path(__file__).resolve().parents[1]


def test_types_are_made_on_first_lookup():
    code = ("import glasstorch as torch\n"
            "from glasstorch.aten import return_types\n"
            "print(len(return_types._TYPES))\n"
            "torch.return_types.sort\n"
            "print(sorted(return_types._TYPES))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:2] == ["0", "['sort']"]


@pytest.mark.parametrize("name", ["sort", "sort_out", "linalg_lstsq", "_linalg_det"])
def test_the_public_module_finds_declared_types(name):
    found = getattr(gt.return_types, name)
    assert found is return_types.lookup(name) and name in dir(gt.return_types)
    assert (found.__module__, found.__name__) == ("glasstorch.return_types", name)
    value = found(range(len(found._fields)))
    assert pickle.loads(pickle.dumps(value)) == value


def test_results_are_the_public_types():
    x = gt.tensor([3.0, 1.0, 2.0])
    assert type(gt.sort(x)) is gt.return_types.sort
    # a type declared by a family that loads on first use is found there too
    result = gt.histogramdd(gt.rand(5, 2), bins=2)
    assert type(result) is gt.return_types.histogramdd


def test_a_missing_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_result'"):
        gt.return_types.no_such_result
