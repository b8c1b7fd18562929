"""``python -m glasstorch script.py``: a PyTorch script's imports answered by glasstorch
(Note [Answering import torch] in glasstorch/torch_alias.py)."""
import importlib
import pathlib
import subprocess
import sys
import textwrap

import pytest

from glasstorch.aten.torch_names import torch_submodules

ROOT = pathlib.Path(__file__).resolve().parent.parent

SCRIPT = """
    import sys
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils.data import DataLoader, TensorDataset
    import glasstorch

    # one module under two names, so one state: grad mode, classes, generators
    assert torch is glasstorch and nn is glasstorch.nn and F is glasstorch.nn.functional
    assert sys.modules["torch.utils.data"] is glasstorch.utils.data
    assert nn.__spec__.name == "glasstorch.nn"
    with torch.no_grad():
        assert not glasstorch.is_grad_enabled()
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    loader = DataLoader(TensorDataset(torch.randn(8, 3), torch.randn(8, 1)), batch_size=4)
    for x, y in loader:
        F.mse_loss(model(x), y).backward()
    assert isinstance(model.weight.grad, glasstorch.Tensor)
    print("args", sys.argv[1:])
"""


def run(tmp_path, source: str, *args: str) -> subprocess.CompletedProcess:
    script = tmp_path / "program.py"
    script.write_text(textwrap.dedent(source))
    return subprocess.run([sys.executable, "-m", "glasstorch", str(script), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_a_torch_script_runs_on_glasstorch(tmp_path):
    done = run(tmp_path, SCRIPT, "--steps", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "args ['--steps', '2']"


def _a_module_not_written_yet():
    """A torch module glasstorch does not have yet (as modules get written, another)."""
    for name in sorted(torch_submodules()):
        try:
            importlib.import_module("glasstorch" + name[len("torch"):])
        except ModuleNotFoundError:
            return name
    pytest.skip("glasstorch has every torch module")


def test_a_torch_module_not_written_yet_says_so(tmp_path):
    name = _a_module_not_written_yet()
    done = run(tmp_path, f"import {name}\n")
    assert done.returncode == 1
    mine = "glasstorch" + name[len("torch"):]
    assert (f"ModuleNotFoundError: No module named '{mine}': glasstorch does not "
            f"implement {name} yet") in done.stderr


def test_without_a_script_it_says_how_to_use_it():
    done = subprocess.run([sys.executable, "-m", "glasstorch"], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and "python -m glasstorch script.py" in done.stdout
