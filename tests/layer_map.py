"""glasstorch's layers, as data: which part of the package may import which.

DESIGN.md section 2 and docs/architecture.md section 1 draw the layers, bottom up:

    c10  <-  aten  <-  autograd  <-  the Tensor face  <-  the namespaces  <-  __init__.py

`test_layers.py` reads every module under glasstorch/ and fails on an import this map
does not allow (at module level or inside a function: a call-time import is a
dependency all the same), on a private name taken across a boundary `PUBLIC_ONLY`
guards, and on any import cycle.

A module belongs to the layer whose entry names it most precisely: an entry ending in
"/" holds a folder's modules, any other entry one file (so
``glasstorch/autograd/functional.py`` is in "autograd tools", the rest of
``glasstorch/autograd/`` in "autograd"). A new module no entry names fails the test:
place it here. A layer always imports itself freely.

The map lives beside the test that enforces it, not in the package: it describes the
source, as `test_code_budget.py`'s line budget does, and `import glasstorch` has no use
for it.
"""

LAYERS = {
    # the data model: dtypes, devices, layouts, Size, storage, TensorBase, dispatch keys
    "c10": ("glasstorch/c10/",),
    # the operator machinery and every operator: schemas, registry, dispatcher, Python
    # bindings, kernels, meta rules
    "aten": ("glasstorch/aten/",),
    # the engine: recording, formulas, graph, saved tensors, views, grad modes, forward
    # AD, custom Functions, backward/grad, gradcheck. It reaches operators through aten
    # and installs itself there through aten's hooks (DECLARATION_SINKS for its
    # kernels, register_fallback for the Inference key).
    "autograd": ("glasstorch/autograd/",),
    # class Tensor, and what makes tensors from Python data, indexes and prints them
    "face": ("glasstorch/_tensor.py", "glasstorch/_tensor_new.py", "glasstorch/_tensor_data.py",
             "glasstorch/_tensor_str.py", "glasstorch/_indexing.py", "glasstorch/_python_ops.py",
             "glasstorch/return_types.py", "glasstorch/random.py",
             "glasstorch/_tensor_device.py", "glasstorch/_tensor_queries.py",
             "glasstorch/_tensor_buffers.py", "glasstorch/_tensor_memory.py",
             "glasstorch/storage.py", "glasstorch/types.py", "glasstorch/_dlpack.py",
             "glasstorch/_tensor_legacy.py", "glasstorch/_tensor_types.py",
             "glasstorch/_tensor_views.py"),
    # torch.autograd.functional: a user-level tool, written (as torch writes it) in the
    # whole torch namespace, and loaded on first use
    "autograd tools": ("glasstorch/autograd/functional.py",),
    # the torch namespaces over the core
    "utils": ("glasstorch/utils/",),
    "linalg": ("glasstorch/linalg/",),
    "special": ("glasstorch/special/",),
    # torch.distributions, written over the namespace as a torch user writes
    "distributions": ("glasstorch/distributions/",),
    # torch.masked: masked reductions and normalizations, written over the namespace as a
    # torch user writes them
    "masked": ("glasstorch/masked/",),
    # spectral (issue 18): torch.fft over aten; torch.signal written in torch operators
    "fft": ("glasstorch/fft/",),
    "signal": ("glasstorch/signal/",),
    # torch.distributed: the process-group API (nn.parallel's DistributedDataParallel
    # asks it whether a group exists)
    "distributed": ("glasstorch/distributed/",),
    # torch.distributed.optim: ZeroRedundancyOptimizer, an optimizer over the process groups
    "distributed optim": ("glasstorch/distributed/optim/",),
    # the entry points a program reaches past the core: compile and its compiler front end,
    # jit, onnx, hub, export, fx, futures, testing, benchmark, cond/while_loop
    "entry points": ("glasstorch/_dynamo/", "glasstorch/compiler/", "glasstorch/jit/",
                     "glasstorch/onnx/", "glasstorch/hub/", "glasstorch/export/",
                     "glasstorch/fx/", "glasstorch/futures/", "glasstorch/testing/",
                     "glasstorch/utils/benchmark/", "glasstorch/_higher_order.py"),
    "nn": ("glasstorch/nn/",),
    "optim": ("glasstorch/optim/",),
    # checkpoints: torch.save / torch.load in torch's formats, and safetensors files
    "serialization": ("glasstorch/serialization/", "glasstorch/safetensors.py"),
    # torch.utils.data: datasets, samplers and the DataLoader, written as a torch user writes
    "data": ("glasstorch/utils/data/",),
    # torch.profiler: the schedule and trace handling over torch.autograd.profiler
    "profiler": ("glasstorch/profiler/",),
    # the device modules and mixed precision: torch.cuda, torch.backends, torch.cpu,
    # torch.mps, torch.accelerator, torch.amp
    "devices": ("glasstorch/cuda/", "glasstorch/backends/", "glasstorch/cpu/",
                "glasstorch/mps/", "glasstorch/accelerator/", "glasstorch/amp/",
                "glasstorch/xpu/", "glasstorch/mtia/"),
    # torch's smaller submodules: version, types, overrides, library, multiprocessing,
    # quasirandom, ... written over the core as a torch user writes
    "modules": ("glasstorch/version.py", "glasstorch/torch_version.py",
                "glasstorch/_reexport.py", "glasstorch/functional.py",
                "glasstorch/library/", "glasstorch/overrides.py", "glasstorch/multiprocessing/",
                "glasstorch/utils/module_tracker.py", "glasstorch/utils/flop_counter.py",
                "glasstorch/utils/model_zoo.py", "glasstorch/utils/collect_env.py",
                "glasstorch/utils/cpp_extension.py", "glasstorch/quasirandom.py",
                "glasstorch/_shells.py", "glasstorch/_lobpcg.py"),
    # torch.func: vmap's batched tensors and batching rules (the FuncTorchBatched key's
    # kernels, installed on first use), the function transforms, modules as functions
    "func": ("glasstorch/func/", "glasstorch/_functorch/"),
    # the torch namespace itself: re-exports, and the namespaces loaded on first use
    # (and ``python -m glasstorch``, which runs a script with ``import torch`` answered by it)
    "namespace": ("glasstorch/__init__.py", "glasstorch/torch_alias.py",
                  "glasstorch/__main__.py"),
}

CORE = ("c10", "aten", "autograd", "face")

# The layers each layer may import. "namespace" is `import glasstorch`: the core never
# needs it (each layer reaches operators through aten's bindings and overloads); the
# tools and namespaces above the core are written as a torch user writes
# (``torch.zeros``), as torch's own are.
MAY_IMPORT = {
    "c10": (),
    "aten": ("c10",),
    "autograd": ("c10", "aten"),
    "face": ("c10", "aten", "autograd"),
    "autograd tools": CORE + ("namespace",),
    "utils": CORE,
    "linalg": ("aten",),
    "special": ("aten",),
    "distributions": CORE + ("nn", "namespace"),
    "masked": CORE + ("namespace",),
    "fft": ("aten",),
    "signal": CORE + ("namespace",),
    "distributed": CORE + ("namespace",),
    "distributed optim": CORE + ("distributed", "optim", "namespace"),
    "entry points": CORE + ("utils", "nn", "distributed", "namespace"),
    "nn": CORE + ("utils", "distributed", "namespace"),
    "optim": CORE + ("utils", "nn", "namespace"),     # nn: swa_utils' AveragedModel
    "serialization": CORE + ("utils", "nn", "namespace"),
    "data": CORE + ("namespace",),
    "profiler": CORE + ("optim",),
    "devices": CORE + ("namespace",),
    "modules": CORE + ("utils", "nn", "entry points", "namespace"),
    "func": CORE + ("utils", "nn", "namespace"),
    "namespace": tuple(LAYERS),
}

# Layers that may take only the public names of others: no ``_name`` imported from (or
# read off) their modules, no module of theirs whose name starts with "_". Every layer
# above the core takes aten's public names only: what the namespaces need of aten (nn
# above all) is part of aten's interface, named and documented as such.
PUBLIC_ONLY = {layer: ("aten",) for layer in LAYERS if layer not in CORE + ("namespace",)}

# Imports allowed although their layers are not: (importing file, imported file) -> the
# reason. None: every import follows the layers.
EXCEPTIONS: dict = {}
