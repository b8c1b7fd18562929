"""Thread counts as torch decides them (Note [Default thread counts]).

The environment is read when a process starts, and the inter-op count may be set once per
process: each case runs in a fresh interpreter, glasstorch's and torch's side by side.
"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from glasstorch.aten import thread_counts

ROOT = pathlib.Path(__file__).resolve().parents[2]
REPORT = ("import json; print(json.dumps([torch.get_num_threads(), "
          "torch.get_num_interop_threads()]))")
ENVIRONMENTS = [
    {}, {"OMP_NUM_THREADS": "1"}, {"OMP_NUM_THREADS": "64"}, {"OMP_NUM_THREADS": "1,2"},
    {"OMP_NUM_THREADS": "1x"}, {"MKL_NUM_THREADS": "1abc"},
    {"MKL_NUM_THREADS": "0", "OMP_NUM_THREADS": "1"},
    {"MKL_NUM_THREADS": "64", "OMP_NUM_THREADS": "1"},
]


def run(module: str, code: str, env: dict = None, cpus=None) -> list:
    """`code` run after ``import <module> as torch`` in a fresh interpreter; its JSON output."""
    environ = {k: v for k, v in os.environ.items()
               if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    environ.update(env or {})
    pin = f"import os; os.sched_setaffinity(0, {cpus!r}); " if cpus else ""
    result = subprocess.run([sys.executable, "-c", f"{pin}import {module} as torch; {code}"],
                            cwd=ROOT, env=environ, capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("env", ENVIRONMENTS, ids=lambda env: repr(env))
def test_counts_from_environment(env):
    pytest.importorskip("torch")
    assert run("glasstorch", REPORT, env) == run("torch", REPORT, env)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity")
def test_counts_under_affinity():
    pytest.importorskip("torch")
    assert run("glasstorch", REPORT, cpus={0}) == run("torch", REPORT, cpus={0})


INTEROP = """
import json
def attempt(function, *args):
    try:
        return ["ok", function(*args)]
    except Exception as error:
        return [type(error).__name__, str(error)]
steps = [attempt(torch.set_num_interop_threads, 0), attempt(torch.set_num_interop_threads, 1.5),
         attempt(torch.set_num_interop_threads, 2 ** 31), attempt(torch.get_num_interop_threads),
         attempt(torch.set_num_interop_threads, 3), attempt(torch.get_num_interop_threads),
         attempt(torch.set_num_interop_threads, 4), attempt(torch.get_num_interop_threads),
         attempt(torch.set_num_threads, 3), attempt(torch.init_num_threads),
         attempt(torch.get_num_threads)]
print(json.dumps(steps))
"""


def test_interop_set_once_and_refusals():
    pytest.importorskip("torch")
    steps = run("glasstorch", INTEROP)
    assert steps[6] == ["RuntimeError", "Error: cannot set number of interop threads after "
                        "parallel work has started or set_num_interop_threads called"]
    assert steps == run("torch", INTEROP)


def test_explicit_count_wins_over_environment():
    code = ("torch.set_num_threads(5); import json; "
            "print(json.dumps([torch.get_num_threads()]))")
    assert run("glasstorch", code, {"OMP_NUM_THREADS": "1"}) == [5]


@pytest.mark.parametrize("text, count", [(None, 0), ("", 0), ("3", 3), (" 3", 3), ("3abc", 3),
                                         ("1.5", 1), ("-2", -2), ("abc", 0)])
def test_mkl_reads_as_atoi(text, count):
    assert thread_counts.mkl_count(text) == count


@pytest.mark.parametrize("text, count", [(None, 0), ("", 0), ("3", 3), (" 3 ", 3), ("2,1", 2),
                                         ("2x", 0), ("1.5", 0), ("-1", 0)])
def test_omp_reads_a_list(text, count):
    assert thread_counts.omp_count(text) == count


def test_default_caps_at_cores(monkeypatch):
    monkeypatch.setattr(thread_counts, "physical_cores", lambda cpus: 2)
    assert thread_counts.intra_op_default({"OMP_NUM_THREADS": "8"}) == 2
    assert thread_counts.intra_op_default({"OMP_NUM_THREADS": "1"}) == 1
    assert thread_counts.intra_op_default({"MKL_NUM_THREADS": "0", "OMP_NUM_THREADS": "1"}) == 1
    assert thread_counts.intra_op_default({}) == 2


def test_hyperthreads_count_once(tmp_path):
    """Two logical CPUs of one core are one physical core."""
    for cpu, core in ((0, "0"), (1, "0"), (2, "1")):
        folder = tmp_path / f"cpu{cpu}" / "topology"
        folder.mkdir(parents=True)
        (folder / "physical_package_id").write_text("0\n")
        (folder / "core_id").write_text(core + "\n")
    assert thread_counts.physical_cores([0, 1, 2], tmp_path) == 2
    assert thread_counts.physical_cores([0, 1, 5], tmp_path) == 3     # cpu5 unreadable
