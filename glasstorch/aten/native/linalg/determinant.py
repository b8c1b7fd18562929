"""Determinants: linalg_det, _linalg_det, det, linalg_slogdet, _linalg_slogdet, slogdet,
logdet.

NumPy's `det` and `slogdet` factor the whole batch in one C loop (getrf underneath), so
singular matrices need no second path: their determinant is 0 (sign 0, log|det| -inf).
The underscore forms also return the LU factorization, as torch's do.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dispatch_key import AUTOGRAD, local_keys
from ... import functions as at
from ...derivatives import derivative_helper
from ...backends import register_meta
from ...dispatcher import ops
from ...registry import TensorMeta, composite, op
from ..shape.triangular import exact_out_dtype
from .lapack import (check_floating, check_kernel_dtype, check_square, column_major_strides,
                     real_dtype, written_outs)
from .lu import lu_factor_into
from .solve import linalg_solve
from .svd import linalg_svd


def factor_transposed(A: np.ndarray, LU: np.ndarray, pivots: np.ndarray) -> None:
    """The LU factorization the determinant operators report: of A^T when A is real and
    row-major (``det(A^T) = det(A)``, and A^T is the column-major matrix LAPACK takes
    without a copy), as torch's are."""
    if A.dtype.kind != "c" and A.flags.c_contiguous:
        A = np.swapaxes(A, -1, -2)
    lu_factor_into(A, LU, pivots)


def _lu_results(A) -> tuple:
    square = A._size
    return (TensorMeta(square, A._dtype, column_major_strides(square)),
            TensorMeta(square[:-1], dtypes.int32))


# ----------------------------------------------------------------------------------
# det
# ----------------------------------------------------------------------------------
def _det_meta(A, out=None, python_words=False):
    name = "linalg.det"
    check_square(name, A, python_words=python_words)
    check_floating(name, A, allow_low_precision=True, python_words=python_words)
    exact_out_dtype(A._dtype, out if not isinstance(out, tuple) else out[0])
    check_kernel_dtype("lu_cpu", A, python_words)
    return TensorMeta(A._size[:-2], A._dtype)


@derivative_helper
def det_backward(grad, A, result):
    """``d det(A) = det(A) tr(A^{-1} dA)``, so ``gA = conj(g det(A)) A^{-H}``: a solve
    with A^H of the diagonal matrix ``conj(det) g I``. A singular matrix has no inverse
    but cofactors all the same: when the backward is itself recorded, as torch does,
    `det_backward_singular` reaches them through the SVD; otherwise, as torch's
    perturbed LU does, the zero determinant makes the gradient zero."""
    singular = result == 0
    if bool(singular.any()):
        if not local_keys.excluded & AUTOGRAD:
            return det_backward_singular(grad, A)
        identity = at.eye(A.shape[-1], dtype=A.dtype)
        A = at.where(singular.unsqueeze(-1).unsqueeze(-1), identity, A)
    scaled = grad * result.conj()
    diagonal = at.diag_embed(scaled.unsqueeze(-1).expand(A.shape[:-1]))
    return linalg_solve.call(A.mH, diagonal, True)


@derivative_helper
def det_backward_singular(grad, A):
    """``det(A) = det(U) det(V^H) prod(S)`` for ``A = U diag(S) V^H``: the cofactor
    matrix is ``conj(g det(U) det(V^H)) U diag(d prod(S) / dS) V^H``, the products of
    all singular values but one, which stay finite where some are zero."""
    U, S, Vh = linalg_svd.call(A, False, None)
    phase = (linalg_det.call(U) * linalg_det.call(Vh)).conj()
    others = at.stack([at.cat([S[..., :i], S[..., i + 1:]], -1).prod(-1)
                       for i in range(S.shape[-1])], -1)
    D = (grad * phase).unsqueeze(-1) * others
    return (U * D.unsqueeze(-2)).matmul(Vh)


@op("linalg_det(Tensor A) -> Tensor", meta=_det_meta, out=True, python_module="linalg",
    grad={"A": "det_backward(grad, A, result)"})
def linalg_det(A, *, out):
    """The determinant of square matrices.

    Example::

        >>> torch.linalg.det(torch.tensor([[2., 1.], [1., 3.]]))
        tensor(5.0000)
    """
    determinant_into(A, out)


@register_meta(linalg_det)
def _det_meta_key(A, out=None):
    return _det_meta(A, out, python_words=True)


def determinant_into(A: np.ndarray, out: np.ndarray) -> None:
    if A.size == 0:
        out.fill(1)                     # the empty product
        return
    np.copyto(out, np.linalg.det(A))


def _det_lu_meta(A, out=None, python_words=False):
    return (_det_meta(A, out, python_words),) + _lu_results(A)


@op("_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)", meta=_det_lu_meta,
    out=True, out_overload="result", function=False,
    grad={"A": "det_backward(grads[0], A, result0)",
          "output_differentiability": (True, False, False)})
def linalg_det_lu(A, *, out):
    """linalg_det, also returning A's LU factorization."""
    result, LU, pivots = out
    determinant_into(A, result)
    factor_transposed(A, LU, pivots)


@register_meta(linalg_det_lu)
def _det_lu_meta_key(A, out=None):
    return _det_lu_meta(A, out, python_words=True)


@composite("det(Tensor self) -> Tensor", method=True)
def det(self):
    """The determinant of square matrices: `torch.linalg.det`.

    Example::

        >>> torch.det(torch.tensor([[2., 1.], [1., 3.]]))
        tensor(5.0000)
    """
    return linalg_det.call(self)


# ----------------------------------------------------------------------------------
# slogdet, logdet
# ----------------------------------------------------------------------------------
def _slogdet_meta(A, out=None, name="linalg.slogdet", python_words=False):
    check_square(name, A, python_words=python_words)
    check_floating(name, A, python_words=python_words)
    if out is not None:
        exact_out_dtype(A._dtype, out[0])
        exact_out_dtype(real_dtype(A._dtype), out[1])
    batch = A._size[:-2]
    return TensorMeta(batch, A._dtype), TensorMeta(batch, real_dtype(A._dtype))


def slogdet_into(A: np.ndarray, sign: np.ndarray, logabsdet: np.ndarray) -> None:
    if A.size == 0:
        sign.fill(1)
        logabsdet.fill(0)
        return
    found_sign, found_log = np.linalg.slogdet(A)
    np.copyto(sign, found_sign)
    np.copyto(logabsdet, found_log)


@derivative_helper
def slogdet_backward(grad_sign, grad_logabsdet, A, sign):
    """``d log|det A| = Re tr(A^{-1} dA)``: ``gA = g A^{-H}``; for complex A the sign's
    gradient adds ``-i Im(conj(sign) g_sign)`` to g. Undefined at singular matrices
    (the solve raises there, as torch's does)."""
    g = grad_logabsdet
    if A.is_complex():
        g = g - 1j * (grad_sign * sign.conj()).imag
    diagonal = at.diag_embed(g.unsqueeze(-1).expand(A.shape[:-1]))
    return linalg_solve.call(A.mH, diagonal, True)


_SLOGDET_GRAD = {"A": "slogdet_backward(grads[0], grads[1], A, sign)"}


@op("linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)", meta=_slogdet_meta,
    out=True, python_module="linalg", grad=_SLOGDET_GRAD)
def linalg_slogdet(A, *, out):
    """The sign (a unit complex number for complex A) and the log of the absolute value
    of the determinant of square matrices: ``det = sign * exp(logabsdet)``, without
    the overflow of the determinant itself. A singular matrix gives (0, -inf).

    Example::

        >>> torch.linalg.slogdet(torch.tensor([[2., 1.], [1., -3.]]))
        torch.return_types.linalg_slogdet(
        sign=tensor(-1.),
        logabsdet=tensor(1.9459))
    """
    slogdet_into(A, *out)


def _slogdet_lu_meta(A, out=None, python_words=False):
    return _slogdet_meta(A, out, python_words=python_words) + _lu_results(A)


@register_meta(linalg_slogdet)
def _slogdet_meta_key(A, out=None):
    return _slogdet_meta(A, out, python_words=True)


@op("_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)",
    meta=_slogdet_lu_meta, out=True, out_overload="sign", function=False,
    grad={**_SLOGDET_GRAD, "output_differentiability": (True, True, False, False)})
def linalg_slogdet_lu(A, *, out):
    """linalg_slogdet, also returning A's LU factorization."""
    sign, logabsdet, LU, pivots = out
    slogdet_into(A, sign, logabsdet)
    factor_transposed(A, LU, pivots)


@register_meta(linalg_slogdet_lu)
def _slogdet_lu_meta_key(A, out=None):
    return _slogdet_lu_meta(A, out, python_words=True)


@composite("slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)", method=True, out=True)
def slogdet(self, sign=None, logabsdet=None):
    """`torch.linalg.slogdet`: the sign and log absolute value of the determinant.

    Example::

        >>> torch.slogdet(torch.tensor([[2., 1.], [1., -3.]])).logabsdet
        tensor(1.9459)
    """
    return written_outs(linalg_slogdet.call(self), (sign, logabsdet), ops.aten.slogdet.out)


@composite("logdet(Tensor self) -> Tensor", method=True)
def logdet(self):
    """The log of the determinant of square matrices: NaN for a negative determinant of
    a real matrix, -inf for a singular one (complex: the principal log).

    Example::

        >>> torch.logdet(torch.tensor([[2., 1.], [1., 3.]]))
        tensor(1.6094)
    """
    _slogdet_meta(self, name="logdet")
    sign, logabsdet = linalg_slogdet.call(self)
    if self.is_complex():
        return sign.log() + logabsdet
    return at.where(sign == -1, math.nan, logabsdet)
