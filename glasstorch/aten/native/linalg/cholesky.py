"""The Cholesky factorization and what is built on it: linalg_cholesky_ex, linalg_cholesky,
cholesky, cholesky_solve, cholesky_inverse; and `_linalg_check_errors`, which turns the
`info` codes of an ``_ex`` operator into torch's LinAlgError.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.layout import contiguous_format
from ... import functions as at
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...dispatcher import ops
from ...registry import TensorMeta, composite, op, prepare_out
from ..shape.shape import _warn_once
from ..shape.triangular import exact_out_dtype
from .lapack import (batch_shape, check_castable_out, check_floating, check_kernel_dtype,
                     check_same_dtype, check_square, column_major_strides, lapack, out_strides,
                     per_matrix, raise_for_info)
from .triangular import linalg_solve_triangular, solve_triangular_into


# ----------------------------------------------------------------------------------
# _linalg_check_errors
# ----------------------------------------------------------------------------------
def _check_errors_meta(info, api_name, is_matrix) -> None:
    """Nothing to describe: the codes are values, which only the kernel reads."""


@op("_linalg_check_errors(Tensor info, str api_name, *, bool is_matrix) -> ()",
    meta=_check_errors_meta)
def linalg_check_errors(info, api_name, is_matrix, *, out):
    """Raise torch's error for the first nonzero LAPACK code in `info` (one per matrix of
    a batch; `is_matrix`: a single matrix, so no batch element is named)."""
    raise_for_info(info, api_name, is_matrix)


# ----------------------------------------------------------------------------------
# linalg_cholesky_ex, linalg_cholesky, cholesky
# ----------------------------------------------------------------------------------
def _cholesky_meta(self, upper=False, check_errors=False, out=None, python_words=False):
    name = "linalg.cholesky"
    check_square(name, self, python_words=python_words)
    check_floating(name, self, allow_low_precision=True, python_words=python_words)
    if out is not None:
        exact_out_dtype(self._dtype, out[0])
        exact_out_dtype(dtypes.int32, out[1])
    check_kernel_dtype("cholesky_cpu", self, python_words)
    return (TensorMeta(self._size, self._dtype, column_major_strides(self._size)),
            TensorMeta(self._size[:-2], dtypes.int32))


def cholesky_into(A: np.ndarray, upper: bool, L: np.ndarray, info: np.ndarray) -> None:
    """Factor the batch `A` into `L` (``A = L L^H``, or ``U^H U`` if `upper`), reading
    one triangle, and write LAPACK's code per matrix into `info` (Note [Batched LAPACK])."""
    info.fill(0)
    if A.size == 0:
        return
    try:
        np.copyto(L, np.linalg.cholesky(A, upper=upper))
        return
    except np.linalg.LinAlgError:
        pass
    potrf = lapack("potrf", A)
    for index, (factor, code) in per_matrix(
            lambda a: potrf(a, lower=not upper, clean=True), A):
        L[index] = factor
        info[index] = code


@derivative_helper
def cholesky_backward(grad, upper: bool, L):
    """``A = L L^H``: ``gA = L^{-H} Φ(L^H gL) L^{-1}``, Φ taking the lower triangle with
    its diagonal halved, made Hermitian (the gradient of a Hermitian input)."""
    if upper:
        L, grad = L.mH, grad.mH
    gA = L.mH.matmul(grad).tril()
    gA = 0.5 * (gA + gA.tril(-1).mH)
    gA = linalg_solve_triangular.call(L.mH, gA, True, True, False)
    return linalg_solve_triangular.call(L, gA, False, False, False)


@op("linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> "
    "(Tensor L, Tensor info)", meta=_cholesky_meta, out=True, out_overload="L",
    python_module="linalg", grad={"self": "cholesky_backward(grad, upper, L)"})
def linalg_cholesky_ex(self, upper, check_errors, *, out):
    """The Cholesky factor of Hermitian positive-definite matrices, and LAPACK's code
    for each (0: factored; k > 0: the leading minor of order k is not positive-definite,
    and L holds the partial factorization).

    Args:
        A (Tensor): ``(*, n, n)``; only its lower (`upper`: upper) triangle is read.
        upper (bool): return U with ``A = U^H U`` rather than L with ``A = L L^H``.
        check_errors (bool): raise LinAlgError for a failed matrix.

    Returns:
        (Tensor, Tensor): ``(L, info)``, info an int32 tensor of the batch's shape.

    Example::

        >>> torch.linalg.cholesky_ex(torch.tensor([[4., 2.], [2., 5.]]))
        torch.return_types.linalg_cholesky_ex(
        L=tensor([[2., 0.],
                [1., 2.]]),
        info=tensor(0, dtype=torch.int32))
    """
    L, info = out
    cholesky_into(self, upper, L, info)
    if check_errors:
        raise_for_info(info, "linalg.cholesky_ex", self.ndim == 2)


@register_meta(linalg_cholesky_ex)
def _cholesky_meta_key(self, upper=False, check_errors=False, out=None):
    return _cholesky_meta(self, upper, check_errors, out, python_words=True)


@composite("linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor", out=True,
           python_module="linalg")
def linalg_cholesky(self, upper=False, out=None):
    """The Cholesky factor L of Hermitian positive-definite matrices (``A = L L^H``; U
    with ``A = U^H U`` if `upper`); LinAlgError if one is not positive-definite.

    Example::

        >>> torch.linalg.cholesky(torch.tensor([[4., 2.], [2., 5.]]))
        tensor([[2., 0.],
                [1., 2.]])
    """
    return checked_cholesky(self, upper, "linalg.cholesky", out)


def checked_cholesky(self, upper: bool, api_name: str, out=None):
    """linalg_cholesky_ex's factor, LinAlgError (worded for `api_name`) if one failed."""
    if out is None:
        L, info = linalg_cholesky_ex.call(self, upper, False)
    else:
        info = at.empty((0,), dtype=dtypes.int32)
        L, info = ops.aten.linalg_cholesky_ex.L.call(self, upper, False, out, info)
    linalg_check_errors.call(info, api_name, self.dim() == 2)
    return L


_CHOLESKY_WARNING = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
    "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be "
    "replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent "
    "results for all valid (symmetric positive definite) inputs.")


@composite("cholesky(Tensor self, bool upper=False) -> Tensor", method=True, out=True)
def cholesky(self, upper=False, out=None):
    """The Cholesky factor of positive-definite matrices (deprecated:
    `torch.linalg.cholesky` is its successor; ``upper=True`` is its ``.mH``).

    Example::

        >>> torch.cholesky(torch.tensor([[4., 2.], [2., 5.]]))
        tensor([[2., 0.],
                [1., 2.]])
    """
    _warn_once(_CHOLESKY_WARNING)
    L = checked_cholesky(self, upper, "cholesky")
    if self.numel() == 0:                # torch returns a row-major empty result
        L = L.clone(memory_format=contiguous_format)
    return _written(L, out, "cholesky")


def _written(result, out, name: str):
    """`result`, or copied into `out` (of any dtype it casts to), as torch's older
    linear algebra functions write their out=."""
    if out is None:
        return result
    check_castable_out(name, result.dtype, out)
    wanted = TensorMeta(tuple(result.shape), result.dtype)
    prepare_out(ops.aten.cholesky.out, out, wanted)
    return out.copy_(result)


# ----------------------------------------------------------------------------------
# cholesky_solve, cholesky_inverse
# ----------------------------------------------------------------------------------
def _cholesky_solve_meta(self, input2, upper=False, out=None, python_words=False):
    for name, t in (("b", self), ("u", input2)):
        if t.dim() < 2:
            raise RuntimeError(f"{name} should have at least 2 dimensions, but has {t.dim()} "
                               f"dimensions instead")
    check_same_dtype("", self, input2, "b", "A", python_words, ".")
    n, cols = input2._size[-2:]
    if n != cols:
        raise RuntimeError(f"A must be batches of square matrices, but they are {n} by {cols} "
                           f"matrices")
    if self._size[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {n} "
                           f"by {n} but each b matrix is {self._size[-2]} by {self._size[-1]}")
    check_castable_out("cholesky_solve", self._dtype, out)
    check_kernel_dtype("cholesky_solve_cpu", self, python_words)
    shape = batch_shape(self._size[:-2], input2._size[:-2], python_words) + self._size[-2:]
    return TensorMeta(shape, self._dtype, out_strides(shape, out))


@derivative_helper
def cholesky_solve_backward(grad, self, input2, result, upper: bool, grad_input_mask):
    """``X = A^{-1} B`` with ``A = L L^H``: ``gB = A^{-1} gX``; L's gradient is that of
    ``-gB X^H`` through A, made Hermitian."""
    gB = cholesky_solve.call(grad, input2, upper)
    gL = None
    if grad_input_mask[1]:
        common = gB.matmul(result.mH)
        common = common + common.mH
        gL = -input2.matmul(common) if upper else -common.matmul(input2)
    return gB, gL


@op("cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor",
    meta=_cholesky_solve_meta, out=True, method=True,
    grad={"self, input2": "cholesky_solve_backward(grad, self, input2, result, upper, "
                          "grad_input_mask)"})
def cholesky_solve(self, input2, upper, *, out):
    """The solution X of ``A X = B`` given A's Cholesky factor (`input` is B, `input2`
    the factor L with ``A = L L^H``, or U with ``A = U^H U`` if `upper`).

    Example::

        >>> L = torch.tensor([[2., 0.], [1., 2.]])
        >>> torch.cholesky_solve(torch.tensor([[4.], [2.]]), L)
        tensor([[ 1.],
                [-0.]])
    """
    result = np.empty(out.shape, self.dtype)         # computed in the inputs' dtype
    cholesky_solve_into(self, input2, upper, result)
    np.copyto(out, result)


@register_meta(cholesky_solve)
def _cholesky_solve_meta_key(self, input2, upper=False, out=None):
    return _cholesky_solve_meta(self, input2, upper, out, python_words=True)


def cholesky_solve_into(B: np.ndarray, factor: np.ndarray, upper: bool, out: np.ndarray) -> None:
    """``out = (L L^H)^{-1} B``: two triangular solves, with L then with L^H."""
    lower = np.swapaxes(factor, -1, -2).conj() if upper else factor
    half = np.empty_like(out)
    solve_triangular_into(lower, B, False, True, False, half)
    solve_triangular_into(np.swapaxes(lower, -1, -2).conj(), half, True, True, False, out)


def _cholesky_inverse_meta(self, upper=False, out=None, python_words=False):
    check_square("cholesky_inverse", self, python_words=python_words)
    check_castable_out("cholesky_inverse", self._dtype, out)
    check_kernel_dtype("cholesky_inverse_out_cpu", self, python_words)
    return TensorMeta(self._size, self._dtype, out_strides(self._size, out))


@derivative_helper
def cholesky_inverse_backward(grad, self, upper: bool, result):
    """``R = (L L^H)^{-1}``: ``gL = -(R (g + g^H) R) L`` (``-U R (g + g^H) R`` if upper)."""
    common = result.matmul((grad + grad.mH).matmul(result))
    return -self.matmul(common) if upper else -common.matmul(self)


@op("cholesky_inverse(Tensor self, bool upper=False) -> Tensor", meta=_cholesky_inverse_meta,
    out=True, method=True, grad={"self": "cholesky_inverse_backward(grad, self, upper, result)"})
def cholesky_inverse(self, upper, *, out):
    """The inverse of ``A = L L^H`` (``U^H U`` if `upper`) from its Cholesky factor;
    LinAlgError if a diagonal element of the factor is zero.

    Example::

        >>> torch.cholesky_inverse(torch.tensor([[2., 0.], [1., 2.]]))
        tensor([[ 0.3125, -0.1250],
                [-0.1250,  0.2500]])
    """
    if self.size == 0:
        return
    diagonal = np.einsum("...ii->...i", self)   # a zero pivot: LAPACK's potri refuses
    singular = (diagonal == 0)
    info = np.where(singular.any(-1), singular.argmax(-1) + 1, 0)
    raise_for_info(info, "cholesky_inverse", self.ndim == 2)
    identity = np.broadcast_to(np.eye(self.shape[-1], dtype=self.dtype), self.shape)
    result = np.empty(out.shape, self.dtype)
    cholesky_solve_into(identity, self, upper, result)
    np.copyto(out, result)


@register_meta(cholesky_inverse)
def _cholesky_inverse_meta_key(self, upper=False, out=None):
    return _cholesky_inverse_meta(self, upper, out, python_words=True)
