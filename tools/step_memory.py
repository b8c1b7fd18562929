"""Peak resident memory of training steps, glasstorch beside torch (issue 22's memory goal).

Each library runs in a fresh process: the case's setup is built, the kernel's peak
resident mark is reset (``/proc/self/clear_refs``), three steps run, and the peak above
the resident size after setup is printed (Linux only). Both libraries keep freed memory
in their allocators, so the peak of the first steps is the step's working set.

    python tools/step_memory.py            # every case, both libraries
    python tools/step_memory.py mlp        # one case
"""
from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
CASES = {"transformer": ("bench.cases.transformer", "_encoder"),
         "gpt": ("bench.cases.training", "_gpt"),
         "mlp": ("bench.cases.training", "_mlp")}

_CHILD = """
import importlib, sys
import numpy as np
library = importlib.import_module(sys.argv[1])
library.set_num_threads(1)
setup = getattr(importlib.import_module(sys.argv[2]), sys.argv[3])
step = setup(library, np)["step"]

def resident(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1])

before = resident("VmRSS")
with open("/proc/self/clear_refs", "w") as marks:
    marks.write("5")                     # reset VmHWM, the peak resident size
for _ in range(3):
    step()
print((resident("VmHWM") - before) / 1024)
"""


def peak_mib(library: str, case: str) -> float:
    """The peak resident memory (MiB) three steps of `case` add over its setup."""
    module, setup = CASES[case]
    done = subprocess.run([sys.executable, "-c", _CHILD, library, module, setup], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def main(names: list) -> None:
    for case in names or list(CASES):
        mine, theirs = peak_mib("glasstorch", case), peak_mib("torch", case)
        print(f"{case:12s} glasstorch {mine:7.1f} MiB   torch {theirs:7.1f} MiB   "
              f"ratio {mine / theirs:5.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
