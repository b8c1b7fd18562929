"""The LDL factorization of symmetric (Hermitian) indefinite matrices: linalg_ldl_factor_ex,
linalg_ldl_factor, linalg_ldl_solve, in LAPACK's storage (sytrf / hetrf: D's 1x1 and 2x2
blocks and L's multipliers in one lower triangle, Bunch-Kaufman pivots, negative for a
2x2 block). LAPACK has no batched form and neither has NumPy: SciPy's wrappers run matrix
by matrix (Note [Batched LAPACK]). torch defines no derivatives for them; nor does this.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ...backends import register_meta
from ...registry import TensorMeta, composite, op
from ..shape.triangular import exact_out_dtype
from .cholesky import linalg_check_errors
from .lapack import (check_floating, check_kernel_dtype, check_square, column_major_strides,
                     lapack, raise_for_info)
from .triangular import solve_shapes


def _routine(name: str, A: np.ndarray, hermitian: bool) -> str:
    return ("he" if hermitian and A.dtype.kind == "c" else "sy") + name


def _ldl_meta(self, hermitian=False, check_errors=False, out=None, python_words=False):
    name = "torch.linalg.ldl_factor_ex"
    check_square(name, self, python_words=python_words)
    check_floating(name, self, allow_low_precision=True, python_words=python_words)
    check_kernel_dtype("ldl_factor_kernel_cpu", self, python_words)
    if out is not None:
        exact_out_dtype(self._dtype, out[0])
    batch = self._size[:-2]
    return (TensorMeta(self._size, self._dtype, column_major_strides(self._size)),
            TensorMeta(self._size[:-1], dtypes.int32), TensorMeta(batch, dtypes.int32))


@op("linalg_ldl_factor_ex(Tensor self, *, bool hermitian=False, bool check_errors=False) -> "
    "(Tensor LD, Tensor pivots, Tensor info)", meta=_ldl_meta, out=True,
    python_module="linalg")
def linalg_ldl_factor_ex(self, hermitian, check_errors, *, out):
    """The LDL factorization ``A = L D L^T`` (``L D L^H`` if `hermitian`) with
    Bunch-Kaufman pivoting, in LAPACK's compact storage, and its code per matrix.

    Returns:
        (Tensor, Tensor, Tensor): ``(LD, pivots, info)``.

    Example::

        >>> torch.linalg.ldl_factor_ex(torch.tensor([[4., 2.], [2., 3.]])).LD
        tensor([[4.0000, 0.0000],
                [0.5000, 2.0000]])
    """
    LD, pivots, info = out
    info.fill(0)
    if self.size == 0:
        return
    factor = lapack(_routine("trf", self, hermitian), self)
    for index in np.ndindex(*self.shape[:-2]):
        found, found_pivots, code = factor(self[index], lower=1)[:3]
        LD[index] = np.tril(found)
        pivots[index] = found_pivots
        info[index] = code
    if check_errors:
        raise_for_info(info, "torch.linalg.ldl_factor_ex", self.ndim == 2)


@register_meta(linalg_ldl_factor_ex)
def _ldl_meta_key(self, hermitian=False, check_errors=False, out=None):
    return _ldl_meta(self, hermitian, check_errors, out, python_words=True)


@composite("linalg_ldl_factor(Tensor self, *, bool hermitian=False) -> (Tensor LD, "
           "Tensor pivots)", python_module="linalg")
def linalg_ldl_factor(self, hermitian=False):
    """The LDL factorization (see `torch.linalg.ldl_factor_ex`); an error for a singular
    D, as torch's.

    Example::

        >>> torch.linalg.ldl_factor(torch.tensor([[4., 2.], [2., 3.]])).pivots
        tensor([1, 2], dtype=torch.int32)
    """
    LD, pivots, info = linalg_ldl_factor_ex.call(self, hermitian, False)
    linalg_check_errors.call(info, "torch.linalg.ldl_factor", self.dim() == 2)
    return LD, pivots


def _ldl_solve_meta(LD, pivots, B, hermitian=False, out=None):
    name = "torch.linalg.ldl_solve"
    check_square(name, LD)
    batch, matrix = solve_shapes("torch.linalg.ldl_solve", LD, B, True)
    exact_out_dtype(LD._dtype, out)
    shape = batch + matrix
    return TensorMeta(shape, LD._dtype, column_major_strides(shape))


@op("linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False) -> Tensor",
    meta=_ldl_solve_meta, out=True, python_module="linalg")
def linalg_ldl_solve(LD, pivots, B, hermitian, *, out):
    """The solution X of ``A X = B`` from A's LDL factorization.

    Example::

        >>> LD, pivots = torch.linalg.ldl_factor(torch.tensor([[4., 2.], [2., 3.]]))
        >>> torch.linalg.ldl_solve(LD, pivots, torch.tensor([[6.], [5.]]))
        tensor([[1.],
                [1.]])
    """
    if out.size == 0:
        return
    batch = out.shape[:-2]
    LD = np.broadcast_to(LD, batch + LD.shape[-2:])
    pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:])
    B = np.broadcast_to(B, out.shape).astype(LD.dtype)
    solve = lapack(_routine("trs", LD, hermitian), LD)
    for index in np.ndindex(*batch):
        out[index] = solve(LD[index], pivots[index], B[index], lower=1)[0]
