"""LU operators: linalg_lu_factor_ex, linalg_lu_factor, _lu_with_info, linalg_lu,
lu_unpack, linalg_lu_solve, lu_solve. The storage and kernels are `lu.py`'s.

The derivatives are torch's (FunctionsManual's linalg_lu_backward and friends): A's
gradient from L's and U's, through two triangular solves; tall and wide matrices carry
the rows (columns) of L (U) past the square part.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ... import functions as at
from ...backends import register_meta
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...registry import TensorMeta, composite, op
from ..shape.shape import _warn_once
from ..shape.triangular import exact_out_dtype
from .cholesky import linalg_check_errors
from .lapack import (check_kernel_dtype, check_square, column_major_strides, contiguous_strides,
                     raise_for_info, scipy_linalg, written_outs)
from .lu import lu_factor_into, lu_solve_into, unpack_into
from .triangular import linalg_solve_triangular, solve_shapes


def _check_rank(name: str, A, python_words: bool = False) -> None:
    if A.dim() < 2:
        size = f"torch.Size({list(A._size)})" if python_words else f"{list(A._size)}"
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{size} instead")


def _check_pivot(pivot: bool, python_words: bool = False) -> None:
    """The CPU kernel's refusal (torch's meta functions accept pivot=False)."""
    if not pivot and not python_words:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


# ----------------------------------------------------------------------------------
# The backward formulas
# ----------------------------------------------------------------------------------
@derivative_helper
def linalg_lu_backward(gL, gU, P, L, U, pivot: bool):
    """``A = P L U``: square ``gA = P L^{-H} (L^H gL o 1_L + gU U^H o 1_U) U^{-H}`` (1_L
    strictly lower, 1_U upper triangular); tall and wide matrices add the rows of gL
    (columns of gU) outside the square part."""
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        gA = L.mH.matmul(gL).tril(-1) + gU.matmul(U.mH).triu()
        gA = linalg_solve_triangular.call(U.mH, gA, False, False, False)
        gA = linalg_solve_triangular.call(L.mH, gA, True, True, True)
    elif m < n:
        U1, gU1, gU2 = U[..., :k], gU[..., :k], gU[..., k:]
        gA = (L.mH.matmul(gL) - gU.triu().matmul(U.mH)).tril(-1)
        gA = linalg_solve_triangular.call(U1.mH, gA, False, False, False)
        gA = at.cat([gA + gU1.triu(), gU2], -1)
        gA = linalg_solve_triangular.call(L.mH, gA, True, True, True)
    else:
        L1, gL1, gL2 = L[..., :k, :], gL[..., :k, :], gL[..., k:, :]
        gA = (gU.matmul(U.mH) - L.mH.matmul(gL.tril(-1))).triu()
        gA = linalg_solve_triangular.call(L1.mH, gA, True, True, True)
        gA = at.cat([gA + gL1.tril(-1), gL2], -2)
        gA = linalg_solve_triangular.call(U.mH, gA, False, False, False)
    return P.matmul(gA) if pivot else gA


@derivative_helper
def lu_factor_ex_backward(grad, LU, pivots, pivot: bool):
    """getrf's storage holds L below the diagonal and U on and above it."""
    P, L, U = lu_unpack.call(LU, pivots, True, pivot)
    k = min(LU.shape[-2], LU.shape[-1])
    return linalg_lu_backward(grad[..., :k], grad[..., :k, :], P, L, U, pivot)


@derivative_helper
def lu_unpack_backward(gL, gU, m: int, n: int):
    """L's strict lower triangle and U's upper one, put back in LU's m x n storage."""
    k = min(m, n)
    if m == n:
        return gL.tril(-1) + gU.triu()
    if m < n:
        padding = at.zeros(tuple(gL.shape[:-1]) + (n - k,), dtype=gL.dtype)
        return at.cat([gL.tril(-1), padding], -1) + gU.triu()
    padding = at.zeros(tuple(gU.shape[:-2]) + (m - k, n), dtype=gU.dtype)
    return at.cat([gU.triu(), padding], -2) + gL.tril(-1)


@derivative_helper
def lu_solve_LU_backward(gX, LU, pivots, X, left: bool, adjoint: bool):
    """The factorization's gradient of ``op(A) X = B`` (the adjoint of torch's tangent
    of linalg_lu_solve, with gR the gradient of the product L U)."""
    P, L, U = lu_unpack.call(LU, pivots, True, left == adjoint)
    if left != adjoint:
        product = (gX if left else gX.mH).matmul(X.mH if left else X)
        gR = linalg_solve_triangular.call(U.mH, -product, False, True, False)
        gL = linalg_solve_triangular.call(L.mH, gR.matmul(U.mH), True, True, True).tril(-1)
        return gL + gR.triu()
    gR = -P.mT.matmul(X if left else X.mH).matmul(gX.mH if left else gX).matmul(P)
    gR = linalg_solve_triangular.call(L.mH, gR, True, False, True)
    gU = linalg_solve_triangular.call(U.mH, L.mH.matmul(gR), False, False, False).triu()
    return gR.tril(-1) + gU


# ----------------------------------------------------------------------------------
# linalg_lu_factor_ex, linalg_lu_factor, _lu_with_info
# ----------------------------------------------------------------------------------
def _lu_factor_meta(A, pivot=True, check_errors=False, out=None, python_words=False):
    _check_rank("torch.lu_factor", A, python_words)
    _check_pivot(pivot, python_words)
    check_kernel_dtype("lu_cpu", A, python_words)
    if out is not None:
        exact_out_dtype(A._dtype, out[0])
    batch, (m, n) = A._size[:-2], A._size[-2:]
    return (TensorMeta(A._size, A._dtype, column_major_strides(A._size)),
            TensorMeta(batch + (min(m, n),), dtypes.int32), TensorMeta(batch, dtypes.int32))


@op("linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> "
    "(Tensor LU, Tensor pivots, Tensor info)", meta=_lu_factor_meta, out=True,
    python_module="linalg", grad={"A": "lu_factor_ex_backward(grads[0], LU, pivots, pivot)"})
def linalg_lu_factor_ex(A, pivot, check_errors, *, out):
    """The LU factorization with partial pivoting, in LAPACK's compact storage, and its
    code per matrix (k > 0: ``U[k-1, k-1]`` is zero).

    Returns:
        (Tensor, Tensor, Tensor): ``(LU, pivots, info)``; pivots are 1-based row swaps.

    Example::

        >>> torch.linalg.lu_factor_ex(torch.tensor([[1., 2.], [3., 4.]])).pivots
        tensor([2, 2], dtype=torch.int32)
    """
    LU, pivots, info = out
    lu_factor_into(A, LU, pivots, info)
    if check_errors:
        raise_for_info(info, "torch.linalg.lu_factor_ex", A.ndim == 2)


@register_meta(linalg_lu_factor_ex)
def _lu_factor_meta_key(A, pivot=True, check_errors=False, out=None):
    return _lu_factor_meta(A, pivot, check_errors, out, python_words=True)


@composite("linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)",
           python_module="linalg")
def linalg_lu_factor(A, pivot=True):
    """The LU factorization with partial pivoting (LAPACK's storage and 1-based pivots);
    LinAlgError for a singular matrix, whose U would divide by zero in lu_solve.

    Example::

        >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]]))
        >>> LU
        tensor([[3.0000, 4.0000],
                [0.3333, 0.6667]])
    """
    LU, pivots, info = linalg_lu_factor_ex.call(A, pivot, False)
    linalg_check_errors.call(info, "torch.linalg.lu_factor", A.dim() == 2)
    return LU, pivots


@composite("_lu_with_info(Tensor self, bool pivot=True, bool check_errors=True) -> "
           "(Tensor LU, Tensor pivots, Tensor info)", function=True)
def lu_with_info(self, pivot=True, check_errors=True):
    """torch.lu's operator: linalg_lu_factor_ex, under its deprecation warning."""
    _warn_once(_LU_WARNING)
    return linalg_lu_factor_ex.call(self, pivot, check_errors)


_LU_WARNING = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)")


# ----------------------------------------------------------------------------------
# linalg_lu, lu_unpack
# ----------------------------------------------------------------------------------
def _plu_meta(batch: tuple, m: int, n: int, dtype, data: bool = True, pivots: bool = True):
    k = min(m, n)
    empty = TensorMeta((0,), dtype)
    shapes = (batch + (m, m), batch + (m, k), batch + (k, n))
    P, L, U = (TensorMeta(shape, dtype, contiguous_strides(shape)) for shape in shapes)
    return (P if pivots else empty, L if data else empty, U if data else empty)


def _linalg_lu_meta(A, pivot=True, out=None, python_words=False):
    _check_rank("linalg.lu", A, python_words)
    _check_pivot(pivot, python_words)
    check_kernel_dtype("lu_cpu", A, python_words)
    return _plu_meta(A._size[:-2], *A._size[-2:], A._dtype)


@op("linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)",
    meta=_linalg_lu_meta, out=True, python_module="linalg",
    grad={"A": "linalg_lu_backward(grads[1], grads[2], P, L, U, pivot)",
          "output_differentiability": (False, True, True)})
def linalg_lu(A, pivot, *, out):
    """The LU factorization with partial pivoting, unpacked: ``A = P L U`` with P a
    permutation, L unit lower triangular (m x k), U upper triangular (k x n).

    Example::

        >>> torch.linalg.lu(torch.tensor([[1., 2.], [3., 4.]])).P
        tensor([[0., 1.],
                [1., 0.]])
    """
    P, L, U = out
    if A.size == 0:
        P[...] = np.eye(P.shape[-1])
        L[...] = np.eye(*L.shape[-2:])
        U[...] = 0
        return
    found = scipy_linalg().lu(A, check_finite=False)
    for written, value in zip(out, found):
        np.copyto(written, value)


@register_meta(linalg_lu)
def _linalg_lu_meta_key(A, pivot=True, out=None):
    return _linalg_lu_meta(A, pivot, out, python_words=True)


def _lu_unpack_meta(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, out=None):
    _check_rank("torch.lu_unpack", LU_data)
    if LU_pivots._dtype is not dtypes.int32:
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                           "torch.int32 dtype.\nNote: this function is intended to be used with "
                           "the output produced by torch.linalg.lu_factor")
    return _plu_meta(LU_data._size[:-2], *LU_data._size[-2:], LU_data._dtype, unpack_data,
                     unpack_pivots)


@op("lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, "
    "bool unpack_pivots=True) -> (Tensor P, Tensor L, Tensor U)", meta=_lu_unpack_meta,
    out=True, grad={"LU_data": "lu_unpack_backward(grads[1], grads[2], LU_data_sym_sizes[-2], "
                               "LU_data_sym_sizes[-1])",
                    "LU_pivots": "non_differentiable",
                    "output_differentiability": (False, True, True)})
def lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots, *, out):
    """P, L and U (``A = P L U``) from linalg.lu_factor's compact storage; P is skipped
    (empty) without `unpack_pivots`, L and U without `unpack_data`.

    Example::

        >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]]))
        >>> torch.lu_unpack(LU, pivots).L
        tensor([[1.0000, 0.0000],
                [0.3333, 1.0000]])
    """
    P, L, U = out
    unpack_into(LU_data, LU_pivots, P if unpack_pivots else None,
                L if unpack_data else None, U if unpack_data else None)


# ----------------------------------------------------------------------------------
# linalg_lu_solve, lu_solve
# ----------------------------------------------------------------------------------
def _lu_solve_meta(LU, pivots, B, left=True, adjoint=False, out=None):
    name = "linalg.lu_solve"
    if LU.dim() < 2:
        raise RuntimeError(f"torch.linalg.lu_solve: Expected tensor with 2 or more dimensions. "
                           f"Got size: {list(LU._size)} instead")
    check_square("torch.linalg.lu_solve", LU)
    if pivots._dtype is not dtypes.int32:
        raise RuntimeError(f"{name}: pivots should be a Tensor of scalar type torch.int32")
    batch, matrix = solve_shapes(name, LU, B, left)
    exact_out_dtype(LU._dtype, out)
    shape = batch + matrix
    strides = column_major_strides(shape) if left else contiguous_strides(shape)
    return TensorMeta(shape, LU._dtype, strides)


@op("linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, "
    "bool adjoint=False) -> Tensor", meta=_lu_solve_meta, out=True, python_module="linalg",
    grad={"LU": "lu_solve_LU_backward(grad, LU, pivots, result, left, adjoint)",
          "pivots": "non_differentiable",
          "B": "linalg_lu_solve(LU, pivots, grad, left=left, adjoint=not adjoint)"})
def linalg_lu_solve(LU, pivots, B, left, adjoint, *, out):
    """The solution X of ``A X = B`` from A's LU factorization (`adjoint`: of
    ``A^H X = B``; `left` False: of ``X A = B``).

    Example::

        >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[2., 0.], [0., 4.]]))
        >>> torch.linalg.lu_solve(LU, pivots, torch.tensor([[2.], [2.]]))
        tensor([[1.0000],
                [0.5000]])
    """
    if out.size:
        lu_solve_into(LU, pivots, B, left, adjoint, out)


_LU_SOLVE_WARNING = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
    "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
    "X = torch.linalg.lu_solve(LU, pivots, B)")


@composite("lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor", method=True,
           out=True)
def lu_solve(self, LU_data, LU_pivots, out=None):
    """The solution of ``A X = B`` (`input` is B) from A's LU factorization: deprecated,
    `torch.linalg.lu_solve` (arguments reversed) is its successor.

    Example::

        >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[2., 0.], [0., 4.]]))
        >>> torch.lu_solve(torch.tensor([[2.], [2.]]), LU, pivots)
        tensor([[1.0000],
                [0.5000]])
    """
    _warn_once(_LU_SOLVE_WARNING)
    return written_outs((linalg_lu_solve.call(LU_data, LU_pivots, self, True, False),), (out,),
                        ops.aten.lu_solve.out)[0]


def lu_function(A, pivot: bool = True, get_infos: bool = False, out=None):
    """torch.lu: the LU factorization of A (deprecated: `torch.linalg.lu_factor`, or
    `lu_factor_ex` for the codes, are its successors).

    Args:
        A (Tensor): ``(*, m, n)``.
        pivot (bool): partial pivoting (the only kind on the CPU).
        get_infos (bool): also return the codes, rather than raising for a singular A.
        out (tuple, optional): tensors to write ``(LU, pivots[, info])`` into.

    Returns:
        tuple: ``(LU, pivots)``, or ``(LU, pivots, info)`` with `get_infos`.

    Example::

        >>> torch.lu(torch.tensor([[1., 2.], [3., 4.]]))[1]
        tensor([2, 2], dtype=torch.int32)
    """
    found = lu_with_info.call(A, pivot, not get_infos)
    found = found if get_infos else found[:2]
    if out is None:
        return tuple(found)
    for written, value in zip(out, found):
        written.resize_(value.shape).copy_(value)
    return tuple(out)


def lu_method(self, pivot: bool = True, get_infos: bool = False):
    """`Tensor.lu`: `torch.lu` of this tensor."""
    return lu_function(self, pivot, get_infos)
