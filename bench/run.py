"""Run the benchmark cases and print one table: glasstorch vs NumPy vs torch.

    python bench/run.py                  # every case
    python bench/run.py -k view          # cases whose name contains 'view'
    python bench/run.py --quick          # fewer repeats: a smoke test, not a measurement

Each time is the minimum over repeats of the mean time per call (timeit's advice:
the minimum is the run least disturbed by the rest of the machine). torch's column
appears when torch is importable; install it pinned, ``pip install torch==2.13.0``.
"""
from __future__ import annotations

import argparse
import importlib
import math
import pathlib
import pkgutil
import platform
import sys
import timeit

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:            # `python bench/run.py` from a checkout
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import glasstorch  # noqa: E402
from bench import CASES  # noqa: E402


def load_cases() -> None:
    """Import every module of `bench/cases/`, which registers its cases."""
    from bench import cases
    for module in pkgutil.iter_modules(cases.__path__):
        importlib.import_module(f"bench.cases.{module.name}")


def load_torch():
    """Real torch when it is installed, else None (its column is left empty)."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def time_statement(stmt: str, names: dict, repeats: int, target: float) -> float:
    """Seconds per execution of `stmt`: the minimum over `repeats` timed loops.

    The loop length is chosen so one loop takes about `target` seconds.
    """
    timer = timeit.Timer(stmt, globals=names)
    number = 1
    while True:                                  # grow the loop until it is measurable
        elapsed = timer.timeit(number)
        if elapsed >= target / 10 or number >= 10**7:
            break
        number *= 10
    number = max(1, int(number * target / max(elapsed, 1e-9)))
    return min(timer.repeat(repeat=repeats, number=number)) / number


_DEFAULT_THREADS: dict = {}      # library -> its thread count at start


def setup_names(case, library) -> dict:
    """The case's names for `library`, set up on the library's default thread count (a
    case that wants another count sets it; the next case starts from the default)."""
    threads = _DEFAULT_THREADS.setdefault(library, library.get_num_threads())
    library.set_num_threads(threads)
    return case.setup(library, np)


def measure(case, torch, repeats: int, target: float) -> dict:
    """Time one case on every library available; None where it cannot run."""
    row = {"glasstorch": None, "numpy": None, "torch": None, "error": None}
    try:
        names = setup_names(case, glasstorch)
        exec(case.stmt, dict(names))             # fail fast, before timing
        row["glasstorch"] = time_statement(case.stmt, names, repeats, target)
        if case.numpy is not None:
            row["numpy"] = time_statement(case.numpy, names, repeats, target)
    except Exception as exc:                     # report, keep going with the other cases
        row["error"] = f"{type(exc).__name__}: {exc}".splitlines()[0][:70]
        return row
    if torch is not None:
        try:
            row["torch"] = time_statement(case.stmt, setup_names(case, torch), repeats, target)
        except Exception as exc:
            row["error"] = f"torch: {type(exc).__name__}: {exc}".splitlines()[0][:70]
    return row


def format_time(seconds) -> str:
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.2f} {unit}"
    return f"{seconds / 1e-9:.0f} ns"


def ratio(a, b):
    return None if a is None or b is None else a / b


def format_ratio(value) -> str:
    return "-" if value is None else f"{value:.2f}x"


def print_table(rows: list) -> None:
    headers = ("case", "glasstorch", "numpy", "torch", "gt/numpy", "gt/torch")
    width = max([len(headers[0])] + [len(case.name) for case, _ in rows]) + 2
    line = f"{headers[0]:<{width}}" + "".join(f"{h:>12}" for h in headers[1:])
    group = None
    print(line)
    print("-" * len(line))
    for case, row in rows:
        if case.group != group:
            group = case.group
            print(f"[{group}]")
        if row["error"] and row["glasstorch"] is None:
            print(f"{case.name:<{width}}  error: {row['error']}")
            continue
        cells = (format_time(row["glasstorch"]), format_time(row["numpy"]),
                 format_time(row["torch"]), format_ratio(ratio(row["glasstorch"], row["numpy"])),
                 format_ratio(ratio(row["glasstorch"], row["torch"])))
        print(f"{case.name:<{width}}" + "".join(f"{c:>12}" for c in cells))
        if row["error"]:
            print(f"{'':<{width}}  note: {row['error']}")


def geometric_mean(values: list):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def print_summary(rows: list) -> None:
    vs_numpy = [ratio(r["glasstorch"], r["numpy"]) for _, r in rows]
    vs_torch = [ratio(r["glasstorch"], r["torch"]) for _, r in rows]
    vs_numpy = [v for v in vs_numpy if v is not None]
    vs_torch = [v for v in vs_torch if v is not None]
    failed = [case.name for case, r in rows if r["error"]]
    print()
    print(f"summary: {len(rows)} cases", end="")
    if vs_numpy:
        print(f"; glasstorch/numpy geometric mean {geometric_mean(vs_numpy):.2f}x", end="")
    if vs_torch:
        faster = sum(v <= 1.0 for v in vs_torch)
        print(f"; glasstorch/torch geometric mean {geometric_mean(vs_torch):.2f}x "
              f"(at or below torch in {faster} of {len(vs_torch)})", end="")
    print()
    if failed:
        print(f"errors in: {', '.join(failed)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", dest="pattern", default="",
                        help="only cases whose name or group contains this text")
    parser.add_argument("--repeats", type=int, default=7, help="timed loops per measurement")
    parser.add_argument("--target", type=float, default=0.02,
                        help="seconds per timed loop (default 0.02)")
    parser.add_argument("--quick", action="store_true",
                        help="2 short loops per measurement: checks the cases run")
    parser.add_argument("--no-torch", action="store_true", help="skip the torch column")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats, args.target = 2, 0.002

    load_cases()
    torch = None if args.no_torch else load_torch()
    selected = [c for c in CASES.values()
                if args.pattern in c.name or args.pattern in c.group]
    print(f"glasstorch {glasstorch.__version__} | numpy {np.__version__} | torch "
          f"{torch.__version__ if torch else 'not installed'} | Python "
          f"{platform.python_version()} | min of {args.repeats} loops of ~{args.target}s")
    rows = [(c, measure(c, torch, args.repeats, args.target)) for c in selected]
    print_table(rows)
    print_summary(rows)
    return 1 if any(r["glasstorch"] is None for _, r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
