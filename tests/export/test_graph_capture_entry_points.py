"""torch.export, torch.fx and torch.onnx: importable with every public name of torch's,
and each graph-capturing name refusing with a clear NotImplementedError on use."""
import importlib

import pytest

import glasstorch as gt


@pytest.mark.parametrize("module", ["export", "fx", "onnx"])
def test_public_names_exist(module):
    pytest.importorskip("torch")
    theirs = importlib.import_module(f"torch.{module}")
    ours = importlib.import_module(f"glasstorch.{module}")
    missing = [n for n in theirs.__all__ if not hasattr(ours, n)]
    assert not missing
    assert getattr(gt, module) is ours


@pytest.mark.parametrize("call,name", [
    (lambda: gt.export.export(gt.nn.Linear(2, 2), (gt.ones(2),)), "torch.export.export"),
    (lambda: gt.export.ExportedProgram(), "torch.export.ExportedProgram"),
    (lambda: gt.fx.symbolic_trace(gt.nn.Linear(2, 2)), "torch.fx.symbolic_trace"),
    (lambda: gt.fx.GraphModule(gt.nn.Linear(2, 2), None), "torch.fx.GraphModule"),
    (lambda: gt.onnx.export(gt.nn.Linear(2, 2), (gt.ones(2),), "m.onnx"), "torch.onnx.export"),
])
def test_use_refuses_clearly(call, name):
    with pytest.raises(NotImplementedError, match=f"glasstorch does not implement {name} yet"):
        call()


def test_onnx_submodules_name_torchs():
    torch = pytest.importorskip("torch")
    import torch.onnx.errors
    import torch.onnx.ops
    for name in ("errors", "ops"):
        theirs, ours = getattr(torch.onnx, name), getattr(gt.onnx, name)
        assert sorted(theirs.__all__) == sorted(n for n in theirs.__all__ if hasattr(ours, n))
    assert issubclass(gt.onnx.errors.UnsupportedOperatorError, gt.onnx.OnnxExporterError)


def test_answers_without_capture():
    assert gt.onnx.is_in_onnx_export() is False
    assert issubclass(gt.onnx.OnnxExporterError, RuntimeError)

    def f(x):
        return x
    assert gt.fx.wrap(f) is f
