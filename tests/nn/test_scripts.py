"""Whole PyTorch training scripts, run unchanged on glasstorch and on torch.

Each script imports ``glasstorch as torch`` and nothing else of glasstorch; the torch run
is the same text with that one line changed to ``import torch``. Both start from the
same seed, so (with torch-identical random streams for weights, batches and dropout
masks) their loss curves must agree to float32 tolerance over 50 steps. Without torch,
the glasstorch run alone must train: its loss falls.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = {
    "nanogpt": (ROOT / "examples" / "train_char_lm.py",
                ["--steps", "50", "--log-losses", "--width", "32", "--heads", "2",
                 "--layers", "2", "--context", "16", "--batch", "8", "--sample", "20"]),
    "mlp_classifier": (ROOT / "tests" / "nn" / "scripts" / "mlp_classifier.py", ["50"]),
    "word_language_model_transformer": (ROOT / "tests" / "nn" / "scripts" /
                                        "word_language_model_transformer.py", ["50"]),
    "every_loss": (ROOT / "tests" / "nn" / "scripts" / "every_loss.py", ["50"]),
    "dataloader": (ROOT / "tests" / "nn" / "scripts" / "dataloader_regression.py", ["50"]),
    "mnist": (ROOT / "tests" / "nn" / "scripts" / "mnist_net.py", ["50"]),
    "cifar_resnet": (ROOT / "tests" / "nn" / "scripts" / "cifar_resnet.py", ["50"]),
    "word_language_model_lstm": (ROOT / "tests" / "nn" / "scripts" / "word_language_model.py",
                                 ["50", "LSTM"]),
    "time_sequence_prediction": (ROOT / "tests" / "nn" / "scripts" /
                                 "time_sequence_prediction.py", ["50"]),
    "vae": (ROOT / "tests" / "distributions" / "scripts" / "vae.py", ["50"]),
    "reinforce": (ROOT / "tests" / "distributions" / "scripts" / "reinforce.py", ["50"]),
}
IMPORT = "import glasstorch as torch\n"


def run(path: Path, args: list, tmp_path: Path, library: str) -> list:
    """Run the script with `library` ('glasstorch' or 'torch'); one dict of losses per step."""
    source = path.read_text()
    rest = source.replace(IMPORT, "")
    assert source.count(IMPORT) == 1 and "import glasstorch" not in rest
    assert "glasstorch." not in rest and "from glasstorch" not in rest
    folder = tmp_path / library
    folder.mkdir()
    script = folder / path.name
    script.write_text(source.replace(IMPORT, f"import {library} as torch\n"))
    data = path.parent / "data"
    if data.exists():
        (folder / "data").symlink_to(data)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
        str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(script), *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    steps = [line for line in done.stdout.splitlines() if line.startswith("step ")]
    return [{k: float(v) for k, v in re.findall(r"(\w+) (-?[\d.e+-]+)", line[5:].split(" ", 1)[1])}
            for line in steps]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_trains(name, tmp_path):
    path, args = SCRIPTS[name]
    curve = run(path, args, tmp_path, "glasstorch")
    assert len(curve) == 50
    first, last = curve[0], curve[-1]
    assert sum(last.values()) < sum(first.values())


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_matches_torch(name, tmp_path):
    pytest.importorskip("torch")
    path, args = SCRIPTS[name]
    ours = run(path, args, tmp_path, "glasstorch")
    theirs = run(path, args, tmp_path, "torch")
    assert len(ours) == len(theirs) == 50
    for step, (mine, ref) in enumerate(zip(ours, theirs)):
        assert mine.keys() == ref.keys()
        for key in ref:
            assert mine[key] == pytest.approx(ref[key], rel=2e-4, abs=1e-5), (step, key)
