"""`import glasstorch` loads exactly the modules listed here, so that an eager import
cannot creep back unseen (a module that loads on first use stays off this list; one
that leaves it updates it). No timing is asserted: `tools/import_time.py` measures."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# glasstorch's own modules (without the "glasstorch." prefix): the core layers and the
# namespaces torch binds at import; no operator family (Note [Families load on first use])
GLASSTORCH = {
    "", "_dlpack", "_indexing", "_python_ops", "_shells", "_tensor", "_tensor_device",
    "_tensor_legacy", "_tensor_memory", "_tensor_queries", "_tensor_types", "_tensor_views",
    "random", "return_types", "utils", "utils.deterministic", "utils.dlpack",
    "c10", "c10.cpu_allocator", "c10.device", "c10.dispatch_key", "c10.dtype",
    "c10.generator", "c10.layout", "c10.promotion", "c10.size", "c10.storage", "c10.stream",
    "c10.strides", "c10.tensor_impl",
    "aten", "aten.allocation", "aten.backends", "aten.binding", "aten.binding_callers",
    "aten.complex_half", "aten.context", "aten.derivatives", "aten.direct_binding",
    "aten.dispatcher", "aten.fast_paths", "aten.math_bits", "aten.meta",
    "aten.meta.shape", "aten.observers", "aten.python_arg", "aten.python_dispatch",
    "aten.quiet", "aten.registry", "aten.return_types", "aten.schema", "aten.structured",
    "aten.torch_names", "aten.view_express", "aten.native", "aten.native._family_index",
    "autograd", "autograd.anomaly_mode", "autograd.creation_meta", "autograd.engine",
    "autograd.formulas", "autograd.forward_ad", "autograd.grad_mode", "autograd.gradcheck",
    "autograd.gradients", "autograd.graph", "autograd.graph_task",
    "autograd.inference_mode", "autograd.recording", "autograd.recording_plan",
    "autograd.saved", "autograd.saved_mutation", "autograd.variable", "autograd.views",
}
# other modules glasstorch itself brings in, beyond those NumPy and ml_dtypes load
# (`dataclasses`, `traceback`, `inspect`'s friends are left out on purpose: see Note
# [Records without dataclasses] in aten/schema.py)
OTHERS = {"threading", "heapq", "_heapq"}

_PROGRAM = """
import sys
import numpy, ml_dtypes
before = set(sys.modules)
import glasstorch
print(sorted(set(sys.modules) - before))
"""


def _loaded() -> set:
    done = subprocess.run([sys.executable, "-c", _PROGRAM], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return set(eval(done.stdout))


def test_import_loads_the_listed_modules():
    loaded = _loaded()
    own = {name.removeprefix("glasstorch").removeprefix(".") for name in loaded
           if name == "glasstorch" or name.startswith("glasstorch.")}
    assert sorted(own - GLASSTORCH) == [], (
        "`import glasstorch` loads these now: load them on first use, or list them here")
    assert sorted(GLASSTORCH - own) == [], "no longer loaded at import: remove them here"
    others = {name for name in loaded if name != "glasstorch" and
              not name.startswith(("glasstorch.", "__editable__"))}
    assert sorted(others - OTHERS) == [], "a new eager import of a library module"
