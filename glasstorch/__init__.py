"""glasstorch: PyTorch's design in readable Python. ``import glasstorch as torch``.

This module is the torch namespace: it only re-exports. Operator functions
(`torch.zeros`, `torch.transpose`, ...) are generated from their declarations in
`aten/native/` and added here as they are declared.
"""
import importlib as _importlib
import sys as _sys

from .c10.dtype import (  # noqa: F401
    dtype, bool, uint8, int8, int16, int32, int64, uint16, uint32, uint64, float16, bfloat16,
    float32, float64, complex64, complex128, float8_e4m3fn, float8_e5m2, float8_e4m3fnuz,
    float8_e5m2fnuz, float8_e8m0fnu, float, double, half, cfloat, cdouble, long, int, short,
    complex32, chalf)
from .c10.device import device, get_default_device, set_default_device  # noqa: F401
from .c10.layout import (  # noqa: F401
    layout, strided, sparse_coo, sparse_csr, sparse_csc, sparse_bsr, sparse_bsc,
    memory_format, contiguous_format, channels_last, channels_last_3d, preserve_format)
from .c10.size import Size  # noqa: F401
from .c10.storage import UntypedStorage  # noqa: F401
from .c10.promotion import (  # noqa: F401
    promote_types, can_cast, get_default_dtype, set_default_dtype)
from .c10 import promotion as _promotion
from .aten import ops, dispatch_trace  # noqa: F401
from .aten import binding as _binding
from .aten import torch_names as _torch_names
from .aten import native as _native
from ._tensor import Tensor  # noqa: F401
from ._tensor_types import LEGACY_TYPES as _LEGACY_TYPES
from . import utils, return_types  # noqa: F401
from .c10.generator import Generator, default_generator  # noqa: F401
from . import random  # noqa: F401
from .random import (  # noqa: F401
    manual_seed, seed, initial_seed, get_rng_state, set_rng_state)
from . import autograd  # noqa: F401
from .autograd.grad_mode import (  # noqa: F401
    no_grad, enable_grad, set_grad_enabled, is_grad_enabled)
from .autograd.inference_mode import inference_mode, is_inference_mode_enabled  # noqa: F401

# global settings, tensor predicates, type names, constants
from .aten.context import (  # noqa: F401
    use_deterministic_algorithms, are_deterministic_algorithms_enabled,
    is_deterministic_algorithms_warn_only_enabled, set_deterministic_debug_mode,
    get_deterministic_debug_mode, set_float32_matmul_precision, get_float32_matmul_precision,
    set_flush_denormal, set_warn_always, is_warn_always_enabled)
from ._tensor_queries import (  # noqa: F401
    is_floating_point, is_complex, is_signed, is_inference, is_nonzero, is_same_size,
    get_device, typename, set_default_tensor_type)
from .utils import deterministic as _deterministic  # noqa: F401  (bound at import, as torch's)
from .utils.dlpack import to_dlpack  # noqa: F401
from ._dlpack import from_dlpack  # noqa: F401
from math import e, inf, nan, pi  # noqa: F401,E402
newaxis = None

# the version (a TorchVersion, as torch's)
globals().update(_LEGACY_TYPES)      # torch.FloatTensor, torch.LongTensor, ...

# what a CPU-only torch has of streams, device errors and build flags
from .c10.stream import Stream, Event  # noqa: F401,E402
from ._tensor_legacy import is_distributed, is_vulkan_available  # noqa: F401,E402
has_lapack = has_mkl = has_openmp = has_spectral = True

# torch's remaining top-level re-exports
from .c10.layout import contiguous_format as legacy_contiguous_format  # noqa: F401,E402
from .c10.storage import StorageBase  # noqa: F401,E402
from .random import thread_safe_generator  # noqa: F401,E402


def _forget_function(kind: str, name: str) -> None:
    """A name gained an overload: drop its compiled binding; `__getattr__` recompiles it."""
    if kind == "function" and name not in _HAND_WRITTEN:
        globals().pop(name, None)


# Submodules imported on first use (`torch.nn`, `torch.optim`): most programs touch them,
# but `import glasstorch` itself need not pay for every layer and optimizer (nor for
# printing, `torch._tensor_str`, in a program that prints nothing).
_LAZY_SUBMODULES = frozenset(
    {"nn", "optim", "_tensor_str"}
    # devices and mixed precision
    | {"cuda", "amp", "cpu", "backends", "mps", "accelerator", "xpu", "mtia"}
    # checkpoints (torch.save / load), observers (torch.profiler), typed storages
    | {"serialization", "profiler", "storage"}
    # entry points (Note [Compiling runs eagerly] in _dynamo/eval_frame.py)
    | {"_dynamo", "compiler", "jit", "onnx", "hub", "export", "fx", "distributed", "testing",
       "futures"}
    # torch's smaller submodules, and the shells of those not written yet
    # (Note [Shell modules])
    | {"types", "functional", "library", "overrides", "multiprocessing", "quasirandom"}
    # torch.func (vmap as a dispatch key, the function transforms)
    | {"func"}
    | {"ao", "quantization", "masked", "sparse", "nested", "package", "monitor", "nativert",
       "numa", "contrib"}
    # probability distributions (issue 20)
    | {"distributions"})
# the anomaly switches of torch's top level
_ANOMALY_FUNCTIONS = {name: ("autograd.anomaly_mode", name) for name in (
    "is_anomaly_enabled", "set_anomaly_enabled", "is_anomaly_check_nan_enabled")}

# Python functions written in family files (torch's own are Python functions too), found
# on first use with their family (Note [Families load on first use]): name -> (family,
# the function's name there). They replace the generated bindings of the same names.
_FAMILY_FUNCTIONS = {
    "split": ("shape.shape", "split_function"),
    "unique": ("sorting.unique", "unique"), "unique_consecutive": ("sorting.unique", "unique_consecutive"),
    "nonzero": ("indexing.masked", "nonzero_function"),
    "norm": ("reduction.norms", "norm_function"),
    "cdist": ("linalg.distance", "cdist_function"),
    "lu": ("linalg.lu_decomposition", "lu_function"),
    "svd_lowrank": ("linalg.lowrank", "svd_lowrank"),
    "pca_lowrank": ("linalg.lowrank", "pca_lowrank"),
    # torch's linear algebra functions removed in 1.9: each raises torch's message
    **{name: ("linalg.removed", name) for name in ("eig", "lstsq", "matrix_rank", "solve",
                                                   "symeig")},
    "meshgrid": ("shape.combine", "meshgrid_function"),
    "broadcast_tensors": ("shape.combine", "broadcast_tensors_function"),
    "block_diag": ("shape.combine", "block_diag_function"),
    "cartesian_prod": ("shape.combine", "cartesian_prod_function"),
    "atleast_1d": ("shape.combine", "atleast_1d_function"),
    "atleast_2d": ("shape.combine", "atleast_2d_function"),
    "atleast_3d": ("shape.combine", "atleast_3d_function"),
    "broadcast_shapes": ("shape.combine", "broadcast_shapes"),
    "unravel_index": ("shape.combine", "unravel_index"),
    "tensordot": ("linalg.matmul", "tensordot_function"),
    "chain_matmul": ("linalg.matmul", "chain_matmul_function"),
    "einsum": ("linalg.einsum", "einsum_function"),
    "range": ("creation.ranges", "range_function"),     # warns, over the generated binding
    "histogramdd": ("sorting.histogramdd", "histogramdd_function"),
    "_foreach_zero_": ("optim.foreach", "foreach_zero_function"),   # returns its list
}
# Other Python functions found on first use: name -> (module, the function's name there),
# as printing and threading are needed only once a program prints or splits work.
_MODULE_FUNCTIONS = {
    "set_printoptions": ("_tensor_str", "set_printoptions"),
    # threads: the intra-op pool's count and the inter-op one's
    **{name: ("aten.parallel", name) for name in (
        "get_num_threads", "set_num_threads", "init_num_threads", "get_num_interop_threads",
        "set_num_interop_threads")},
    # checkpoints in torch's formats
    "save": ("serialization", "save"), "load": ("serialization", "load"),
    **_ANOMALY_FUNCTIONS,
    # devices and autocast (torch.autocast and the *autocast* state functions)
    "autocast": ("amp.autocast_mode", "autocast"),
    "get_device_module": ("backends.device_module", "get_device_module"),
    **{name: ("amp.state", name) for name in (
        "is_autocast_enabled", "set_autocast_enabled", "get_autocast_dtype",
        "set_autocast_dtype", "is_autocast_cache_enabled", "set_autocast_cache_enabled",
        "clear_autocast_cache", "autocast_increment_nesting", "autocast_decrement_nesting",
        "is_autocast_cpu_enabled", "set_autocast_cpu_enabled", "get_autocast_cpu_dtype",
        "set_autocast_cpu_dtype", "get_autocast_gpu_dtype", "set_autocast_gpu_dtype",
        "is_autocast_ipu_enabled", "set_autocast_ipu_enabled", "get_autocast_ipu_dtype",
        "set_autocast_ipu_dtype", "is_autocast_xla_enabled", "set_autocast_xla_enabled",
        "get_autocast_xla_dtype", "set_autocast_xla_dtype")},
    # function transforms
    "vmap": ("func", "vmap"),
    # entry points
    "compile": ("_dynamo.entry", "compile"),
    "cond": ("_higher_order", "cond"), "while_loop": ("_higher_order", "while_loop"),
    "fork": ("jit._script", "fork_now"), "wait": ("jit._script", "wait_now"),
    "Future": ("futures", "Future"),
    # typed storages (torch.TypedStorage, torch.FloatStorage, ...)
    **{name: ("storage", name) for name in (
        "TypedStorage", "DoubleStorage", "FloatStorage", "HalfStorage", "BFloat16Storage",
        "LongStorage", "IntStorage", "ShortStorage", "CharStorage", "ByteStorage",
        "BoolStorage", "ComplexFloatStorage", "ComplexDoubleStorage")},
    "Storage": ("storage", "FloatStorage"),
    "GradScaler": ("amp.grad_scaler", "GradScaler"),
}
# spectral (issue 18): torch.fft, torch.signal, and torch.signal.windows, which torch's
# namespace also holds as torch.windows
_LAZY_SUBMODULES |= {"fft", "signal"}
_MODULE_FUNCTIONS["windows"] = ("signal", "windows")
# torch.lobpcg, the iterative eigensolver, written over the namespace as torch's is
_LAZY_SUBMODULES |= {"_lobpcg"}
_MODULE_FUNCTIONS["lobpcg"] = ("_lobpcg", "lobpcg")
# compiled on first use: dtype limits, tensors over buffers and files, device errors,
# the switches of __torch_function__, tensors from Python data, the version
_MODULE_FUNCTIONS.update({
    **{name: ("c10.type_info", name) for name in ("finfo", "iinfo")},
    **{name: ("_tensor_buffers", name) for name in ("frombuffer", "from_file")},
    **{name: ("c10.errors", name) for name in ("OutOfMemoryError", "AcceleratorError",
                                                "FatalError")},
    **{name: ("autograd._torch_function", name) for name in (
        "DisableTorchFunction", "DisableTorchFunctionSubclass")},
    # tensors from Python data: most programs make some, but not all at import
    **{name: ("_tensor_new", name) for name in ("tensor", "as_tensor", "asarray",
                                                 "from_numpy")},
    "__version__": ("version", "__version__")})
# the namespaces of linear algebra and special functions, and the version's modules
_LAZY_SUBMODULES |= {"linalg", "special", "version", "torch_version"}


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    if name in _FAMILY_FUNCTIONS:
        function = _native.member(*_FAMILY_FUNCTIONS[name])
    elif name in _MODULE_FUNCTIONS:
        module, attribute = _MODULE_FUNCTIONS[name]
        function = getattr(_importlib.import_module(f"{__name__}.{module}"), attribute)
    else:
        try:
            function = _binding.get_binding("function", name)
        except KeyError:
            raise _torch_names.missing_attribute(__name__, name) from None
    globals()[name] = function          # found once; see binding.py on lazy bindings
    return function


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES | set(_FAMILY_FUNCTIONS)
                  | set(_MODULE_FUNCTIONS) | set(_binding.names("function")))


def detach_(input: Tensor) -> Tensor:
    """`input.detach_()`: detach a tensor from the autograd graph in place."""
    return input.detach_()


def result_type(tensor, other) -> dtype:
    """The dtype an arithmetic operation on `tensor` and `other` produces.

    Either argument may be a tensor or a Python number; see `c10/promotion.py`.

    Example::

        >>> torch.result_type(torch.tensor([1, 2]), 1.0)
        torch.float32
    """
    return _promotion.result_type(tensor, other)


def is_tensor(obj) -> "bool":
    """Whether `obj` is a glasstorch tensor."""
    return isinstance(obj, Tensor)


def is_storage(obj) -> "bool":
    """Whether `obj` is a storage (untyped, or typed: `torch.storage.TypedStorage`)."""
    from .storage import TypedStorage
    return isinstance(obj, (UntypedStorage, TypedStorage))


def numel(input: Tensor) -> "int":
    """The number of elements of `input`."""
    return input.numel()


# written here by hand, or found in the families: generated bindings never replace them
_HAND_WRITTEN = set(globals()) | set(_FAMILY_FUNCTIONS) | set(_MODULE_FUNCTIONS)
_binding.add_sink(_forget_function, past=False)   # every global so far is hand-written

# Names glasstorch does not implement yet say so (Note [Names glasstorch does not implement
# yet]): Tensor's are placeholders on the class, modules' come from a last import finder.
_torch_names.install_missing(Tensor)
# torch modules glasstorch has as shells (Note [Shell modules]) are found before
# MissingModules refuses them
from ._shells import install as _install_shells  # noqa: E402
_install_shells(_sys.meta_path, before=_torch_names.MissingModules)
if _torch_names.MissingModules not in _sys.meta_path:
    _sys.meta_path.append(_torch_names.MissingModules)
