"""Inverses and general solves: linalg_inv_ex, linalg_inv, inverse, linalg_solve_ex,
_linalg_solve_ex, linalg_solve.

NumPy's `inv` and `solve` take the batch in one C loop; a batch holding a singular
matrix goes matrix by matrix through getrf and getrs, which, as torch's kernels do,
divide by the zero pivot and report its position in `info` (Note [Batched LAPACK]).
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ... import functions as at
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...backends import register_meta
from ...registry import TensorMeta, composite, op
from ..shape.triangular import exact_out_dtype
from .cholesky import linalg_check_errors
from .lapack import (batch_shape, check_floating, check_same_dtype, check_square,
                     column_major_strides, contiguous_strides, lapack, per_matrix,
                     raise_for_info)
from .lu import lu_factor_into


def lu_solve_each(A: np.ndarray, B: np.ndarray, out: np.ndarray, info: np.ndarray) -> None:
    """``out = A^{-1} B`` for a batch NumPy refused: A's batch factored (getrf's code per
    matrix into `info`, A's batch shape), then getrs matrix by matrix over the broadcast
    batch, which gives a singular matrix's infinities as torch's kernels do."""
    n = A.shape[-1]
    factors = np.empty(A.shape, A.dtype)
    pivots = np.empty(A.shape[:-1], np.int32)
    lu_factor_into(A, factors, pivots, info)
    factors = np.broadcast_to(factors, out.shape[:-2] + (n, n))
    pivots = np.broadcast_to(pivots, out.shape[:-2] + (n,))
    getrs = lapack("getrs", A)
    B = np.broadcast_to(B, out.shape)
    for index in np.ndindex(*out.shape[:-2]):
        out[index] = getrs(factors[index], pivots[index] - 1, B[index])[0]


# ----------------------------------------------------------------------------------
# linalg_inv_ex, linalg_inv, inverse
# ----------------------------------------------------------------------------------
def _inv_meta(A, check_errors=False, out=None, python_words=False):
    name = "linalg.inv_ex" if python_words else "linalg.inv"
    check_square(name, A, python_words=python_words)
    check_floating(name, A, python_words=python_words)
    if out is not None:
        exact_out_dtype(A._dtype, out[0])
        exact_out_dtype(dtypes.int32, out[1])
    return (TensorMeta(A._size, A._dtype, column_major_strides(A._size)),
            TensorMeta(A._size[:-2], dtypes.int32))


@op("linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)",
    meta=_inv_meta, out=True, out_overload="inverse", python_module="linalg",
    grad={"A": "-inverse.mH.matmul(grad.matmul(inverse.mH))"})
def linalg_inv_ex(A, check_errors, *, out):
    """The inverse of square matrices, and LAPACK's code for each (k > 0: the matrix is
    singular, its k-th pivot zero; the inverse then holds infinities or NaNs).

    Args:
        A (Tensor): ``(*, n, n)``.
        check_errors (bool): raise LinAlgError for a singular matrix.

    Returns:
        (Tensor, Tensor): ``(inverse, info)``.

    Example::

        >>> torch.linalg.inv_ex(torch.tensor([[2., 0.], [0., 4.]]))
        torch.return_types.linalg_inv_ex(
        inverse=tensor([[0.5000, 0.0000],
                [0.0000, 0.2500]]),
        info=tensor(0, dtype=torch.int32))
    """
    inverse, info = out
    info.fill(0)
    if A.size:
        try:
            np.copyto(inverse, np.linalg.inv(A))
        except np.linalg.LinAlgError:
            identity = np.broadcast_to(np.eye(A.shape[-1], dtype=A.dtype), A.shape)
            lu_solve_each(A, identity, inverse, info)
    if check_errors:
        raise_for_info(info, "linalg.inv_ex", A.ndim == 2)


@register_meta(linalg_inv_ex)
def _inv_meta_key(A, check_errors=False, out=None):
    return _inv_meta(A, check_errors, out, python_words=True)


def checked_inverse(A, api_name: str, out=None):
    if out is None:
        inverse, info = linalg_inv_ex.call(A, False)
    else:
        info = at.empty((0,), dtype=dtypes.int32)
        inverse, info = ops.aten.linalg_inv_ex.inverse.call(A, False, out, info)
    linalg_check_errors.call(info, api_name, A.dim() == 2)
    return inverse


@composite("linalg_inv(Tensor A) -> Tensor", out=True, python_module="linalg")
def linalg_inv(A, out=None):
    """The inverse of square matrices; LinAlgError if one is singular.

    Example::

        >>> torch.linalg.inv(torch.tensor([[2., 0.], [0., 4.]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.2500]])
    """
    return checked_inverse(A, "linalg.inv", out)


@composite("inverse(Tensor self) -> Tensor", out=True, method=True)
def inverse(self, out=None):
    """The inverse of square matrices: `torch.linalg.inv`.

    Example::

        >>> torch.inverse(torch.tensor([[2., 0.], [0., 4.]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.2500]])
    """
    return checked_inverse(self, "linalg.inv", out)


# ----------------------------------------------------------------------------------
# linalg_solve_ex, _linalg_solve_ex, linalg_solve
# ----------------------------------------------------------------------------------
def is_vector_rhs(A, B) -> bool:
    """Whether B is a vector (or a batch of vectors shaped as A's rows), as torch reads it."""
    return B.dim() == 1 or (B.dim() == A.dim() - 1 and B._size == A._size[:-1])


def _solve_result(A, B, left: bool, python_words: bool = False):
    """The shape and strides of X, after torch's checks."""
    name = "linalg.solve"
    check_square(name, A, python_words=python_words)
    check_floating(name, A, python_words=python_words)
    check_same_dtype(name, A, B, python_words=python_words)
    vector = is_vector_rhs(A, B)
    matrix = B._size + (1,) if vector else B._size
    n = A._size[-1]
    rows, cols = matrix[-2:]
    if (rows if left else cols) != n:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation {equation} "
                           f"({n}x{n} and {rows}x{cols})")
    batch = batch_shape(matrix[:-2], A._size[:-2], python_words)
    if vector and not left:
        raise RuntimeError(f"{name}: Vector broadcasting of the left hand side is not supported "
                           f"for left=False. In this case linalg.solve is equivalent to B / "
                           f"A.squeeze(-1)")
    shape = batch + (matrix[-2:-1] if vector else matrix[-2:])
    strides = column_major_strides(shape) if left else contiguous_strides(shape)
    return TensorMeta(shape, A._dtype, strides)


def _solve_ex_meta(A, B, left=True, check_errors=False, out=None, python_words=False):
    result = _solve_result(A, B, left, python_words)
    if out is not None:
        exact_out_dtype(A._dtype, out[0])
        exact_out_dtype(dtypes.int32, out[-1])
    return result, TensorMeta(A._size[:-2], dtypes.int32)     # a code per matrix of A


def solve_into(A: np.ndarray, B: np.ndarray, left: bool, vector: bool, out: np.ndarray,
               info: np.ndarray) -> None:
    """``out = A^{-1} B`` (``B A^{-1}`` unless `left`), codes per matrix into `info`."""
    info.fill(0)
    if out.size == 0:
        return
    if vector:
        B, out = B[..., None], out[..., None]
    if not left:                         # X A = B  <=>  A^T X^T = B^T
        A, B, out = (np.swapaxes(a, -1, -2) for a in (A, B, out))
    try:
        np.copyto(out, np.linalg.solve(A, B))
    except np.linalg.LinAlgError:
        lu_solve_each(A, B, out, info)


@derivative_helper
def solve_backward(grad, A, B, result, left: bool, grad_input_mask):
    """``X = A^{-1} B``: ``gB = A^{-H} gX``, ``gA = -gB X^H`` (``X = B A^{-1}``:
    ``gB = gX A^{-H}``, ``gA = -X^H gB``); a vector B's gradients as vectors."""
    vector = is_vector_rhs(A, B)
    if vector:
        grad, result = grad.unsqueeze(-1), result.unsqueeze(-1)
    gB = linalg_solve.call(A.mH, grad, left)
    gA = None
    if grad_input_mask[0]:
        gA = -gB.matmul(result.mH) if left else -result.mH.matmul(gB)
    return gA, gB.squeeze(-1) if vector else gB


@op("linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
    "(Tensor result, Tensor info)", meta=_solve_ex_meta, out=True, python_module="linalg",
    grad={"A, B": "solve_backward(grad, A, B, result0, left, grad_input_mask)"})
def linalg_solve_ex(A, B, left, check_errors, *, out):
    """The solution X of ``A X = B`` (``X A = B`` when `left` is False) for square `A`,
    and LAPACK's code per matrix (k > 0: A is singular, X holds infinities or NaNs).
    B may be a vector, or a batch of vectors shaped as A's rows; batch dims broadcast.

    Returns:
        (Tensor, Tensor): ``(result, info)``.

    Example::

        >>> torch.linalg.solve_ex(torch.tensor([[2., 0.], [0., 4.]]), torch.tensor([2., 2.]))
        torch.return_types.linalg_solve_ex(
        result=tensor([1.0000, 0.5000]),
        info=tensor(0, dtype=torch.int32))
    """
    result, info = out
    solve_into(A, B, left, _vector_array(A, B), result, info)
    if check_errors:
        raise_for_info(info, "torch.linalg.solve_ex", A.ndim == 2)


@register_meta(linalg_solve_ex)
def _solve_ex_meta_key(A, B, left=True, check_errors=False, out=None):
    return _solve_ex_meta(A, B, left, check_errors, out, python_words=True)


def _vector_array(A: np.ndarray, B: np.ndarray) -> bool:
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and B.shape == A.shape[:-1])


def _solve_ex_lu_meta(A, B, left=True, check_errors=False, out=None, python_words=False):
    result = _solve_result(A, B, left, python_words)
    if out is not None:
        exact_out_dtype(A._dtype, out[0])
    batch = A._size[:-2]
    return (result, TensorMeta(A._size, A._dtype, column_major_strides(A._size)),
            TensorMeta(batch + A._size[-1:], dtypes.int32), TensorMeta(batch, dtypes.int32))


@op("_linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
    "(Tensor result, Tensor LU, Tensor pivots, Tensor info)", meta=_solve_ex_lu_meta,
    out=True, out_overload="result", function=False,
    grad={"A, B": "solve_backward(grad, A, B, result0, left, grad_input_mask)",
          "output_differentiability": (True, False, False, False)})
def linalg_solve_ex_lu(A, B, left, check_errors, *, out):
    """linalg_solve_ex, also returning the LU factorization of A it solved with."""
    result, LU, pivots, info = out
    solve_into(A, B, left, _vector_array(A, B), result, info)
    lu_factor_into(A, LU, pivots)
    if check_errors:
        raise_for_info(info, "torch.linalg.solve_ex", A.ndim == 2)


@register_meta(linalg_solve_ex_lu)
def _solve_ex_lu_meta_key(A, B, left=True, check_errors=False, out=None):
    return _solve_ex_lu_meta(A, B, left, check_errors, out, python_words=True)


@composite("linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", out=True,
           python_module="linalg")
def linalg_solve(A, B, left=True, out=None):
    """The solution X of ``A X = B`` (``X A = B`` when `left` is False) for square `A`;
    LinAlgError if A is singular. B may be a vector; batch dims broadcast.

    Example::

        >>> torch.linalg.solve(torch.tensor([[2., 0.], [0., 4.]]), torch.tensor([2., 2.]))
        tensor([1.0000, 0.5000])
    """
    if out is None:
        result, info = linalg_solve_ex.call(A, B, left, False)
    else:
        info = at.empty((0,), dtype=dtypes.int32)
        result, info = ops.aten.linalg_solve_ex.out.call(A, B, left, False, out, info)
    linalg_check_errors.call(info, "torch.linalg.solve", A.dim() == 2)
    return result
