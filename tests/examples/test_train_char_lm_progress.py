"""The demo's progress bar: redrawn in place on a terminal, a line per interval on a log."""
import importlib.util
import io
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "train_char_lm.py"


def load_demo():
    spec = importlib.util.spec_from_file_location("train_char_lm", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Terminal(io.StringIO):
    def isatty(self):
        return True


def run_bar(stream, total=100, lines=20):
    bar = load_demo().Progress(total, stream, lines=lines)
    for step in range(1, total + 1):
        bar.update(step, 2.0 / step, 1000.0 * step)
    bar.close()
    return stream.getvalue()


def test_log_gets_a_line_per_interval():
    text = run_bar(io.StringIO(), total=103, lines=10)
    assert "\r" not in text
    lines = text.splitlines()
    assert len(lines) == 11 and lines[0].startswith("step    10/103 [##")
    assert lines[-1].startswith("step   103/103 [" + "#" * 30 + "]")


def test_terminal_redraws_in_place():
    text = run_bar(Terminal(), total=50)
    assert text.count("\r") == 50 and text.endswith("\n") and text.count("\n") == 1


def test_demo_run_logs_without_carriage_returns():
    args = ["--steps", "4", "--width", "16", "--heads", "2", "--layers", "1", "--context", "8",
            "--batch", "2", "--sample", "5"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
        str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "\r" not in done.stderr
    assert [line[:10] for line in done.stderr.splitlines()] == [
        f"step {step:5d}" for step in range(1, 5)]
