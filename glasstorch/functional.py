"""torch.functional: the Python-level functions torch defines in one module (einsum,
meshgrid, split, norm, stft, ...), each the same object as the top-level function."""
from ._reexport import reexporter
from ._tensor import Tensor  # noqa: F401  (torch.functional's own imports, which programs use)
from .overrides import (handle_torch_function, has_torch_function,  # noqa: F401
                        has_torch_function_unary, has_torch_function_variadic)

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
    "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu",
    "norm", "meshgrid", "pca_lowrank", "split", "stft", "svd_lowrank", "tensordot",
    "unique", "unique_consecutive", "unravel_index",
]

__getattr__ = reexporter(__name__, __all__)


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
