"""Operator families load on first use (Note [Families load on first use] in
glasstorch/aten/native/__init__.py): the index is current, and each way of reaching an
operator loads its family in a fresh interpreter."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "glasstorch" / "aten" / "native" / "_family_index.py"


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_index_is_current():
    from glasstorch.aten.native.family_index import fresh_source
    assert fresh_source() == INDEX.read_text(), (
        "stale: run `python -m glasstorch.aten.native.family_index`")


@pytest.mark.parametrize("access, family", [
    ("torch.softmax(x, 0)", "nn.softmax"),                        # torch.<name>
    ("x.cumsum(0)", "reduction.scan"),                            # Tensor.<name>
    ("torch.ops.aten.gelu.default(x)", "nn.activation_gelu"),     # torch.ops.aten
    ("torch.ops.aten.div.Scalar(x, 2)", "pointwise.binary_scalar"),  # an overload of a loaded name
    ("torch.nn.functional.layer_norm(x, (3,))", "nn.normalization"),  # a namespace module
    ("torch.linalg.vector_norm(x)", "reduction.norms"),
    ("torch.special.entr(x)", "pointwise.special"),
    ("torch.einsum('i,i->', x, x)", "linalg.einsum"),             # a re-exported function
    ("torch.Tensor.unique(x)", "sorting.unique"),                 # a re-exported method
    ("x.norm()", "reduction.norms"),
    ("x @ x", "linalg.matmul"),                                   # a Python operator
    ("x ** 2", "pointwise.power"),
    ("x[torch.tensor([0, 2])]", "indexing.advanced"),             # advanced indexing
    ("x[[True, False, True]] = 0", "indexing.advanced"),
    # the families the core's own code uses: views, copies, factories, conversions
    ("x[1]", "shape.view"),                                       # basic indexing
    ("torch.Tensor(2)", "creation.factory"),                      # the legacy constructor
    ("torch.tensor([1, 2], dtype=torch.int8)", "creation.copy"),  # torch's casts
    ("x.long()", "creation.conversion"),                          # a dtype shorthand
    ("torch.Tensor.to(x, torch.int64)", "creation.conversion"),   # Tensor.to
])
def test_first_use_loads_the_family(access, family):
    module = f"glasstorch.aten.native.{family}"
    out = _run(f"import sys, glasstorch as torch\n"
               f"before = {module!r} in sys.modules\n"
               f"x = torch.ones(3)\n"
               f"{access}\n"
               f"print(before, {module!r} in sys.modules)")
    assert out.split() == ["False", "True"]


def test_import_loads_no_family():
    out = _run("import sys, glasstorch as torch\n"
               "print(sorted(m.removeprefix('glasstorch.aten.native.') for m in sys.modules\n"
               "             if m.startswith('glasstorch.aten.native.')))")
    assert out == str(["_family_index"]), (
        "a core module imports a family at module level (Note [Families load on first use])")


def test_other_modules_the_core_leaves_for_first_use():
    """Printing, thread settings, custom autograd functions, dtype limits, buffers, device
    errors, the torch-function switches, the constructors from data, the linalg and
    special namespaces and the version are imported when used, and listed before."""
    modules = ["glasstorch._tensor_str", "glasstorch.aten.parallel",
               "glasstorch.autograd.function", "glasstorch.autograd.functional",
               "glasstorch.c10.type_info", "glasstorch._tensor_buffers",
               "glasstorch.c10.errors", "glasstorch.autograd._torch_function",
               "glasstorch._tensor_new", "glasstorch._tensor_data", "glasstorch.linalg",
               "glasstorch.special", "glasstorch.version", "glasstorch.torch_version"]
    names = ["finfo", "iinfo", "frombuffer", "from_file", "OutOfMemoryError",
             "AcceleratorError", "FatalError", "DisableTorchFunction",
             "DisableTorchFunctionSubclass", "tensor", "as_tensor", "asarray", "from_numpy",
             "linalg", "special", "version", "torch_version", "__version__"]
    out = _run(f"import sys, glasstorch as torch\n"
               f"print([m in sys.modules for m in {modules}], set({names}) <= set(dir(torch)))\n"
               f"torch.set_printoptions(precision=4), torch.get_num_threads()\n"
               f"torch.autograd.Function, torch.autograd.functional.jacobian\n"
               f"torch.finfo(torch.float16).eps, torch.frombuffer(b'ab', dtype=torch.uint8)\n"
               f"torch.OutOfMemoryError, torch.DisableTorchFunction, torch.tensor([1])\n"
               f"torch.linalg.norm, torch.special.entr, torch.__version__\n"
               f"print([m in sys.modules for m in {modules}])")
    assert out.splitlines() == [f"{[False] * 14} True", str([True] * 14)]


def test_reexported_functions_are_the_family_functions():
    out = _run("import glasstorch as torch\n"
               "listed = 'einsum' in dir(torch) and 'unique' in dir(torch.Tensor)\n"
               "from glasstorch.aten.native.linalg import einsum\n"
               "from glasstorch.aten.native.sorting import unique\n"
               "print(listed, torch.einsum is einsum.einsum_function,\n"
               "      torch.Tensor.unique is unique.unique is torch.unique)")
    assert out == "True True True"


def test_dir_and_ops_listing_see_every_family():
    out = _run("import glasstorch as torch\n"
               "print('rrelu' in dir(torch), 'gelu' in dir(torch.ops.aten), "
               "hasattr(torch.Tensor, 'logcumsumexp'))")
    assert out == "True True True"


# The core's own calls into the families and into the constructors of `_tensor_new.py`,
# each the first in a fresh interpreter: the constructors' factories, aliases and casts,
# indexing's views and writes, conversions, the legacy typed classes.
_CORE_CALLS = """
import numpy as np
print(torch.Tensor(2).shape, torch.Tensor(torch.ones(2)).tolist())
print(torch.tensor([1.7, -2.5], dtype=torch.int8).tolist())
print(torch.asarray(np.arange(3), dtype=torch.float64))
x = torch.arange(6.).reshape(2, 3)
print(x[1], x[None, ..., 1:], x[...] is x)
x[[0, 1], 0] = 7
print(x, x.double(), x.cpu() is x, float(torch.tensor(2 + 0j)))
try:
    x[0] = "a"
except TypeError as error:
    print(error)
print(torch.LongTensor([1, 2]), isinstance(x, torch.FloatTensor), torch.LongTensor)
print(x.new_tensor([3]), x.new(2).shape, np.sin(torch.zeros(1)), torch.zeros(2).copy_(3))
print(torch.from_dlpack(np.arange(2.)), torch.as_tensor([1, 2]), torch.from_numpy(np.ones(1)))
"""


def test_core_calls_into_families_as_first_use():
    pytest.importorskip("torch")
    ours = _run("import glasstorch as torch\n" + _CORE_CALLS)
    assert ours == _run("import torch\n" + _CORE_CALLS)
