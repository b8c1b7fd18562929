"""Triangular solves: linalg_solve_triangular and the older triangular_solve.

A triangular system needs no factorization, only substitution. NumPy has no batched
triangular solver, so the kernel hands the batch to `np.linalg.solve` with the other
triangle zeroed (LU of a triangular matrix is the matrix itself, up to pivoting: one C
loop over the batch), and substitutes matrix by matrix with BLAS's trsm only for a
batch holding a singular matrix, where torch's trsm divides by the zero pivot and gives
infinities and NaNs rather than an error (Note [Batched LAPACK]).
"""
from __future__ import annotations

import numpy as np

from ....c10.dtype import scalar_type_name
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...registry import TensorMeta, op
from ..shape.shape import _warn_once
from .lapack import (batch_shape, check_kernel_dtype, check_matrix, check_same_dtype,
                     check_square, column_major_strides, scipy_linalg)


def solve_shapes(name: str, A, B, left: bool, python_words: bool = False) -> tuple:
    """The batch and matrix shape of X in ``A X = B`` (``X A = B`` unless `left`)."""
    n = A._size[-1]
    rows, cols = B._size[-2:]
    if (rows if left else cols) != n:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation {equation} "
                           f"({n}x{n} and {rows}x{cols})")
    return batch_shape(B._size[:-2], A._size[:-2], python_words), (rows, cols)


def _solve_triangular_meta(self, B, upper, left=True, unitriangular=False, out=None,
                           python_words=False):
    name = "linalg.solve_triangular"
    check_matrix(name, B, "A" if python_words else "B")     # sic, torch's meta names B "A"
    check_square(name, self, python_words=python_words)
    batch, matrix = solve_shapes(name, self, B, left, python_words)
    if out is not None and out._dtype is not self._dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(self._dtype)} but found "
                           f"{scalar_type_name(out._dtype)}")
    check_kernel_dtype("triangular_solve_cpu", self, python_words)
    shape = batch + matrix
    return TensorMeta(shape, self._dtype, column_major_strides(shape))


def triangle(A: np.ndarray, upper: bool, unitriangular: bool) -> np.ndarray:
    """The triangle of `A` a triangular solve reads (unit diagonal if `unitriangular`)."""
    T = np.triu(A) if upper else np.tril(A)
    if unitriangular:
        diagonal = np.einsum("...ii->...i", T)
        diagonal[...] = 1
    return T


def solve_triangular_into(A: np.ndarray, B: np.ndarray, upper: bool, left: bool,
                          unitriangular: bool, out: np.ndarray) -> None:
    """``out = A^{-1} B`` (``B A^{-1}`` unless `left`) for triangular `A`."""
    T = triangle(A, upper, unitriangular).astype(out.dtype, copy=False)
    if not left:                       # X A = B  <=>  A^T X^T = B^T
        T, B, out = np.swapaxes(T, -1, -2), np.swapaxes(B, -1, -2), np.swapaxes(out, -1, -2)
        upper = not upper
    B = B.astype(out.dtype, copy=False)
    if out.size == 0:
        return
    try:
        np.copyto(out, np.linalg.solve(T, np.broadcast_to(B, out.shape)))
    except np.linalg.LinAlgError:     # a zero pivot: trsm's infinities, matrix by matrix
        T = np.broadcast_to(T, out.shape[:-2] + T.shape[-2:])
        B = np.broadcast_to(B, out.shape)
        trsm = scipy_linalg().get_blas_funcs("trsm", (T, B))
        for index in np.ndindex(*out.shape[:-2]):
            out[index] = trsm(1.0, T[index], B[index], lower=not upper)


@derivative_helper
def solve_triangular_backward(grad, self, result, upper: bool, left: bool,
                              unitriangular: bool, grad_input_mask):
    """``X = A^{-1} B``: ``gB = A^{-H} gX`` and ``gA = -gB X^H`` (``X = B A^{-1}``:
    ``gB = gX A^{-H}``, ``gA = -X^H gB``), gA kept to the triangle A's values come from."""
    gB = linalg_solve_triangular(self.mH, grad, not upper, left, unitriangular)
    gA = None
    if grad_input_mask[0]:
        gA = -gB.matmul(result.mH) if left else -result.mH.matmul(gB)
        offset = 1 if unitriangular else 0
        gA = gA.triu(offset) if upper else gA.tril(-offset)
    return gA, gB


@op("linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, "
    "bool unitriangular=False) -> Tensor", meta=_solve_triangular_meta, out=True,
    python_module="linalg",
    grad={"self, B": "solve_triangular_backward(grad, self, result, upper, left, "
                     "unitriangular, grad_input_mask)"})
def linalg_solve_triangular(self, B, upper, left, unitriangular, *, out):
    """The solution X of ``A X = B`` (``X A = B`` when `left` is False) for a triangular
    `A` (its other triangle is not read), batch dims broadcast.

    Args:
        A (Tensor): ``(*, n, n)``, upper or lower triangular.
        B (Tensor): ``(*, n, k)`` (``(*, k, n)`` when `left` is False).
        upper (bool): whether `A` is upper (else lower) triangular.
        left (bool): solve ``A X = B`` (True) or ``X A = B``.
        unitriangular (bool): take `A`'s diagonal as ones.

    Returns:
        Tensor: X, of `A`'s dtype.

    Example::

        >>> A = torch.tensor([[2., 1.], [0., 4.]])
        >>> torch.linalg.solve_triangular(A, torch.tensor([[3.], [4.]]), upper=True)
        tensor([[1.],
                [1.]])
    """
    solve_triangular_into(self, B, upper, left, unitriangular, out)


@register_meta(linalg_solve_triangular)
def _solve_triangular_meta_key(self, B, upper, left=True, unitriangular=False, out=None):
    return _solve_triangular_meta(self, B, upper, left, unitriangular, out, python_words=True)


# ----------------------------------------------------------------------------------
# triangular_solve (torch's older form: B first, A's copy returned)
# ----------------------------------------------------------------------------------
_TRIANGULAR_SOLVE_WARNING = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will "
    "be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B).")


def _triangular_solve_meta(self, A, upper=True, transpose=False, unitriangular=False,
                           out=None, python_words=False):
    for arg, t in (("b", self), ("A", A)):
        if t.dim() < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {arg} to have at least 2 "
                               f"dimensions, but it has {t.dim()} dimensions instead")
    check_same_dtype("", self, A, "b", "A", python_words, ".")
    n, cols = A._size[-2:]
    if n != cols:
        raise RuntimeError(f"A must be batches of square matrices, but they are {n} by {cols} "
                           f"matrices")
    if self._size[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is "
                           f"{n} by {n} but each b matrix is {self._size[-2]} by "
                           f"{self._size[-1]}")
    batch = batch_shape(self._size[:-2], A._size[:-2], python_words)
    matrix = self._size[-2:]
    check_kernel_dtype("triangular_solve_cpu", A, python_words)
    shape = batch + matrix
    square = batch + A._size[-2:]
    return (TensorMeta(shape, self._dtype, column_major_strides(shape)),
            TensorMeta(square, A._dtype, column_major_strides(square)))


@derivative_helper
def triangular_solve_backward(grad_solution, grad_coefficient, self, A, solution,
                              upper: bool, transpose: bool, unitriangular: bool,
                              grad_input_mask):
    """The solve's gradients (`linalg_solve_triangular`'s, with ``op(A)``); A's also
    takes the copy's gradient, whole."""
    coefficient = A.mT if transpose else A
    gA, gB = solve_triangular_backward(grad_solution, coefficient, solution,
                                       upper != transpose, True, unitriangular,
                                       (True, True))
    gA = gA.mT if transpose else gA
    return gB, gA + grad_coefficient


@op("triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, "
    "bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)",
    meta=_triangular_solve_meta, out=True, method=True, out_overload="X", out_names=("X", "M"),
    grad={"self, A": "triangular_solve_backward(grads[0], grads[1], self, A, solution, "
                     "upper, transpose, unitriangular, grad_input_mask)"})
def triangular_solve(self, A, upper, transpose, unitriangular, *, out):
    """The solution of ``op(A) X = B`` for a triangular `A` (`input` is B), and a copy of A.

    Deprecated: `torch.linalg.solve_triangular` (arguments reversed) is its successor.

    Args:
        input (Tensor): B, ``(*, n, k)``.
        A (Tensor): ``(*, n, n)``, triangular.
        upper (bool): A is upper (else lower) triangular.
        transpose (bool): solve with ``A^T``.
        unitriangular (bool): take A's diagonal as ones.

    Returns:
        (Tensor, Tensor): the solution and the copy of A.

    Example::

        >>> torch.triangular_solve(torch.tensor([[3.], [4.]]),
        ...                        torch.tensor([[2., 1.], [0., 4.]])).solution
        tensor([[1.],
                [1.]])
    """
    _warn_once(_TRIANGULAR_SOLVE_WARNING)
    solution, coefficient = out
    np.copyto(coefficient, np.broadcast_to(A, coefficient.shape))
    matrix = np.swapaxes(A, -1, -2) if transpose else A
    solve_triangular_into(matrix, self, upper != transpose, True, unitriangular, solution)


@register_meta(triangular_solve)
def _triangular_solve_meta_key(self, A, upper=True, transpose=False, unitriangular=False,
                               out=None):
    return _triangular_solve_meta(self, A, upper, transpose, unitriangular, out,
                                  python_words=True)
