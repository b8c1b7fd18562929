"""torch's whole namespace, measured: issue 14's "What it must show".

Every public name of torch 2.13 in the namespaces below exists in glasstorch (torch's own
``dir()``, or ``__all__`` for torch.serialization, as ``tools/torch_names.py`` lists them in
``glasstorch/aten/torch_names.txt``), except the internal kernels and the names other open
issues build (`coverage_claims.py`, data with reasons); and every torch module a program
can import imports here. ``python tools/coverage.py --missing NAMESPACE`` lists what a
namespace lacks; each failure below names every missing name.
"""
import importlib
import pathlib
import subprocess
import sys

import pytest

import glasstorch as gt
from glasstorch.aten import torch_names

from coverage_claims import (CLAIMED, CLAIMED_MODULES, CLAIMED_TENSOR, EXCEPTED,
                             EXCEPTED_IN_MODULES, EXCEPTED_TENSOR, names)

ROOT = pathlib.Path(__file__).resolve().parent.parent
NAMESPACES = ("torch", "torch.Tensor", "torch.cuda", "torch.backends", "torch.amp",
              "torch.autograd", "torch.random", "torch.testing", "torch.jit", "torch.hub",
              "torch.utils.checkpoint", "torch.serialization")
LEFT_OUT = {"torch": {**names(EXCEPTED), **names(CLAIMED)},
            "torch.Tensor": {**names(EXCEPTED_TENSOR), **names(CLAIMED_TENSOR)},
            **{namespace: names(table) for namespace, table in EXCEPTED_IN_MODULES.items()}}
# torch modules left out, as the names above: quantization and the C++ build's tooling.
EXCEPTED_MODULES = {
    "quantized tensors (torch.ao's internals)": """torch.ao torch.quantization
        torch.nn.intrinsic torch.nn.qat torch.nn.quantizable torch.nn.quantized
        torch.backends.quantized""",
    "tools of torch's C++ build and mobile runtime": """torch.utils.cpp_extension
        torch.utils.hipify torch.utils.mobile_optimizer torch.utils.bundled_inputs
        torch.utils.model_dump torch.utils.cpp_backtrace torch.utils.mkldnn torch.nativert
        torch.nn.cpp torch.utils.throughput_benchmark torch.utils.backend_registration""",
}
def here(namespace: str):
    """glasstorch's module or class for a torch namespace."""
    name = "glasstorch" + namespace[len("torch"):]
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        parent, _, attribute = name.rpartition(".")
        return getattr(importlib.import_module(parent), attribute)


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_every_public_name_exists(namespace):
    assert torch_names.torch_names(namespace), f"no names of {namespace} in the data file"
    left_out = LEFT_OUT.get(namespace, {})
    module = here(namespace)
    missing = sorted(name for name in torch_names.torch_names(namespace)
                     if name not in left_out and not hasattr(module, name))
    assert not missing, f"{namespace} lacks {len(missing)} of torch's names: {missing}"


def test_every_torch_module_imports():
    left_out = {**names(EXCEPTED_MODULES), **names(CLAIMED_MODULES)}
    failed = []
    for module in sorted(torch_names.torch_submodules() - set(left_out)):
        try:
            importlib.import_module("glasstorch" + module[len("torch"):])
        except ImportError as error:
            failed.append(f"{module} ({error})")
    assert not failed, f"{len(failed)} torch modules do not import:\n" + "\n".join(failed)


@pytest.mark.parametrize("namespace, table", [("torch", EXCEPTED), ("torch", CLAIMED),
                                              ("torch.Tensor", EXCEPTED_TENSOR),
                                              ("torch.Tensor", CLAIMED_TENSOR),
                                              ("submodules", EXCEPTED_MODULES),
                                              ("submodules", CLAIMED_MODULES),
                                              *EXCEPTED_IN_MODULES.items()])
def test_left_out_names_are_torchs(namespace, table):
    """Every name the tests leave out is one of torch's (no stale or misspelt entry)."""
    unknown = sorted(set(names(table)) - torch_names.sections()[namespace])
    assert not unknown, f"not torch's names in {namespace}: {unknown}"


@pytest.mark.parametrize("namespace, table", [("torch", CLAIMED),
                                              ("torch.Tensor", CLAIMED_TENSOR)])
def test_claimed_names_are_still_missing(namespace, table):
    """A name another issue claims leaves the list when it is built."""
    built = sorted(name for name in names(table) if hasattr(here(namespace), name))
    assert not built, f"built, no longer claimed: {built}"


def test_claimed_modules_are_still_missing():
    """A module another issue claims leaves the list when it is written."""
    built = []
    for module in names(CLAIMED_MODULES):
        try:
            importlib.import_module("glasstorch" + module[len("torch"):])
        except ImportError:
            continue
        built.append(module)
    assert not built, f"written, no longer claimed: {sorted(built)}"


def test_readme_table_is_true():
    """README's coverage table is what tools/coverage.py computes now."""
    result = subprocess.run([sys.executable, "tools/coverage.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_missing_name_is_counted_missing():
    """The coverage measure sees placeholders as missing, methods as present."""
    assert hasattr(gt.Tensor, "add")
    assert all(not hasattr(gt.Tensor, name) for name in torch_names.torch_names("torch.Tensor")
               if torch_names.is_missing(gt.Tensor, name))
