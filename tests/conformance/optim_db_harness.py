"""glasstorch's optimizers against torch's own optimizer database.

torch keeps, in `torch.testing._internal.common_optimizers.optim_db`, one record per
optimizer class with its configurations (constructor keyword arguments) and its error
inputs (bad arguments with the exception and message they must raise). For every record
whose class glasstorch has, this harness:

- steps each configuration, in float32, float64 and (where the record supports complex
  parameters) complex64, once per implementation torch accepts on CPU (the default and,
  where the record lists them, ``foreach=True`` and ``fused=True``), in both libraries on
  the same parameters and gradients, and compares the parameters after every step within
  torch.testing's tolerances for the dtype. A configuration passes when at least 99% of
  its steps agree (both libraries refusing it with the same exception type counts too);
- raises every error input in glasstorch and checks torch's exception type (or warning)
  and message pattern.

Gradients come from a seeded NumPy stream, not from a model's backward, so that the
comparison sees the optimizers' arithmetic alone; an optimizer whose step needs a
closure gets one computing the same quadratic loss in either library.

    /work/main/.venv/bin/python tests/conformance/optim_db_harness.py           # the table
    ... optim_db_harness.py --details            # plus every failure
    ... optim_db_harness.py -k Adagrad,RMSprop   # some classes

Needs real torch (only tests and tools may import it; glasstorch never does).
"""
from __future__ import annotations

import argparse
import pathlib
import re
import sys
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:                 # run as a script from a checkout
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import glasstorch as gt  # noqa: E402
from module_db_harness import Unconvertible, to_glass  # noqa: E402

DTYPES = ("float32", "float64", "complex64")
# torch.testing.assert_close's default (rtol, atol) per dtype
TOLERANCES = {"float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7), "complex64": (1.3e-6, 1e-5)}
STEPS = 10
SHAPES = [(4, 3), (3,)]
MATRIX_SHAPES = [(4, 3), (2, 5)]          # for optimizers of 2-D parameters only (Muon)


def load_records(torch) -> list:
    """torch's optim_db (its test base class stubbed when expecttest is missing)."""
    from module_db_harness import load_records as load_module_db
    load_module_db(torch)                 # installs the expecttest stand-in if needed
    from torch.testing._internal.common_optimizers import optim_db
    return optim_db


def glass_class(name: str):
    """glasstorch's optimizer class of that name, or None."""
    try:
        return getattr(gt.optim, name)
    except AttributeError:
        return None


# ----- one configuration in both libraries ---------------------------------------------------
def _params(lib, dtype: str, shapes) -> list:
    rng = np.random.default_rng(0)
    values = [rng.standard_normal(shape) + (1j * rng.standard_normal(shape)
                                              if dtype.startswith("complex") else 0)
              for shape in shapes]
    return [lib.tensor(v, dtype=getattr(lib, dtype), requires_grad=True) for v in values]


def _trajectory(lib, cls, kwargs: dict, dtype: str, shapes, closure: bool):
    """The parameters' values after each step, or the exception construction or a
    step raised."""
    params = _params(lib, dtype, shapes)
    rng = np.random.default_rng(1)
    targets = [lib.tensor(rng.standard_normal(tuple(p.shape)), dtype=p.dtype) for p in params]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            optimizer = cls(params, **kwargs)
            history = []
            for _ in range(STEPS):
                if closure:
                    optimizer.step(lambda: _quadratic(lib, optimizer, params, targets))
                else:
                    for p in params:
                        p.grad = lib.tensor(_grad_values(rng, p, dtype), dtype=p.dtype)
                    optimizer.step()
                history.append([np.array(p.detach().numpy(), copy=True) for p in params])
    except Exception as error:  # noqa: BLE001 (compared with the other library's)
        return error
    return history


def _grad_values(rng, param, dtype: str):
    shape = tuple(param.shape)
    values = rng.standard_normal(shape)
    return values + 1j * rng.standard_normal(shape) if dtype.startswith("complex") else values


def _quadratic(lib, optimizer, params, targets):
    optimizer.zero_grad()
    loss = sum(((p - t).abs() ** 2).sum() for p, t in zip(params, targets))
    loss.backward()
    return loss


def compare_config(torch, record, kwargs: dict, dtype: str) -> tuple[int, int, str | None]:
    """(steps agreeing, steps run, why not) for one configuration in one dtype."""
    name = record.optim_cls.__name__
    shapes = MATRIX_SHAPES if name == "Muon" else SHAPES
    closure = record.step_requires_closure
    theirs = _trajectory(torch, record.optim_cls, kwargs, dtype, shapes, closure)
    try:
        glass_kwargs = to_glass(kwargs, torch)
    except Unconvertible as error:
        return 0, STEPS, f"unconvertible argument {error}"
    ours = _trajectory(gt, glass_class(name), glass_kwargs, dtype, shapes, closure)
    if isinstance(theirs, Exception) or isinstance(ours, Exception):
        if type(ours) is type(theirs):
            return STEPS, STEPS, None
        return 0, STEPS, f"raised {ours!r} where torch gives {theirs!r}"[:200]
    rtol, atol = TOLERANCES[dtype]
    agree = sum(all(np.allclose(a, b, rtol=rtol, atol=atol) for a, b in zip(mine, ref))
                for mine, ref in zip(ours, theirs))
    return agree, STEPS, None if agree == STEPS else f"{STEPS - agree} steps differ"


def implementations(record) -> list[dict]:
    """The implementation flags torch accepts on CPU for this record."""
    flags = [{}]
    for impl in ("foreach", "fused"):
        if impl in record.supported_impls:
            flags.append({impl: True})
    return flags


# ----- error inputs --------------------------------------------------------------------------
def _glass_params(value, torch, seen: dict | None = None):
    """A record's params argument in glasstorch (tensors keep requires_grad and grad; a
    tensor given twice becomes one glasstorch tensor given twice)."""
    seen = {} if seen is None else seen
    if isinstance(value, torch.Tensor):
        if value.is_sparse:
            raise Unconvertible("a sparse tensor")
        if id(value) not in seen:
            seen[id(value)] = result = to_glass(value, torch)
            if value.grad is not None:
                result.grad = to_glass(value.grad, torch)
        return seen[id(value)]
    if isinstance(value, dict):
        return {k: _glass_params(v, torch, seen) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_glass_params(v, torch, seen) for v in value)
    return value


def check_error_input(torch, record, error_input) -> str | None:
    """Why glasstorch does not refuse `error_input` as torch does, or None."""
    inputs = error_input.optimizer_error_input
    cls = glass_class(record.optim_cls.__name__)
    try:
        params = _glass_params(inputs.params, torch)
        kwargs = to_glass(inputs.kwargs, torch)
    except Unconvertible as error:
        return f"unconvertible argument {error}"
    step = error_input.error_on.name == "STEP_ERROR"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            optimizer = cls(params, **kwargs)
            if step:
                optimizer.step()
        except Exception as error:  # noqa: BLE001
            if not isinstance(error, error_input.error_type):
                return f"{type(error).__name__}: {error}"[:200]
            if not re.search(error_input.error_regex, str(error)):
                return f"message {str(error)!r} does not match {error_input.error_regex!r}"
            return None
    if issubclass(error_input.error_type, Warning):
        if any(re.search(error_input.error_regex, str(w.message)) for w in caught):
            return None
    return f"no {error_input.error_type.__name__} ({error_input.error_regex!r})"


# ----- the run -------------------------------------------------------------------------------
def run(torch, only: str | None = None, dtypes=DTYPES) -> dict:
    """``{class name: {"configs": [passed, run], "steps": [...], "errors": [...],
    "failures": [...]}}`` over the records glasstorch has a class for."""
    results = {}
    for record in load_records(torch):
        name = record.optim_cls.__name__
        if glass_class(name) is None or (only and name not in only.split(",")):
            continue
        counts = {"configs": [0, 0], "steps": [0, 0], "errors": [0, 0], "failures": []}
        for dtype in dtypes:
            if dtype.startswith("complex") and not record.supports_complex:
                continue
            torch_dtype = getattr(torch, dtype)
            for optim_input in record.optim_inputs_func(device="cpu", dtype=torch_dtype):
                for flags in implementations(record):
                    kwargs = {**optim_input.kwargs, **flags}
                    agree, total, why = compare_config(torch, record, kwargs, dtype)
                    _add(counts, "configs", agree >= 0.99 * total)
                    counts["steps"][0] += agree
                    counts["steps"][1] += total
                    if why:
                        counts["failures"].append(f"{dtype} {optim_input.desc} {flags}: {why}")
        for error_input in record.optim_error_inputs_func(device="cpu", dtype=torch.float32):
            why = check_error_input(torch, record, error_input)
            _add(counts, "errors", why is None)
            if why:
                counts["failures"].append(f"error input {error_input.error_regex!r}: {why}")
        results[name] = counts
    return results


def _add(counts: dict, key: str, passed: bool) -> None:
    counts[key][0] += int(passed)
    counts[key][1] += 1


def totals(results: dict) -> dict[str, list[int]]:
    """The configurations, steps and error inputs passed and run, over all classes."""
    return {key: [sum(c[key][i] for c in results.values()) for i in (0, 1)]
            for key in ("configs", "steps", "errors")}


def format_table(results: dict) -> str:
    lines = [f"{'optimizer':<12} {'configs':>9} {'steps':>11} {'errors':>7}"]
    for name, c in results.items():
        lines.append(f"{name:<12} {c['configs'][0]:>4}/{c['configs'][1]:<4} "
                     f"{c['steps'][0]:>5}/{c['steps'][1]:<5} {c['errors'][0]:>3}/{c['errors'][1]}")
    t = totals(results)
    lines.append(f"{'total':<12} {t['configs'][0]:>4}/{t['configs'][1]:<4} "
                 f"{t['steps'][0]:>5}/{t['steps'][1]:<5} {t['errors'][0]:>3}/{t['errors'][1]}")
    return "\n".join(lines)


def format_details(results: dict) -> str:
    return "\n".join(f"{name}: {failure}" for name, c in results.items()
                     for failure in c["failures"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", dest="only", help="comma-separated optimizer class names")
    parser.add_argument("--details", action="store_true", help="list every failure")
    args = parser.parse_args()
    import torch
    results = run(torch, args.only)
    print(format_table(results))
    if args.details:
        print(format_details(results))


if __name__ == "__main__":
    main()
