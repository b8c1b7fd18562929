"""Eigen-decompositions of Hermitian matrices: _linalg_eigh, linalg_eigh, linalg_eigvalsh.

NumPy's `eigh` / `eigvalsh` take the whole batch (LAPACK's syevd / heevd, as torch
uses), reading one triangle; eigenvalues come in ascending order, real.
"""
from __future__ import annotations

import numpy as np

from ... import functions as at
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...backends import register_meta
from ...registry import TensorMeta, composite, op
from ..shape.triangular import exact_out_dtype
from .svd import unused
from .lapack import (check_floating, check_kernel_dtype, check_square, column_major_strides,
                     real_dtype, raise_for_info)


def _check_uplo(UPLO: str) -> None:
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")


def _eigh_meta(A, UPLO="L", compute_v=True, out=None, python_words=False):
    check_square("linalg.eigh", A, python_words=python_words)
    _check_uplo(UPLO)
    if out is not None:
        exact_out_dtype(real_dtype(A._dtype), out[0])
        exact_out_dtype(A._dtype, out[1])
    check_kernel_dtype("linalg_eigh_cpu", A, python_words)
    values = TensorMeta(A._size[:-1], real_dtype(A._dtype))
    if not compute_v:
        return values, TensorMeta((0,), A._dtype)
    return values, TensorMeta(A._size, A._dtype, column_major_strides(A._size))


def eigh_into(A: np.ndarray, UPLO: str, eigenvalues: np.ndarray,
              eigenvectors: np.ndarray | None) -> None:
    """Eigenvalues (ascending) and, unless `eigenvectors` is None, eigenvectors (columns)
    of the Hermitian batch `A`, read from its `UPLO` triangle."""
    if A.size == 0:
        return
    if not np.isfinite(A).all():        # LAPACK's syevd does not converge on NaN or inf
        raise_for_info(np.ones(A.shape[:-2] or (1,), np.int32), "linalg.eigh", A.ndim == 2)
    if eigenvectors is None:
        np.copyto(eigenvalues, np.linalg.eigvalsh(A, UPLO=UPLO.upper()))
        return
    values, vectors = np.linalg.eigh(A, UPLO=UPLO.upper())
    np.copyto(eigenvalues, values)
    np.copyto(eigenvectors, vectors)


@derivative_helper
def eigh_backward(grad_values, grad_vectors, eigenvalues, eigenvectors):
    """``A = V diag(L) V^H``: ``gA = V (diag(gL) + skew(V^H gV) / E) V^H`` with
    ``E_ij = L_j - L_i`` off the diagonal. A complex eigenvector is defined up to a
    phase, so a loss that reads the phase has no gradient: refused, as torch does."""
    V = eigenvectors
    if unused(grad_vectors):        # Note [Missing gradients of decompositions]
        return V.matmul(grad_values.unsqueeze(-1) * V.mH)
    VhgV = V.mH.matmul(grad_vectors)
    if V.is_complex():
        phase = VhgV.diagonal(0, -2, -1).imag
        if not bool(at.allclose(phase, at.zeros_like(phase), rtol=1e-2, atol=1e-2)):
            raise RuntimeError("linalg_eigh_backward: The eigenvectors in the complex case are "
                               "specified up to multiplication by e^{i phi}. The specified loss "
                               "function depends on this quantity, so it is ill-defined.")
    VhgV = 0.5 * (VhgV - VhgV.mH)
    gaps = eigenvalues.unsqueeze(-2) - eigenvalues.unsqueeze(-1)
    gaps = gaps + at.diag_embed(at.ones_like(eigenvalues))
    inner = VhgV / gaps
    inner = inner - at.diag_embed(inner.diagonal(0, -2, -1)) + at.diag_embed(grad_values)
    return V.matmul(inner.matmul(V.mH))


_EIGH_GRAD = {"A": "eigh_backward(grads[0], grads[1], eigenvalues, eigenvectors)"}


@op("_linalg_eigh(Tensor A, str UPLO=\"L\", bool compute_v=True) -> (Tensor eigenvalues, "
    "Tensor eigenvectors)", meta=_eigh_meta, out=True, out_overload="eigenvalues",
    function=False, grad=_EIGH_GRAD)
def linalg_eigh_values_vectors(A, UPLO, compute_v, *, out):
    """linalg_eigh, or (`compute_v` False) only the eigenvalues, with an empty tensor for
    the eigenvectors."""
    eigenvalues, eigenvectors = out
    eigh_into(A, UPLO, eigenvalues, eigenvectors if compute_v else None)


@register_meta(linalg_eigh_values_vectors)
def _eigh_meta_key(A, UPLO="L", compute_v=True, out=None):
    return _eigh_meta(A, UPLO, compute_v, out, python_words=True)


def _linalg_eigh_meta(self, UPLO="L", out=None, python_words=False):
    return _eigh_meta(self, UPLO, True, out, python_words)


@op("linalg_eigh(Tensor self, str UPLO=\"L\") -> (Tensor eigenvalues, Tensor eigenvectors)",
    meta=_linalg_eigh_meta, out=True, out_overload="eigvals", out_names=("eigvals", "eigvecs"),
    python_module="linalg",
    grad={"self": "eigh_backward(grads[0], grads[1], eigenvalues, eigenvectors)"})
def linalg_eigh(self, UPLO, *, out):
    """The eigenvalues (ascending, real) and eigenvectors (the columns of a unitary
    matrix) of Hermitian matrices, read from one triangle.

    Args:
        A (Tensor): ``(*, n, n)``, Hermitian (symmetric if real).
        UPLO ('L', 'U'): the triangle read.

    Returns:
        (Tensor, Tensor): ``(eigenvalues, eigenvectors)``, ``A = V diag(L) V^H``.

    Example::

        >>> torch.linalg.eigh(torch.tensor([[2., 1.], [1., 2.]])).eigenvalues
        tensor([1., 3.])
    """
    eigh_into(self, UPLO, *out)


@composite("linalg_eigvalsh(Tensor self, str UPLO=\"L\") -> Tensor", out=True,
           python_module="linalg")
def linalg_eigvalsh(self, UPLO="L", out=None):
    """The eigenvalues of Hermitian matrices, ascending and real.

    Example::

        >>> torch.linalg.eigvalsh(torch.tensor([[2., 1.], [1., 2.]]))
        tensor([1., 3.])
    """
    # the eigenvalues' gradient needs the eigenvectors: computed only when it may be asked
    compute_v = self.requires_grad or getattr(self._autograd, "fw_grad", None) is not None
    if out is None:
        return linalg_eigh_values_vectors.call(self, UPLO, compute_v)[0]
    vectors = at.empty((0,), dtype=self.dtype)
    return ops.aten._linalg_eigh.eigenvalues.call(self, UPLO, compute_v, out, vectors)[0]


@register_meta(linalg_eigh)
def _linalg_eigh_meta_key(self, UPLO="L", out=None):
    return _linalg_eigh_meta(self, UPLO, out, python_words=True)
