"""torch.jit as torch behaves under PYTORCH_JIT=0: the answers torch gives in that mode
(read from a torch subprocess started with it), the deprecation warnings, and the
refusals of save/load/freeze with torch's types and messages."""
import json
import os
import subprocess
import sys
import warnings

import pytest

import glasstorch as gt

PROBE = r"""
import json, warnings, torch
J = torch.jit
m = torch.nn.Linear(2, 3)
def f(x): return x * 2
def error(call):
    try: call()
    except Exception as e: return [type(e).__name__, str(e)]
    return None
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    answers = {
        "script_is_identity": J.script(m) is m and J.script(f) is f,
        "trace_is_identity": J.trace(f, torch.ones(2)) is f and J.trace(m, torch.ones(2)) is m,
        "trace_module_is_identity": J.trace_module(m, {"forward": torch.ones(2)}) is m,
        "decorators": [J.ignore(f) is f, J.ignore(drop=True)(f) is f, J.unused(f) is f,
                       J.export(f) is f, J.script_method(f) is f],
        "flags": [J.is_scripting(), J.is_tracing()],
        "annotate": J.annotate(int, 3), "attribute": J.Attribute(3, int),
        "fork_wait": J.wait(J.fork(f, 21)),
        "isinstance": [J.isinstance([1, 2], list[int]), J.isinstance([1, "a"], list[int]),
                       J.isinstance({"a": 1}, dict[str, int]), J.isinstance((1, "a"), tuple[int, str])],
        "isinstance_bare": error(lambda: J.isinstance([1], list)),
        "load_missing": error(lambda: J.load("/nonexistent/model.pt")),
        "freeze": error(lambda: J.freeze(m)),
        "optimize_for_inference": error(lambda: J.optimize_for_inference(m)),
        "export_opnames": error(lambda: J.export_opnames(m)),
        "interface_function": error(lambda: J.interface(f)),
        "fusion_strategy": J.set_fusion_strategy([("STATIC", 2)]),
        "final": repr(J.Final),
        "all": sorted(J.__all__),
    }
answers["warnings"] = sorted({str(w.message) for w in caught if w.category is DeprecationWarning})
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def torch_answers():
    pytest.importorskip("torch")
    env = {**os.environ, "PYTORCH_JIT": "0"}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _error(call):
    try:
        call()
    except Exception as e:          # noqa: BLE001 (the test compares any error)
        return [type(e).__name__, str(e)]
    return None


def our_answers():
    J = gt.jit
    m = gt.nn.Linear(2, 3)

    def f(x):
        return x * 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        answers = {
            "script_is_identity": J.script(m) is m and J.script(f) is f,
            "trace_is_identity": J.trace(f, gt.ones(2)) is f and J.trace(m, gt.ones(2)) is m,
            "trace_module_is_identity": J.trace_module(m, {"forward": gt.ones(2)}) is m,
            "decorators": [J.ignore(f) is f, J.ignore(drop=True)(f) is f, J.unused(f) is f,
                           J.export(f) is f, J.script_method(f) is f],
            "flags": [J.is_scripting(), J.is_tracing()],
            "annotate": J.annotate(int, 3), "attribute": J.Attribute(3, int),
            "fork_wait": J.wait(J.fork(f, 21)),
            "isinstance": [J.isinstance([1, 2], list[int]), J.isinstance([1, "a"], list[int]),
                           J.isinstance({"a": 1}, dict[str, int]),
                           J.isinstance((1, "a"), tuple[int, str])],
            "isinstance_bare": _error(lambda: J.isinstance([1], list)),
            "load_missing": _error(lambda: J.load("/nonexistent/model.pt")),
            "freeze": _error(lambda: J.freeze(m)),
            "optimize_for_inference": _error(lambda: J.optimize_for_inference(m)),
            "export_opnames": _error(lambda: J.export_opnames(m)),
            "interface_function": _error(lambda: J.interface(f)),
            "fusion_strategy": [list(p) for p in J.set_fusion_strategy([("STATIC", 2)])],
            "final": repr(J.Final),
            "all": sorted(n for n in dir(J) if not n.startswith("_")),
        }
    answers["warnings"] = sorted({str(w.message) for w in caught
                                  if w.category is DeprecationWarning})
    return answers


@pytest.mark.parametrize("key", [
    "script_is_identity", "trace_is_identity", "trace_module_is_identity", "decorators",
    "flags", "annotate", "attribute", "fork_wait", "isinstance", "isinstance_bare",
    "load_missing", "freeze", "optimize_for_inference", "export_opnames",
    "interface_function", "fusion_strategy", "final", "warnings"])
def test_answers_match_torch_without_jit(torch_answers, key):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gt.jit.set_fusion_strategy([("STATIC", 2), ("DYNAMIC", 10)])
    assert our_answers()[key] == torch_answers[key]


def test_every_public_name_of_torch_jit(torch_answers):
    assert not set(torch_answers["all"]) - set(our_answers()["all"])


def test_save_and_load_refuse_clearly(tmp_path):
    model = gt.nn.Linear(2, 2)
    with pytest.warns(DeprecationWarning), pytest.raises(
            AttributeError, match="'Linear' object has no attribute 'save'.*state_dict"):
        gt.jit.save(model, tmp_path / "m.pt")
    archive = tmp_path / "archive.pt"
    archive.write_bytes(b"not a TorchScript archive")
    with pytest.warns(DeprecationWarning), pytest.raises(RuntimeError, match="no TorchScript"):
        gt.jit.load(archive)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="is a directory"):
        gt.jit.load(tmp_path)


def test_script_module_subclasses_run_as_modules():
    with pytest.warns(DeprecationWarning, match="script_method"):
        class Doubler(gt.jit.ScriptModule):
            @gt.jit.script_method
            def forward(self, x):
                return 2 * x
    model = Doubler()
    assert gt.equal(model(gt.ones(2)), gt.full((2,), 2.0))
    assert isinstance(model, gt.nn.Module)


def test_strict_fusion_warns_outside_script_mode():
    with pytest.warns(UserWarning, match="Only works in script mode"):
        with gt.jit.strict_fusion():
            pass


def test_top_level_fork_and_futures_as_torch():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("error")          # torch.fork itself does not warn
            future = lib.fork(lambda x: x + 1, lib.ones(1))
            assert isinstance(future, lib.Future) and lib.wait(future).tolist() == [2.0]
    outcomes = []
    for lib in (gt, torch):
        f = lib.futures.Future()
        record = [f.done()]
        chained = f.then(lambda fut: fut.value() * 2)
        f.set_result(3)
        record += [f.done(), f.wait(), chained.wait(), lib.futures.wait_all([f, chained]),
                   len(lib.futures.collect_all([f, chained]).wait()), _error(lambda: f.set_result(4))]
        failing = lib.futures.Future()
        failing.set_exception(ValueError("boom"))
        record.append(_error(failing.wait))
        outcomes.append(record)
    assert outcomes[0] == outcomes[1]


def test_every_public_class_and_function_of_torch_jit():
    torch = pytest.importorskip("torch")
    import types
    helpers = {"contextmanager", "annotations", "warnings", "torch", "Iterator"}   # its imports
    theirs = {n for n in dir(torch.jit) if not n.startswith("_") and n not in helpers
              and not isinstance(getattr(torch.jit, n), types.ModuleType)}
    assert not theirs - set(dir(gt.jit))
    for name in ("TracerWarning", "ScriptWarning"):
        assert issubclass(getattr(gt.jit, name), Warning)
    assert issubclass(gt.jit.TopLevelTracedModule, gt.jit.ScriptModule)
