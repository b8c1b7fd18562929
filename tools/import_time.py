"""What `import glasstorch` costs, measured in fresh interpreters.

    python tools/import_time.py           # 10 runs: NumPy, ml_dtypes, glasstorch's own share
    python tools/import_time.py -n 20 --modules 15   # and the 15 costliest modules

Each run is a new process with warm bytecode caches (the script compiles the package
first: an environment with PYTHONDONTWRITEBYTECODE set would otherwise measure the
compiler). It imports NumPy and ml_dtypes first, then glasstorch, and reads the CPU
time of each step (`time.process_time`: on a loaded machine, wall time mostly measures
the other processes); the minimum over the runs is printed, as wall time of the whole.
`--modules` adds ``-X importtime``'s own time of each glasstorch module, the minimum
over the runs, largest first.
"""
from __future__ import annotations

import argparse
import compileall
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
_STEPS = ("numpy", "ml_dtypes", "glasstorch", "all (wall)")
_PROGRAM = """
import time
cpu, wall = time.process_time, time.perf_counter
start, start_wall = cpu(), wall()
import numpy
after_numpy = cpu()
import ml_dtypes
after_ml_dtypes = cpu()
import glasstorch
print(after_numpy - start, after_ml_dtypes - after_numpy, cpu() - after_ml_dtypes,
      wall() - start_wall)
"""
_IMPORTTIME = re.compile(r"import time:\s+(\d+) \|\s+\d+ \|\s*(glasstorch\S*)")


def _run(*flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *flags, "-c", _PROGRAM], capture_output=True,
                          text=True, check=True, cwd=ROOT)


def steps(runs: int) -> dict:
    """The minimum over `runs` fresh processes of each step's seconds."""
    times = [[float(x) for x in _run().stdout.split()] for _ in range(runs)]
    return {step: min(run[i] for run in times) for i, step in enumerate(_STEPS)}


def module_times(runs: int) -> dict:
    """glasstorch module -> its own import microseconds (``-X importtime``), the minimum."""
    best: dict = {}
    for _ in range(runs):
        for micros, name in _IMPORTTIME.findall(_run("-X", "importtime").stderr):
            best[name] = min(best.get(name, int(micros)), int(micros))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=10)
    parser.add_argument("--modules", type=int, default=0, metavar="K",
                        help="also list the K costliest glasstorch modules")
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "glasstorch", quiet=2)
    for step, seconds in steps(args.runs).items():
        print(f"{step:>12}: {seconds * 1e3:7.1f} ms")
    if args.modules:
        best = module_times(args.runs)
        print(f"{len(best)} glasstorch modules, {sum(best.values()) / 1e3:.1f} ms in all; "
              f"the costliest (own time):")
        for name, micros in sorted(best.items(), key=lambda item: -item[1])[:args.modules]:
            print(f"{micros / 1e3:7.2f} ms  {name}")


if __name__ == "__main__":
    main()
