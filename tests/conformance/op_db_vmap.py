"""vmap over torch's op_db: every record's samples, batched, equal to a loop.

For each record of the "pointwise" and "operators" families (float32 samples, a few a
record), the sample's tensors (the input and the tensors among the positional
arguments) get a batch of two: the sample and a variant of it (floats halved; integers
and bools as they are, so that indices stay valid). Three ways are tried: the batch at
dim 0, at dim 1 (where every batched tensor has a dim to put it), and dim 0 with
``out_dims=1`` (where the results have a dim). vmap's result must equal the loop over
the batch, stacked; a way counts only where torch's own vmap equals torch's loop
(torch's vmap supports the operator there). A record passes when every way of every
sample it ran passes. Records whose calls ran the per-sample fallback are counted.

    /work/torchref/bin/python tests/conformance/op_db_vmap.py [--details] [-k name]
"""
from __future__ import annotations

import argparse
import dataclasses
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import op_db_harness as harness  # noqa: E402

import glasstorch as gt  # noqa: E402
from glasstorch._functorch import batching_fallback  # noqa: E402

SAMPLES = 2                   # samples per record
WAYS = ((0, 0), (1, 0), (0, 1))      # (in_dim, out_dim)
FAMILIES = ("pointwise", "operators")


@dataclasses.dataclass
class VmapResult:
    label: str
    ran: int = 0                       # ways torch's vmap supports, tried on glasstorch
    passed: int = 0
    fallback: bool = False
    problems: list = dataclasses.field(default_factory=list)


def _variant(t, lib):
    return t * 0.5 if t.dtype.is_floating_point or t.dtype.is_complex else t.clone()


def _batched_args(lib, inp, args, in_dim):
    """The tensors to map (input first, then tensor positional args), batched."""
    values = [inp] + list(args)
    mapped = [isinstance(v, lib.Tensor) for v in values]
    if in_dim == 1 and any(m and v.dim() == 0 for v, m in zip(values, mapped)):
        return None
    batched = [lib.stack([v, _variant(v, lib)], in_dim) if m else v
               for v, m in zip(values, mapped)]
    return batched, tuple(in_dim if m else None for m in mapped)


def _loop(call, batched, dims, kwargs, out_dim, lib):
    results = []
    for b in range(2):
        sample = [v.select(d, b) if d is not None else v for v, d in zip(batched, dims)]
        results.append(call(*sample, **kwargs))
    return _stack(results, out_dim, lib)


def _stack(results, out_dim, lib):
    first = results[0]
    if isinstance(first, lib.Tensor):
        return lib.stack(results, out_dim)
    if isinstance(first, (tuple, list)):
        return tuple(_stack([r[i] for r in results], out_dim, lib) for i in range(len(first)))
    raise TypeError("not a tensor result")


def _same(a, b, lib) -> bool:
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(
            _same(x, y, lib) for x, y in zip(a, b))
    if not isinstance(b, lib.Tensor) or a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.is_floating_point or a.dtype.is_complex:
        return bool(lib.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True))
    return bool(lib.equal(a, b))


def _one_way(lib, call, inp, args, kwargs, way) -> str:
    """'pass', 'fail: reason', or 'n/a' (the way does not apply, or the loop raises)."""
    in_dim, out_dim = way
    found = _batched_args(lib, inp, args, in_dim)
    if found is None:
        return "n/a"
    batched, dims = found
    try:
        expected = _loop(call, batched, dims, kwargs, out_dim, lib)
    except Exception:
        return "n/a"
    try:
        got = lib.vmap(lambda *a: call(*a, **kwargs), in_dims=dims, out_dims=out_dim)(*batched)
    except Exception as exc:
        return f"fail: {type(exc).__name__}: {str(exc)[:100]}"
    return "pass" if _same(got, expected, lib) else "fail: values differ"


def run_entry(entry, torch) -> VmapResult | None:
    result = VmapResult(harness.entry_label(entry))
    ours = harness.glasstorch_callable(entry)
    if ours is None or "float32" not in harness.entry_dtypes(entry, torch) or \
            entry.name in harness.SEEDED:
        return None
    batching_fallback.FALLBACK_OPS.clear()
    for n, sample in enumerate(harness.generate(entry, "float32", torch)):
        if n >= SAMPLES:
            break
        mine = harness.convert_sample(sample, torch)
        for way in WAYS:
            if _one_way(torch, entry.op, sample.input, sample.args, sample.kwargs, way) \
                    != "pass":
                continue                  # torch's vmap does not support it here
            outcome = _one_way(gt, ours, mine.input, mine.args, mine.kwargs, way)
            result.ran += 1
            result.passed += outcome == "pass"
            if outcome != "pass":
                result.problems.append((way, outcome))
    result.fallback = bool(batching_fallback.FALLBACK_OPS)
    return result if result.ran else None


def run(torch, pattern: str = "") -> list:
    results = []
    for family in FAMILIES:
        for entry in harness.load_entries(torch, family):
            if pattern and not any(p in harness.entry_label(entry) for p in pattern.split(",")):
                continue
            found = run_entry(entry, torch)
            if found is not None:
                results.append(found)
    return results


def summary(results: list) -> dict:
    """records tried, records passing, records that used the fallback."""
    return {"records": len(results),
            "passing": sum(r.passed == r.ran for r in results),
            "fallback": sum(r.fallback for r in results)}


def format_details(results: list) -> str:
    lines = []
    for r in results:
        if r.passed != r.ran:
            lines.append(f"{r.label}: {r.passed}/{r.ran} " + "; ".join(
                f"{way}: {why}" for way, why in r.problems[:2]))
    return "\n".join(lines)


def main() -> None:
    import torch
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--details", action="store_true")
    parser.add_argument("-k", default="")
    options = parser.parse_args()
    results = run(torch, options.k)
    print(summary(results))
    print("fallback:", ", ".join(r.label for r in results if r.fallback))
    if options.details:
        print(format_details(results))


if __name__ == "__main__":
    main()
