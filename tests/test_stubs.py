"""Type stubs: the generated ones are up to date, and mypy checks a typed program with them."""
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "typing" / "typed_training.py"


def test_package_is_typed():
    assert (ROOT / "glasstorch" / "py.typed").exists()


def test_stubs_are_fresh():
    """glasstorch/__init__.pyi and _tensor.pyi are what tools/stubs.py writes now."""
    result = subprocess.run([sys.executable, "tools/stubs.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def mypy(tmp_path, script: pathlib.Path) -> subprocess.CompletedProcess:
    """mypy on `script` alone (glasstorch's own modules are read, not reported on)."""
    pytest.importorskip("mypy")
    return subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent",
                           "--cache-dir", str(tmp_path / "cache"), "--no-error-summary",
                           str(script)], cwd=ROOT, capture_output=True, text=True)


def test_mypy_accepts_a_typed_training_script(tmp_path):
    result = mypy(tmp_path, SCRIPT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_sees_the_signatures(tmp_path):
    """The stubs give types, not Any: mistakes in the same script are caught."""
    wrong = tmp_path / "wrong.py"
    shutil.copy(SCRIPT, wrong)
    with wrong.open("a") as file:
        file.write("label: str = torch.zeros(2)\n"
                   "torch.add(torch.ones(2), 'one')\n"
                   "torch.ones(2).no_such_method()\n"
                   "nn.functional.gelu(torch.ones(2), approximate=1)\n")
    output = mypy(tmp_path, wrong).stdout
    assert 'expression has type "Tensor", variable has type "str"' in output
    assert 'Argument 2 to "add" has incompatible type "str"' in output
    assert '"Tensor" has no attribute "no_such_method"' in output
    assert 'Argument "approximate" to "gelu" has incompatible type "int"' in output
