"""glasstorch's gradients and forward-mode tangents on torch's own OpInfo samples.

The values harness (`op_db_harness.py`) compares results; this one compares what
autograd makes of them, on the same records (the ufuncs and the other operators) and
the samples torch's own gradient tests use: float64 on CPU. For each sample:

  * reverse mode: every float64 tensor among the input, the args and the kwargs becomes
    a leaf that requires grad; both libraries run the record's op as torch's gradient
    tests do (through the record's `gradcheck_wrapper`, its result read through the
    sample's `output_process_fn_grad`), and
    `autograd.grad` with the same upstream gradients (seeded normal draws) gives the
    gradient of each leaf; they must agree (values within assert_close's float64
    tolerance, or both None: an input the result does not depend on);
  * forward mode (records that support it): each leaf gets a seeded tangent, and the
    tangents of the outputs must agree (a missing tangent counts as zeros).

A sample torch itself cannot differentiate (it raises) is not counted. glasstorch
raising where torch computes is 'errored'; anything else unequal is 'failed'.

    /work/torchref/bin/python tests/conformance/op_db_gradients.py            # the table
    ... op_db_gradients.py --mode forward -k sin,cumsum --details

Needs real torch (only tests and tools import it; glasstorch never does).
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import pathlib
import sys
import types
import warnings

HERE = pathlib.Path(__file__).resolve().parent
if str(HERE) not in sys.path:                 # run as a script: the values harness beside
    sys.path.insert(0, str(HERE))

import op_db_harness as harness  # noqa: E402
from op_db_harness import gt  # noqa: E402

MODES = ("reverse", "forward")


@dataclasses.dataclass
class GradResult:
    """One record's tally in one mode; `problems` holds (kind, sample, reason)."""

    label: str
    samples: int = 0
    matched: int = 0
    failed: int = 0
    errored: int = 0
    refused_by_torch: int = 0
    problems: list = dataclasses.field(default_factory=list)


# ----------------------------------------------------------------------------------
# Leaves: the same float64 tensors made differentiable on both sides
# ----------------------------------------------------------------------------------
def _make_leaves(theirs, ours, torch, found: list):
    """`theirs` (torch values) and `ours` (their glasstorch conversion) with each float64
    tensor replaced by a fresh leaf requiring grad; the pairs are appended to `found`."""
    if isinstance(theirs, torch.Tensor):
        if theirs.dtype != torch.float64:
            return theirs, ours
        pair = (theirs.detach().requires_grad_(), ours.detach().requires_grad_())
        found.append(pair)
        return pair
    if isinstance(theirs, (tuple, list)):
        pairs = [_make_leaves(t, o, torch, found) for t, o in zip(theirs, ours)]
        return type(theirs)(p[0] for p in pairs), type(ours)(p[1] for p in pairs)
    if isinstance(theirs, dict):
        pairs = {k: _make_leaves(theirs[k], ours[k], torch, found) for k in theirs}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    return theirs, ours


def _leaf_sample(sample, torch):
    """(torch call arguments, glasstorch call arguments, [(torch leaf, glasstorch leaf)])."""
    converted = harness.convert_sample(sample, torch)
    leaves: list = []
    theirs, ours = _make_leaves((sample.input, tuple(sample.args), dict(sample.kwargs)),
                                (converted.input, tuple(converted.args),
                                 dict(converted.kwargs)), torch, leaves)
    return theirs, ours, leaves


def _tensors(value, tensor_type) -> list:
    """The tensors of a result, flattened (a tuple of results, a return_types tuple)."""
    if isinstance(value, tensor_type):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensors(v, tensor_type)]
    return []


def _for_glasstorch(function):
    """A function of the database (a record's `gradcheck_wrapper`, a sample's
    `output_process_fn_grad`) with its global `torch` meaning glasstorch: its own code,
    as `harness.glasstorch_callable` runs the records' lambdas."""
    if not isinstance(function, types.FunctionType):
        return function
    rebound = types.FunctionType(function.__code__, dict(function.__globals__, torch=gt),
                                 function.__name__, function.__defaults__,
                                 function.__closure__)
    rebound.__kwdefaults__ = function.__kwdefaults__
    return rebound


def _unwrapped(op, *args, **kwargs):
    return op(*args, **kwargs)


def _run(entry, sample, function, arguments: tuple, library) -> list:
    """The tensors `function` returns, called as torch's gradient tests call a record's
    op: through the record's `gradcheck_wrapper` (a Hermitian or triangular input made
    from the sample's, for the decompositions that read one triangle) and read through
    the sample's `output_process_fn_grad` (what a vector's gauge leaves fixed). The masked
    records' wrapper, which zeroes the masked-out outputs through a private helper of
    torch.masked, is left out: their outputs are compared whole, which is stricter."""
    wrap, read = entry.gradcheck_wrapper, sample.output_process_fn_grad
    if entry.name.startswith("masked."):
        wrap = _unwrapped
    if library is gt:
        wrap, read = _for_glasstorch(wrap), _for_glasstorch(read)
    first, args, kwargs = arguments
    return _tensors(read(wrap(function, first, *args, **kwargs)), library.Tensor)


# ----------------------------------------------------------------------------------
# One sample, each mode
# ----------------------------------------------------------------------------------
def _reverse(entry, call, sample, torch, seeded: bool):
    """None (matched), or (kind, reason); raises _TorchRefused when torch cannot."""
    theirs, ours, leaves = _leaf_sample(sample, torch)
    if not leaves:
        raise _TorchRefused("no float64 input")
    try:
        if seeded:
            torch.manual_seed(42)
        every = _run(entry, sample, entry.op, theirs, torch)
        mask = [t.requires_grad for t in every]
        outputs = [t for t in every if t.requires_grad]
        if not outputs:
            raise _TorchRefused("no differentiable output")
        torch.manual_seed(0)
        upstream = [torch.randn_like(t) for t in outputs]
        expected = torch.autograd.grad(outputs, [t for t, _ in leaves], upstream,
                                       allow_unused=True)
    except _TorchRefused:
        raise
    except Exception as exc:            # torch refuses this sample: not counted
        raise _TorchRefused(str(exc)) from exc
    try:
        if seeded:
            gt.manual_seed(42)
        results = _run(entry, sample, call, ours, gt)
        if [r.requires_grad for r in results] != mask:
            return "failed", (f"outputs requiring grad {[r.requires_grad for r in results]}, "
                              f"torch {mask}")
        mine = [r for r in results if r.requires_grad]
        actual = gt.autograd.grad(mine, [o for _, o in leaves],
                                  [harness.to_glasstorch(u, torch) for u in upstream],
                                  allow_unused=True)
    except Exception as exc:             # the failure being measured
        return "errored", f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return _compare_each(expected, actual, torch, "gradient of input")


def _forward(entry, call, sample, torch, seeded: bool):
    """None (matched), or (kind, reason); raises _TorchRefused when torch cannot."""
    theirs, ours, leaves = _leaf_sample(sample, torch)
    if not leaves:
        raise _TorchRefused("no float64 input")
    torch.manual_seed(1)
    tangents = [torch.randn_like(t) for t, _ in leaves]
    try:
        expected = _tangents_of(lambda swapped: _run(entry, sample, entry.op, swapped, torch),
                                theirs, [t for t, _ in leaves], tangents, torch, seeded)
    except Exception as exc:
        raise _TorchRefused(str(exc)) from exc
    try:
        actual = _tangents_of(lambda swapped: _run(entry, sample, call, swapped, gt), ours,
                              [o for _, o in leaves],
                              [harness.to_glasstorch(t, torch) for t in tangents], gt, seeded)
    except Exception as exc:
        return "errored", f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    if len(actual) != len(expected):
        return "failed", f"{len(actual)} outputs, torch {len(expected)}"
    return _compare_each(expected, actual, torch, "tangent of output", missing_is_zero=True)


def _tangents_of(run, arguments: tuple, leaves: list, tangents: list, library,
                 seeded: bool) -> list:
    """The tangents of the outputs `run(arguments)` gives, with each leaf made dual with
    its tangent (the leaves are swapped for their duals inside `arguments`)."""
    fwAD = library.autograd.forward_ad
    with fwAD.dual_level():
        duals = {id(leaf): fwAD.make_dual(leaf.detach(), tangent)
                 for leaf, tangent in zip(leaves, tangents)}
        swapped = _swap(arguments, duals, library.Tensor)
        if seeded:
            library.manual_seed(42)
        outputs = run(swapped)
        return [fwAD.unpack_dual(o).tangent for o in outputs]


def _swap(value, duals: dict, tensor_type):
    if isinstance(value, tensor_type):
        return duals.get(id(value), value)
    if isinstance(value, (tuple, list)):
        return type(value)(_swap(v, duals, tensor_type) for v in value)
    if isinstance(value, dict):
        return {k: _swap(v, duals, tensor_type) for k, v in value.items()}
    return value


def _compare_each(expected, actual, torch, what: str, missing_is_zero: bool = False):
    for index, (e, a) in enumerate(zip(expected, actual)):
        if missing_is_zero:
            e = None if e is None or not bool(e.ne(0).any()) else e
            a = None if a is None or not bool(a.ne(0).any()) else a
        if e is None or a is None:
            if e is not a:
                return "failed", f"{what} {index}: {'None' if a is None else 'a tensor'}, " \
                                 f"torch {'None' if e is None else 'a tensor'}"
            continue
        reason = harness.compare(e.detach(), a.detach(), torch, (None, None))
        if reason:
            return "failed", f"{what} {index}: {reason}"
    return None


class _TorchRefused(Exception):
    """torch cannot differentiate this sample (it raises): the sample is not counted."""


# ----------------------------------------------------------------------------------
# Records
# ----------------------------------------------------------------------------------
def _supports(entry, mode: str, torch) -> bool:
    if torch.float64 not in entry.supported_dtypes("cpu"):
        return False
    return entry.supports_autograd if mode == "reverse" else entry.supports_forward_ad


def run_entry(entry, torch, mode: str, limit: int | None = None) -> GradResult | None:
    """Every float64 CPU sample of the record in `mode`; None when glasstorch lacks the
    operator or the record does not support the mode."""
    call = harness.glasstorch_callable(entry)
    if call is None or not _supports(entry, mode, torch):
        return None
    result = GradResult(harness.entry_label(entry))
    check = _reverse if mode == "reverse" else _forward
    seeded = entry.name in harness.SEEDED
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for index, sample in enumerate(harness.generate(entry, "float64", torch)):
            if limit is not None and index >= limit:
                break
            try:
                problem = check(entry, call, sample, torch, seeded)
            except _TorchRefused:
                result.refused_by_torch += 1
                continue
            result.samples += 1
            if problem is None:
                result.matched += 1
                continue
            kind, reason = problem
            setattr(result, kind, getattr(result, kind) + 1)
            result.problems.append((kind, harness.describe(sample, torch), reason))
    return result


def run(torch, mode: str, pattern: str = "", limit: int | None = None,
        families: tuple = ("pointwise", "operators", "transformer")) -> list:
    """A `GradResult` per record of `families` (label containing one of `pattern`'s
    comma-separated parts) that glasstorch has and that supports `mode`."""
    parts = [p for p in pattern.split(",") if p]
    results, seen = [], set()
    for family in families:
        for entry in harness.load_entries(torch, family):
            label = harness.entry_label(entry)
            if label in seen or parts and not any(p in label for p in parts):
                continue                   # (a record in both families counts once)
            seen.add(label)
            found = run_entry(entry, torch, mode, limit)
            if found is not None:
                results.append(found)
    return results


def totals(results: list) -> tuple:
    """(samples, matched) over every record."""
    return sum(r.samples for r in results), sum(r.matched for r in results)


def format_table(results: list, mode: str, failing_only: bool = True) -> str:
    lines = [f"{'op':<34}{'samples':>8}{'matched':>8}{'failed':>8}{'errored':>8}"
             f"{'rate':>8}{'torch refuses':>15}"]
    for r in results:
        if failing_only and r.matched == r.samples:
            continue
        lines.append(f"{r.label:<34}{r.samples:>8}{r.matched:>8}{r.failed:>8}"
                     f"{r.errored:>8}{harness.percent(r.samples, r.matched):>7.1f}%"
                     f"{r.refused_by_torch:>15}")
    samples, matched = totals(results)
    lines.append(f"{mode} mode: {harness.percent(samples, matched):.1f}% of float64 samples "
                 f"match torch ({matched}/{samples}, {len(results)} records; "
                 f"{sum(r.refused_by_torch for r in results)} samples torch refuses)")
    return "\n".join(lines)


def format_details(results: list, per_reason: int = 2) -> str:
    lines = []
    for r in results:
        if not r.problems:
            continue
        lines.append(f"== {r.label}: {r.failed} failed, {r.errored} errored")
        grouped = collections.defaultdict(list)
        for kind, sample, reason in r.problems:
            grouped[(kind, reason.split(":")[0] + reason.split(";")[0][-60:])].append(
                (reason, sample))
        for (kind, _), found in grouped.items():
            lines.append(f"  [{kind} x{len(found)}] {found[0][0]}")
            lines.extend(f"      {sample}" for _, sample in found[:per_reason])
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="reverse", choices=MODES)
    parser.add_argument("-k", dest="pattern", default="", help="comma-separated op names")
    parser.add_argument("--limit", type=int, default=None, help="samples per record")
    parser.add_argument("--all", action="store_true", help="list passing records too")
    parser.add_argument("--details", action="store_true", help="list every failure")
    parser.add_argument("--families", default="pointwise,operators,transformer",
                        help="comma-separated families of op_db_harness.FAMILIES")
    args = parser.parse_args(argv)
    import torch
    results = run(torch, args.mode, args.pattern, args.limit,
                  tuple(args.families.split(",")))
    print(format_table(results, args.mode, failing_only=not args.all))
    if args.details:
        print(format_details(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
