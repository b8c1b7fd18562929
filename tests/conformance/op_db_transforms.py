"""torch.func's transforms over torch's op_db: jacrev, jacfwd and grad against torch's.

For each record of the "pointwise" and "operators" families, the first float64 sample
whose input is a small floating tensor becomes a function of that input (the other
arguments fixed; a tuple result's first tensor). Its Jacobian by `jacrev` and by
`jacfwd`, and `grad` of its sum, are compared with torch.func's on the same values,
wherever torch's own transform runs. A record passes a transform when the values match.

    /work/torchref/bin/python tests/conformance/op_db_transforms.py [--details] [-k name]
"""
from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import op_db_harness as harness  # noqa: E402

import glasstorch as gt  # noqa: E402

TRANSFORMS = ("jacrev", "jacfwd", "grad")
FAMILIES = ("pointwise", "operators")
LARGEST = 64                  # elements of the input and of the output


def _function(lib, call, sample):
    def of_input(x):
        out = call(x, *sample.args, **sample.kwargs)
        return out[0] if isinstance(out, (tuple, list)) else out
    return of_input


def _apply(lib, transform: str, f, x):
    if transform == "grad":
        return lib.func.grad(lambda t: f(t).sum())(x)
    return getattr(lib.func, transform)(f)(x)


def _usable(sample, torch) -> bool:
    x = sample.input
    return isinstance(x, torch.Tensor) and x.dtype == torch.float64 and 0 < x.numel() <= LARGEST


def _first_sample(entry, torch):
    for sample in harness.generate(entry, "float64", torch):
        if _usable(sample, torch):
            return sample
    return None


def run_entry(entry, torch) -> dict | None:
    """transform -> 'pass' / 'fail: why', for the transforms torch runs on the sample."""
    ours = harness.glasstorch_callable(entry)
    if ours is None or "float64" not in harness.entry_dtypes(entry, torch) or \
            entry.name in harness.SEEDED:
        return None
    sample = _first_sample(entry, torch)
    if sample is None:
        return None
    theirs_f = _function(torch, entry.op, sample)
    try:
        out = theirs_f(sample.input)
    except Exception:
        return None
    if not (isinstance(out, torch.Tensor) and out.dtype == torch.float64
            and out.numel() <= LARGEST):
        return None
    mine = harness.convert_sample(sample, torch)
    ours_f = _function(gt, ours, mine)
    found = {}
    for transform in TRANSFORMS:
        try:
            expected = _apply(torch, transform, theirs_f, sample.input)
        except Exception:
            continue
        try:
            got = _apply(gt, transform, ours_f, mine.input)
        except Exception as exc:
            found[transform] = f"fail: {type(exc).__name__}: {str(exc)[:100]}"
            continue
        reason = harness.compare(expected, got, torch, (1e-7, 1e-7))
        found[transform] = "pass" if reason is None else f"fail: {reason}"
    return found or None


def run(torch, pattern: str = "") -> dict:
    """record label -> its outcomes."""
    results = {}
    for family in FAMILIES:
        for entry in harness.load_entries(torch, family):
            label = harness.entry_label(entry)
            if pattern and not any(p in label for p in pattern.split(",")):
                continue
            found = run_entry(entry, torch)
            if found:
                results[label] = found
    return results


def rates(results: dict) -> dict:
    """transform -> (records tried, records matching)."""
    return {t: (sum(t in r for r in results.values()),
                sum(r.get(t) == "pass" for r in results.values())) for t in TRANSFORMS}


def main() -> None:
    import torch
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--details", action="store_true")
    parser.add_argument("-k", default="")
    options = parser.parse_args()
    results = run(torch, options.k)
    print(rates(results))
    if options.details:
        for label, found in results.items():
            for transform, outcome in found.items():
                if outcome != "pass":
                    print(f"{label} {transform}: {outcome}")


if __name__ == "__main__":
    main()
