"""glasstorch's nn modules against torch's own module database.

torch keeps, in `torch.testing._internal.common_modules.module_db`, one record per
module class with a generator of (constructor arguments, forward arguments) samples.
For every record whose class glasstorch has, this harness runs every CPU sample (float32
and float64, training and eval mode) through both libraries and checks, in order:

- construction: both build the module, or both raise the same exception type;
- structure: the same repr, parameter names and shapes, buffer names, state-dict keys;
- copies: ``copy.deepcopy`` and a pickle round trip keep the repr and values, not storage;
- init: after the same seed, the same initial parameter and buffer values (bitwise up to
  float rounding: the random streams are torch's);
- forward: with torch's state dict loaded, the same outputs (dtype, shape, values within
  the dtype's tolerance), or the same exception type;
- backward: ``sum`` of the floating outputs backpropagated; the same gradients for every
  parameter and every input.

A sample counts as passed when every check it reaches passes; failures are reported by
check. Records' ``module_error_inputs_func`` samples must raise torch's exception type.

    /work/torchref/bin/python tests/conformance/module_db_harness.py          # the table
    ... module_db_harness.py --details               # plus every failure
    ... module_db_harness.py -k Linear,LayerNorm     # some classes

Needs real torch (only tests and tools may import it; glasstorch never does).
"""
from __future__ import annotations

import argparse
import collections
import copy
import pathlib
import pickle
import sys
import types
import unittest
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:                 # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

import glasstorch as gt  # noqa: E402

DTYPES = ("float32", "float64")
TOLERANCES = {"float32": (1.3e-6 * 10, 1e-5), "float64": (1e-7, 1e-7)}   # (rtol, atol)


class Unconvertible(Exception):
    """A sample argument glasstorch has no counterpart for (a torch-only object)."""


def load_records(torch) -> list:
    """torch's module_db (its test base class stubbed when expecttest is missing)."""
    if "expecttest" not in sys.modules:
        try:
            import expecttest  # noqa: F401  (torch's test base class)
        except ImportError:
            stub = types.ModuleType("expecttest")
            stub.TestCase = unittest.TestCase
            sys.modules["expecttest"] = stub
    from torch.testing._internal.common_modules import module_db
    return module_db


# ----- moving values from torch to glasstorch ------------------------------------------------
def to_glass(value, torch):
    """`value` with every torch object replaced by glasstorch's counterpart."""
    if isinstance(value, torch.Tensor):
        return _tensor_to_glass(value)
    if isinstance(value, torch.dtype):
        return getattr(gt, str(value).split(".")[-1])
    if isinstance(value, torch.device):
        return gt.device(str(value))
    if isinstance(value, (list, tuple)):
        converted = [to_glass(v, torch) for v in value]
        return type(value)(converted) if type(value) in (list, tuple) else \
            type(value)(*converted)
    if isinstance(value, dict):
        return {k: to_glass(v, torch) for k, v in value.items()}
    if isinstance(value, torch.nn.Module):
        return _module_to_glass(value, torch)
    module = getattr(value, "__module__", None) or ""
    if module in ("torch.nn.functional", "torch._C._nn") and callable(value) \
            and hasattr(gt.nn.functional, value.__name__):
        return getattr(gt.nn.functional, value.__name__)       # an activation function
    if module.startswith("torch"):
        raise Unconvertible(f"{type(value).__name__} {value!r}"[:80])
    return value


def _module_to_glass(module, torch):
    """A torch module (a constructor argument: TransformerEncoder's `encoder_layer`) as
    glasstorch's class of that name, with its settings, parameters, buffers and
    submodules converted."""
    name = type(module).__name__
    cls = getattr(gt.nn, name, None) or getattr(gt.nn.modules.linear, name, None)
    if cls is None:
        raise Unconvertible(f"{type(module).__name__} module")
    ours = cls.__new__(cls)
    gt.nn.Module.__init__(ours)
    for name, p in module._parameters.items():
        ours.register_parameter(name, None if p is None else gt.nn.Parameter(
            _tensor_to_glass(p).detach(), requires_grad=p.requires_grad))
    for name, b in module._buffers.items():
        ours.register_buffer(name, None if b is None else _tensor_to_glass(b))
    for name, m in module._modules.items():
        ours.add_module(name, None if m is None else _module_to_glass(m, torch))
    common = set(vars(torch.nn.Module()))
    for key, item in vars(module).items():
        if key not in common or key == "training":
            setattr(ours, key, to_glass(item, torch))
    return ours


def _tensor_to_glass(t):
    name = str(t.dtype).split(".")[-1]
    data = t.detach().float() if name == "bfloat16" else t.detach()    # NumPy has no bfloat16
    result = gt.from_numpy(np.array(data.numpy(), copy=True)).to(getattr(gt, name))
    if not t.requires_grad:
        return result
    result.requires_grad_(True)
    return result if t.is_leaf else result * 1       # a non-leaf stays a non-leaf


def numpy_of(t) -> np.ndarray:
    t = t.detach()
    if "float16" in str(t.dtype):
        t = t.float()
    return np.array(t.numpy(), copy=True)


# ----- comparisons ---------------------------------------------------------------------------
def describe_mismatch(ours, theirs, torch, dtype: str, where: str) -> str | None:
    """Why glasstorch's `ours` differs from torch's `theirs` (recursively), or None."""
    if isinstance(theirs, torch.Tensor):
        if not isinstance(ours, gt.Tensor):
            return f"{where}: {type(ours).__name__} instead of a tensor"
        if tuple(ours.shape) != tuple(theirs.shape) or str(ours.dtype) != str(theirs.dtype):
            return f"{where}: {ours.dtype}{tuple(ours.shape)} vs {theirs.dtype}{tuple(theirs.shape)}"
        rtol, atol = TOLERANCES.get(str(theirs.dtype).split(".")[-1], TOLERANCES[dtype])
        a, b = numpy_of(ours), numpy_of(theirs)
        if not np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
            worst = np.nanmax(np.abs(a.astype(np.float64) - b)) if a.size else 0.0
            return f"{where}: values differ (max abs diff {worst:.3g})"
        return None
    if isinstance(theirs, (list, tuple)):
        if not isinstance(ours, (list, tuple)) or len(ours) != len(theirs):
            return f"{where}: {type(ours).__name__} vs {type(theirs).__name__}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            problem = describe_mismatch(a, b, torch, dtype, f"{where}[{i}]")
            if problem:
                return problem
        return None
    return None if ours == theirs else f"{where}: {ours!r} vs {theirs!r}"


def _floats(value, torch) -> list:
    """The floating tensors inside `value` that require grad (outputs to backprop)."""
    if isinstance(value, (torch.Tensor, gt.Tensor)):
        return [value] if value.requires_grad and value.dtype.is_floating_point else []
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _floats(v, torch)]
    return []


def _leaves(value, torch) -> list:
    if isinstance(value, (torch.Tensor, gt.Tensor)):
        return [value] if value.requires_grad and value.is_leaf else []
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _leaves(v, torch)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _leaves(v, torch)]
    return []


# ----- one sample ------------------------------------------------------------------------------
def run_sample(torch, record, sample, dtype: str, training: bool) -> str | None:
    """None when the sample passes, else '<check>: <why>'."""
    cls_name = record.module_cls.__name__
    ctor, fwd = sample.constructor_input, sample.forward_input
    try:
        g_args, g_kwargs = to_glass(ctor.args, torch), to_glass(ctor.kwargs, torch)
        g_fargs, g_fkwargs = to_glass(fwd.args, torch), to_glass(fwd.kwargs, torch)
    except Unconvertible as reason:
        return f"skipped: {reason}"
    built = _construct(torch, record.module_cls, getattr(gt.nn, cls_name), ctor.args,
                       ctor.kwargs, g_args, g_kwargs, dtype)
    if isinstance(built, str) or built is None:
        return built
    theirs, ours = built
    problem = _structure(ours, theirs) or _initial_values(torch, ours, theirs, dtype) \
        or _copies(ours)
    if problem:
        return problem
    with gt.no_grad():
        ours.load_state_dict({k: to_glass(v, torch) for k, v in theirs.state_dict().items()})
    theirs.train(training)
    ours.train(training)
    return _forward_backward(torch, ours, theirs, (fwd.args, fwd.kwargs),
                             (g_fargs, g_fkwargs), dtype)


def _call_both(torch, seed: int, label: str, call_theirs, call_ours):
    """Run torch's call and glasstorch's, each after seeding with `seed`: their results
    ``(theirs, ours)``, or a string: why glasstorch differs in raising, or '' when both
    raised the same exception type (nothing more to compare)."""
    torch.manual_seed(seed)
    try:
        theirs = call_theirs()
    except Exception as error:
        expected = type(error)
    else:
        expected = None
    gt.manual_seed(seed)
    try:
        ours = call_ours()
    except Exception as error:
        if expected is None or not isinstance(error, expected):
            return f"{label}: {type(error).__name__}: {error}"[:200]
        return ""
    if expected is not None:
        return f"{label}: torch raised {expected.__name__}, glasstorch did not"
    return theirs, ours


def _construct(torch, cls, gcls, args, kwargs, g_args, g_kwargs, dtype: str):
    built = _call_both(torch, 0, "construct", lambda: cls(*args, **kwargs),
                       lambda: gcls(*g_args, **g_kwargs))
    if isinstance(built, str):
        return built or None
    theirs, ours = built
    theirs.to(getattr(torch, dtype))              # the sample's dtype, as torch's tests do
    ours.to(getattr(gt, dtype))
    return theirs, ours


def _structure(ours, theirs) -> str | None:
    checks = (("repr", repr), ("parameters", lambda m: [(n, tuple(p.shape))
                                                        for n, p in m.named_parameters()]),
              ("buffers", lambda m: [n for n, _ in m.named_buffers()]),
              ("state_dict keys", lambda m: list(m.state_dict())))
    for label, get in checks:
        if get(ours) != get(theirs):
            return f"structure: {label}: {get(ours)!r} vs {get(theirs)!r}"[:300]
    return None


def _initial_values(torch, ours, theirs, dtype: str) -> str | None:
    mine = ours.state_dict()
    for name, value in theirs.state_dict().items():
        problem = describe_mismatch(mine[name], value, torch, dtype, name)
        if problem:
            return f"init: {problem}"
    return None


def _copies(ours) -> str | None:
    """deepcopy and a pickle round trip give the same module with storage of its own."""
    for label, copy_of in (("deepcopy", copy.deepcopy),
                           ("pickle", lambda m: pickle.loads(pickle.dumps(m)))):
        clone = copy_of(ours)
        if repr(clone) != repr(ours):
            return f"copies: {label} changes the repr"
        mine, theirs = ours.state_dict(), clone.state_dict()
        for name, value in mine.items():
            copied = theirs.get(name)
            if copied is None or not np.array_equal(numpy_of(copied), numpy_of(value),
                                                    equal_nan=True):
                return f"copies: {label} changes {name}"
            if value.numel() and copied.data_ptr() == value.data_ptr():
                return f"copies: {label} shares the storage of {name}"
    return None


def _forward_backward(torch, ours, theirs, inputs, g_inputs, dtype: str) -> str | None:
    outputs = _call_both(torch, 1, "forward", lambda: theirs(*inputs[0], **inputs[1]),
                         lambda: ours(*g_inputs[0], **g_inputs[1]))
    if isinstance(outputs, str):
        return outputs or None
    out_t, out_g = outputs
    problem = describe_mismatch(out_g, out_t, torch, dtype, "output")
    if problem:
        return f"forward: {problem}"
    return _backward(torch, ours, theirs, (out_g, out_t), (g_inputs, inputs), dtype)


def _backward(torch, ours, theirs, outputs, inputs, dtype: str) -> str | None:
    floats_g, floats_t = _floats(outputs[0], torch), _floats(outputs[1], torch)
    if not floats_t:
        return None
    if len(floats_g) != len(floats_t):
        return "backward: a different number of outputs require grad"
    sum(t.sum() for t in floats_t).backward()
    try:
        sum(t.sum() for t in floats_g).backward()
    except Exception as error:
        return f"backward: {type(error).__name__}: {error}"[:200]
    theirs_grads = [p.grad for p in theirs.parameters()] + [t.grad for t in _leaves(inputs[1], torch)]
    ours_grads = [p.grad for p in ours.parameters()] + [t.grad for t in _leaves(inputs[0], torch)]
    for i, (a, b) in enumerate(zip(ours_grads, theirs_grads, strict=True)):
        if (a is None) != (b is None):
            return f"backward: gradient {i} is {'missing' if a is None else 'extra'}"
        problem = b is not None and describe_mismatch(a, b, torch, dtype, f"gradient {i}")
        if problem:
            return f"backward: {problem}"
    return None


def run_error_sample(torch, record, error_input) -> str | None:
    """An ErrorModuleInput: glasstorch must raise torch's exception type where torch does."""
    sample = error_input.module_error_input
    try:
        g_args = to_glass(sample.constructor_input.args, torch)
        g_kwargs = to_glass(sample.constructor_input.kwargs, torch)
        g_fargs = to_glass(sample.forward_input.args, torch) if sample.forward_input else ()
        g_fkwargs = to_glass(sample.forward_input.kwargs, torch) if sample.forward_input else {}
    except Unconvertible as reason:
        return f"skipped: {reason}"
    try:
        module = getattr(gt.nn, record.module_cls.__name__)(*g_args, **g_kwargs)
        if error_input.error_on.name == "FORWARD_ERROR":
            module(*g_fargs, **g_fkwargs)
    except Exception as error:
        if isinstance(error, error_input.error_type):
            return None
        return f"error input: {type(error).__name__} instead of {error_input.error_type.__name__}"
    return f"error input: no {error_input.error_type.__name__} raised"


# ----- the run --------------------------------------------------------------------------------
def run(torch, pattern: str = "", dtypes: tuple = DTYPES, modes: tuple = (True, False)) -> dict:
    """{class name: (Counter of 'passed' / 'skipped' / failing check, failure lines)} over
    the samples of `dtypes` in the training `modes` (True: train, False: eval)."""
    wanted = {p for p in pattern.split(",") if p}
    results = {}
    for record in load_records(torch):
        name = record.module_cls.__name__
        if not hasattr(gt.nn, name) or record.is_lazy or (wanted and name not in wanted):
            continue
        counts, failures = results.setdefault(name, (collections.Counter(), []))
        for dtype in dtypes:
            for training in modes:
                samples = record.module_inputs_func(record, device="cpu",
                                                    dtype=getattr(torch, dtype),
                                                    requires_grad=True, training=training)
                for sample in samples:
                    _count(counts, failures, sample.desc, dtype, training,
                           lambda: run_sample(torch, record, sample, dtype, training))
        if record.module_error_inputs_func is not None:
            for error_input in record.module_error_inputs_func(
                    record, device="cpu", dtype=torch.float32, requires_grad=False,
                    training=True):
                _count(counts, failures, "error input", "float32", True,
                       lambda: run_error_sample(torch, record, error_input))
    return results


def _count(counts, failures: list, desc: str, dtype: str, training: bool, check) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            problem = check()
        except Exception as error:              # a harness-level failure is a failure too
            problem = f"harness: {type(error).__name__}: {error}"[:200]
    if problem is None:
        counts["passed"] += 1
    elif problem.startswith("skipped"):
        counts["skipped"] += 1
    else:
        counts[problem.split(":")[0]] += 1
        failures.append(f"{desc or '-'} [{dtype}, {'train' if training else 'eval'}] {problem}")


def format_table(results: dict) -> str:
    lines = [f"{'module':28} {'passed':>8} {'failed':>8} {'skipped':>8}  failing checks"]
    total = collections.Counter()
    for name, (counts, _) in sorted(results.items()):
        failed = sum(v for k, v in counts.items() if k not in ("passed", "skipped"))
        kinds = ", ".join(f"{k} {v}" for k, v in counts.items() if k not in ("passed", "skipped"))
        lines.append(f"{name:28} {counts['passed']:8} {failed:8} {counts['skipped']:8}  {kinds}")
        total.update(passed=counts["passed"], failed=failed, skipped=counts["skipped"])
    lines.append(f"{'total':28} {total['passed']:8} {total['failed']:8} {total['skipped']:8}")
    return "\n".join(lines)


def pass_rate(results: dict) -> float:
    """Percent of the samples run (skipped ones aside) that passed."""
    passed = sum(counts["passed"] for counts, _ in results.values())
    run_ = sum(sum(v for k, v in counts.items() if k != "skipped")
               for counts, _ in results.values())
    return 100.0 * passed / run_ if run_ else 100.0


def format_details(results: dict) -> str:
    return "\n".join(f"{name}: {failure}" for name, (_, failures) in sorted(results.items())
                     for failure in failures)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", dest="pattern", default="", help="comma-separated class names")
    parser.add_argument("--details", action="store_true", help="list every failure")
    args = parser.parse_args(argv)
    import torch
    results = run(torch, args.pattern)
    print(format_table(results))
    if args.details:
        print(format_details(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
