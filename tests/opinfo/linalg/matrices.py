"""Matrices for the OpInfo entries of torch.linalg: well-conditioned, Hermitian
positive-definite, triangular, singular, in the layouts the factorizations meet
(row-major, column-major, a batch broadcast from one matrix), and the references'
helpers (compute in float64 / complex128, round to the sample's dtype).
"""
import numpy as np

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import random_values

LINALG_DTYPES = (gt.float32, gt.float64, gt.complex64, gt.complex128)
# batch shapes: one matrix, a batch, a batch of batches, an empty batch
BATCHES = ((), (2,), (2, 1), (0,))


def wide(a: np.ndarray) -> np.ndarray:
    """`a` in float64 (complex128), where references compute."""
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def values(shape: tuple, dtype, seed: int = 0) -> np.ndarray:
    """Values in [-1, 1) of `dtype`, complex ones with an imaginary part."""
    return random_values(shape, dtype, low=-1, high=1, seed=seed)


def as_tensor(a: np.ndarray, dtype, layout: str = "contiguous"):
    """A tensor of `a` (rounded to `dtype`), row-major, column-major (``transposed``) or,
    for ``expanded``, its first matrix broadcast over the batch (stride 0)."""
    a = a.astype(numpy_dtype(dtype))
    if layout == "transposed":
        return gt.from_numpy(np.asfortranarray(a))
    if layout == "expanded" and a.ndim > 2 and a.shape[0] > 1:
        return gt.from_numpy(np.ascontiguousarray(a[:1])).expand(a.shape)
    return gt.from_numpy(np.ascontiguousarray(a))


def general(shape: tuple, dtype, layout: str = "contiguous", seed: int = 0):
    """Square matrices far from singular: random values plus n on the diagonal."""
    n = shape[-1]
    a = values(shape, dtype, seed) + n * np.eye(n)
    return as_tensor(a, dtype, layout)


def hermitian(shape: tuple, dtype, layout: str = "contiguous", seed: int = 0):
    """Hermitian positive-definite matrices: ``X X^H + n I``."""
    x = values(shape, dtype, seed)
    a = x @ np.swapaxes(x, -1, -2).conj() + shape[-1] * np.eye(shape[-1])
    return as_tensor(a, dtype, layout)


def rhs(shape: tuple, dtype, layout: str = "contiguous", seed: int = 1):
    return as_tensor(values(shape, dtype, seed), dtype, layout)


def rounded(result: np.ndarray, like: np.ndarray) -> np.ndarray:
    """A float64 / complex128 `result` rounded to the dtype of the sample `like`."""
    return result.astype(like.dtype)


def real_of(like: np.ndarray) -> np.dtype:
    return np.empty(0, like.dtype).real.dtype
