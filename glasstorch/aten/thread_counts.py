"""How many threads torch's CPU pools start with, decided as torch 2.13's wheel decides.

Note [Default thread counts]
    torch's Linux wheel runs its intra-op work on OpenMP and asks MKL for the count
    (ATen's `init_num_threads`: ``omp_set_num_threads(mkl_get_max_threads())``), so:

    * ``MKL_NUM_THREADS``, read as C's `atoi` reads ("2abc" is 2), when it is positive;
    * else ``OMP_NUM_THREADS``, read as OpenMP reads it: a comma-separated list of
      positive integers with blanks allowed, whose first entry counts ("2,1" is 2;
      "2x", "0" and "" are ignored);
    * else every core;

    and never more than the physical cores the process may run on (``taskset -c 0``
    gives 1; hyperthreads of one core count once). An explicit `torch.set_num_threads(n)`
    takes `n` as it is. The inter-op pool starts with one thread per logical CPU of the
    machine, whatever the affinity (C++'s `hardware_concurrency`).
"""
from __future__ import annotations

import os
import pathlib
import re

_ATOI = re.compile(r"\s*([+-]?\d+)")
_OMP_LIST = re.compile(r"\s*(\d+)\s*(,.*)?")


def mkl_count(text) -> int:
    """``MKL_NUM_THREADS``'s value as `atoi` reads it (0 when unset or unreadable)."""
    match = _ATOI.match(text or "")
    return int(match.group(1)) if match else 0


def omp_count(text) -> int:
    """``OMP_NUM_THREADS``'s first entry (0 when unset or not a valid list)."""
    match = _OMP_LIST.fullmatch(text or "")
    return int(match.group(1)) if match else 0


def usable_cpus() -> list:
    """The logical CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def physical_cores(cpus: list, root: str = "/sys/devices/system/cpu") -> int:
    """How many physical cores `cpus` span (the count itself where Linux's topology
    files under `root` cannot be read)."""
    cores = set()
    for cpu in cpus:
        topology = pathlib.Path(root, f"cpu{cpu}", "topology")
        try:
            cores.add((topology.joinpath("physical_package_id").read_text(),
                       topology.joinpath("core_id").read_text()))
        except OSError:
            return len(cpus)
    return len(cores)


def intra_op_default(environ=os.environ) -> int:
    """The intra-op thread count a process starts with (Note [Default thread counts])."""
    cores = max(1, physical_cores(usable_cpus()))
    asked = mkl_count(environ.get("MKL_NUM_THREADS"))
    if asked <= 0:
        asked = omp_count(environ.get("OMP_NUM_THREADS"))
    return min(asked, cores) if asked > 0 else cores


def inter_op_default() -> int:
    """The inter-op thread count a process starts with: the machine's logical CPUs."""
    return os.cpu_count() or 1
