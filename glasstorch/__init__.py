"""glasstorch: PyTorch's design in readable Python. ``import glasstorch as torch``.

This module is the torch namespace: it only re-exports. Operator functions
(`torch.zeros`, `torch.transpose`, ...) are generated from their declarations in
`aten/native/` and added here as they are declared.
"""
import importlib as _importlib

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
from .c10.type_info import finfo, iinfo  # noqa: F401
from .c10 import promotion as _promotion
from .aten import ops, dispatch_trace  # noqa: F401
from .aten.parallel import get_num_threads, set_num_threads  # noqa: F401
from .aten import binding as _binding
from ._tensor import Tensor  # noqa: F401
from ._tensor_new import (  # noqa: F401
    tensor, as_tensor, asarray, from_numpy, LEGACY_TYPES as _LEGACY_TYPES)
from .aten.native.shape import split_function as split  # noqa: F401
from .aten.native.unique import unique, unique_consecutive  # noqa: F401
from .aten.native.masked import nonzero_function as nonzero  # noqa: F401
from .aten.native.norms import norm_function as norm  # noqa: F401
from .aten.native.distance import cdist_function as cdist  # noqa: F401
from .aten.native.combine import (  # noqa: F401
    meshgrid_function as meshgrid, broadcast_tensors_function as broadcast_tensors,
    block_diag_function as block_diag, cartesian_prod_function as cartesian_prod,
    atleast_1d_function as atleast_1d, atleast_2d_function as atleast_2d,
    atleast_3d_function as atleast_3d, broadcast_shapes, unravel_index)
from .aten.native.matmul import (  # noqa: F401
    tensordot_function as tensordot, chain_matmul_function as chain_matmul)
from .aten.native.einsum import einsum_function as einsum  # noqa: F401
from . import linalg  # noqa: F401
from . import utils, return_types  # noqa: F401
from .c10.generator import Generator, default_generator  # noqa: F401
from . import random  # noqa: F401
from .random import (  # noqa: F401
    manual_seed, seed, initial_seed, get_rng_state, set_rng_state)
from . import autograd  # noqa: F401
from .autograd.grad_mode import (  # noqa: F401
    no_grad, enable_grad, set_grad_enabled, is_grad_enabled)
from .autograd.inference_mode import inference_mode, is_inference_mode_enabled  # noqa: F401
from ._tensor_str import set_printoptions  # noqa: F401

__version__ = "2.13.0+glasstorch"
globals().update(_LEGACY_TYPES)      # torch.FloatTensor, torch.LongTensor, ...


def _forget_function(kind: str, name: str) -> None:
    """A name gained an overload: drop its compiled binding; `__getattr__` recompiles it."""
    if kind == "function" and name not in _HAND_WRITTEN:
        globals().pop(name, None)


# Submodules imported on first use (`torch.nn`, `torch.optim`): most programs touch them,
# but `import glasstorch` itself need not pay for every layer and optimizer.
_LAZY_SUBMODULES = frozenset({"nn", "optim"})


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    try:
        function = _binding.get_binding("function", name)
    except KeyError:
        raise AttributeError(f"module 'glasstorch' has no attribute '{name}'") from None
    globals()[name] = function          # compiled once; see binding.py on lazy bindings
    return function


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES | set(_binding.names("function")))




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
    """Whether `obj` is a storage."""
    return isinstance(obj, UntypedStorage)


def numel(input: Tensor) -> "int":
    """The number of elements of `input`."""
    return input.numel()


_HAND_WRITTEN = set(globals())          # written here by hand: generated bindings never replace them
_binding.add_sink(_forget_function)
