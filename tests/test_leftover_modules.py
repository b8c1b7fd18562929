"""torch modules a program can import, against torch: torch.autograd.variable,
torch.nn.backends(.thnn), torch.backends.xeon, torch.cuda.comm, torch.nn.parallel's
submodules and torch.jit.frontend."""
import importlib
import inspect

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

MODULES = ["autograd.variable", "nn.backends", "nn.backends.thnn", "backends.xeon", "cuda.comm",
           "nn.parallel.comm", "nn.parallel.scatter_gather", "nn.parallel.parallel_apply",
           "nn.parallel.replicate", "jit.frontend"]


@pytest.mark.parametrize("name", MODULES)
def test_imports(name):
    importlib.import_module(f"glasstorch.{name}")
    importlib.import_module(f"torch.{name}")


def test_autograd_variable_module_and_function_as_torch():
    module = importlib.import_module("glasstorch.autograd.variable")
    assert module.Variable is gt.autograd.Variable
    assert gt.autograd.variable is module.variable         # the function, as torch's
    assert inspect.isfunction(torch.autograd.variable)
    with pytest.raises(RuntimeError, match="deprecated, use torch.tensor"):
        gt.autograd.variable(1)


def test_thnn_backend_is_none():
    from glasstorch.nn.backends import thnn
    assert thnn._get_thnn_function_backend() is None
    assert importlib.import_module("torch.nn.backends.thnn")._get_thnn_function_backend() is None


def test_jit_frontend():
    ours, theirs = gt.jit.frontend, torch.jit.frontend
    def f(a, b=2, *, c=3):
        return a
    assert ours.get_default_args(f) == theirs.get_default_args(f) == {"b": 2, "c": 3}
    assert ours.get_default_args(None) == theirs.get_default_args(None) == {}
    for name in ("FrontendError", "NotSupportedError", "UnsupportedNodeError",
                 "FrontendTypeError"):
        assert [k.__name__ for k in getattr(ours, name).__mro__] == \
            [k.__name__ for k in getattr(theirs, name).__mro__]
    assert str(ours.NotSupportedError(None, "no lambdas")) == "no lambdas"
    with pytest.raises(NotImplementedError, match="get_jit_def"):
        ours.get_jit_def(f, "f")
