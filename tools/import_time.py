"""What `import glasstorch` costs, measured in fresh interpreters.

    python tools/import_time.py           # 10 runs: NumPy, ml_dtypes, glasstorch's own share
    python tools/import_time.py -n 20 --modules 15   # and the 15 costliest modules
    python tools/import_time.py --no-bytecode         # glasstorch compiled at each import

Each run is a new process with warm bytecode caches (the script compiles the package
first: an environment with PYTHONDONTWRITEBYTECODE set would otherwise measure the
compiler). It imports NumPy and ml_dtypes first, then glasstorch, and reads the CPU
time of each step (`time.process_time`: on a loaded machine, wall time mostly measures
the other processes); the minimum over the runs is printed, as wall time of the whole.
`--modules` adds ``-X importtime``'s own time of each glasstorch module, the minimum
over the runs, largest first. `--no-bytecode` measures what a shell with
PYTHONDONTWRITEBYTECODE set and no cached bytecode of glasstorch pays: each run
compiles every glasstorch module it imports (NumPy and ml_dtypes still read the
bytecode their installation wrote), and `--modules` then shows compiling too.
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
{no_bytecode}import glasstorch
print(after_numpy - start, after_ml_dtypes - after_numpy, cpu() - after_ml_dtypes,
      wall() - start_wall)
"""
# `--no-bytecode`: glasstorch's cached bytecode is not found (the prefix names no folder),
# and none is written
_NO_BYTECODE = ("import sys\n"
                "sys.dont_write_bytecode, sys.pycache_prefix = True, '/nonexistent'\n")
_IMPORTTIME = re.compile(r"import time:\s+(\d+) \|\s+\d+ \|\s*(glasstorch\S*)")


def _run(*flags: str, bytecode: bool = True) -> subprocess.CompletedProcess:
    program = _PROGRAM.format(no_bytecode="" if bytecode else _NO_BYTECODE)
    return subprocess.run([sys.executable, *flags, "-c", program], capture_output=True,
                          text=True, check=True, cwd=ROOT)


def steps(runs: int, bytecode: bool = True) -> dict:
    """The minimum over `runs` fresh processes of each step's seconds."""
    times = [[float(x) for x in _run(bytecode=bytecode).stdout.split()] for _ in range(runs)]
    return {step: min(run[i] for run in times) for i, step in enumerate(_STEPS)}


def module_times(runs: int, bytecode: bool = True) -> dict:
    """glasstorch module -> its own import microseconds (``-X importtime``), the minimum."""
    best: dict = {}
    for _ in range(runs):
        stderr = _run("-X", "importtime", bytecode=bytecode).stderr
        for micros, name in _IMPORTTIME.findall(stderr):
            best[name] = min(best.get(name, int(micros)), int(micros))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=10)
    parser.add_argument("--modules", type=int, default=0, metavar="K",
                        help="also list the K costliest glasstorch modules")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="compile glasstorch at each import, as without cached bytecode")
    args = parser.parse_args()
    bytecode = not args.no_bytecode
    if bytecode:
        compileall.compile_dir(ROOT / "glasstorch", quiet=2)
    for step, seconds in steps(args.runs, bytecode).items():
        print(f"{step:>12}: {seconds * 1e3:7.1f} ms")
    if args.modules:
        best = module_times(args.runs, bytecode)
        print(f"{len(best)} glasstorch modules, {sum(best.values()) / 1e3:.1f} ms in all; "
              f"the costliest (own time):")
        for name, micros in sorted(best.items(), key=lambda item: -item[1])[:args.modules]:
            print(f"{micros / 1e3:7.2f} ms  {name}")


if __name__ == "__main__":
    main()
