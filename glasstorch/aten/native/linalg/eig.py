"""Eigen-decompositions of general square matrices: linalg_eig, _linalg_eigvals,
linalg_eigvals. NumPy's `eig` takes the whole batch (LAPACK's geev, as torch's); the
results are complex whatever the input, eigenvectors of unit norm.
"""
from __future__ import annotations

import numpy as np

from ... import functions as at
from ...backends import register_meta
from ...derivatives import derivative_helper
from ...registry import TensorMeta, composite, op
from ...dispatcher import ops
from .lapack import castable_out, check_kernel_dtype, check_square, column_major_strides, raise_for_info
from .solve import linalg_solve
from .svd import unused


def _complex(dtype):
    return dtype if dtype.is_complex else dtype.to_complex()


def _eig_meta(self, out=None, python_words=False):
    check_square("linalg.eig", self, python_words=python_words)
    check_kernel_dtype("linalg_eig_cpu", self, python_words)
    dtype = _complex(self._dtype)
    return (TensorMeta(self._size[:-1], dtype),
            TensorMeta(self._size, dtype, column_major_strides(self._size)))


def _finite(A: np.ndarray) -> None:
    if not np.isfinite(A).all():
        raise_for_info(np.ones(1, np.int32), "linalg.eig", True)


@derivative_helper
def eig_backward(gL, gV, A, L, V):
    """``A = V diag(L) V^{-1}``: ``gA = V^{-H} (diag(gL) + (V^H gV - V^H V
    diag(Re(V^H gV))) / conj(E)) V^H`` with ``E_ij = L_j - L_i``; eigenvectors are
    normalized up to a phase, so a loss that reads it is refused, as torch does."""
    if unused(gV):
        inner = at.diag_embed(gL)
    else:
        VhgV = V.mH.matmul(gV)
        diagonal = VhgV.diagonal(0, -2, -1)
        if not bool(at.allclose(diagonal.imag, at.zeros_like(diagonal.imag), rtol=1e-2,
                                atol=1e-2)):
            raise RuntimeError("linalg_eig_backward: The eigenvectors in the complex case are "
                               "specified up to multiplication by e^{i phi}. The specified "
                               "loss function depends on this quantity, so it is ill-defined.")
        VhgV = VhgV - V.mH.matmul(V * diagonal.real.unsqueeze(-2))
        gaps = (L.unsqueeze(-2) - L.unsqueeze(-1)).conj()
        gaps = gaps + at.diag_embed(at.ones_like(L))
        inner = VhgV / gaps
        inner = inner - at.diag_embed(inner.diagonal(0, -2, -1)) + at.diag_embed(gL)
    gA = linalg_solve.call(V.mH, inner.matmul(V.mH), True)
    return gA if A.is_complex() else gA.real


@op("linalg_eig(Tensor self) -> (Tensor eigenvalues, Tensor eigenvectors)", meta=_eig_meta,
    out=True, python_module="linalg",
    grad={"self": "eig_backward(grads[0], grads[1], self, eigenvalues, eigenvectors)"})
def linalg_eig(self, *, out):
    """The eigenvalues and eigenvectors (columns, of unit norm) of square matrices,
    complex whatever the input: ``A V = V diag(L)``.

    Example::

        >>> torch.linalg.eig(torch.tensor([[2., 0.], [0., 3.]])).eigenvalues
        tensor([2.+0.j, 3.+0.j])
    """
    values, vectors = out
    if self.size == 0:
        return
    _finite(self)
    found_values, found_vectors = np.linalg.eig(self)
    np.copyto(values, found_values)
    np.copyto(vectors, found_vectors)


@register_meta(linalg_eig)
def _eig_meta_key(self, out=None):
    return _eig_meta(self, out, python_words=True)


def _eigvals_meta(self, python_words=False):
    return _eig_meta(self, None, python_words)[0]


@op("_linalg_eigvals(Tensor self) -> Tensor", meta=_eigvals_meta, function=False)
def linalg_eigvals_only(self, *, out):
    """The eigenvalues alone (no gradient: linalg_eigvals takes linalg_eig's when one
    may be asked)."""
    if self.size:
        _finite(self)
        np.copyto(out, np.linalg.eigvals(self))


@composite("linalg_eigvals(Tensor self) -> Tensor", out=True, python_module="linalg")
def linalg_eigvals(self, out=None):
    """The eigenvalues of square matrices, complex.

    Example::

        >>> torch.linalg.eigvals(torch.tensor([[0., -1.], [1., 0.]]))
        tensor([0.+1.j, 0.-1.j])
    """
    needs_vectors = self.requires_grad or getattr(self._autograd, "fw_grad", None) is not None
    values = linalg_eig.call(self)[0] if needs_vectors else linalg_eigvals_only.call(self)
    return castable_out(values, out, ops.aten.linalg_eigvals.out, "torch.linalg.eigvals",
                        "eigenvalues")
