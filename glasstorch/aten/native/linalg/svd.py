"""The singular value decomposition: _linalg_svd, linalg_svd, linalg_svdvals, svd.

NumPy's `svd` takes the whole batch (LAPACK's gesdd, torch's CPU driver too). Singular
vectors are defined up to sign (a phase, for complex matrices), so a gradient exists only
for losses that do not read it: torch's backward checks that, and so does `svd_backward`.

Note [Missing gradients of decompositions]
    The engine hands a formula zeros for the outputs nothing used. For decompositions
    that is not only slower but wrong where the spectrum repeats: the eigenvector and
    singular vector terms divide by the gaps between eigenvalues, so zeros over a zero gap
    would give NaN where torch, which knows the gradient is undefined, skips the term.
    `unused` tells an all-zero gradient apart, and the formulas skip its term as torch's do.
"""
from __future__ import annotations

import numpy as np

from ... import functions as at
from ...backends import register_meta
from ...derivatives import derivative_helper
from ...dispatcher import ops
from ...registry import TensorMeta, composite, op
from ..shape.triangular import exact_out_dtype
from .lapack import (LinAlgError, check_floating, check_kernel_dtype, check_matrix,
                     column_major_strides, contiguous_strides, real_dtype, written_out,
                     written_outs)


def unused(grad) -> bool:
    """Whether an output's gradient is the engine's zeros (Note [Missing gradients of
    decompositions])."""
    return not bool(grad.any())


def _svd_meta(A, full_matrices=False, compute_uv=True, driver=None, out=None,
              python_words=False):
    name = "linalg.svd"
    check_matrix(name, A)
    check_floating(name, A, allow_low_precision=True, python_words=python_words)
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    check_kernel_dtype("linalg_svd_cpu", A, python_words)
    batch, (m, n) = A._size[:-2], A._size[-2:]
    k = min(m, n)
    if out is not None:
        exact_out_dtype(real_dtype(A._dtype), out[1])
    values = TensorMeta(batch + (k,), real_dtype(A._dtype))
    if not compute_uv:
        return TensorMeta((0,), A._dtype), values, TensorMeta((0,), A._dtype)
    left = batch + (m, m if full_matrices else k)
    right = batch + (n if full_matrices else k, n)
    # torch's meta function lays V^H out row-major (it guesses a CUDA device for meta)
    right_strides = contiguous_strides(right) if python_words else column_major_strides(right)
    return (TensorMeta(left, A._dtype, column_major_strides(left)), values,
            TensorMeta(right, A._dtype, right_strides))


def svd_into(A: np.ndarray, full_matrices: bool, U, S: np.ndarray, Vh) -> None:
    """S (descending) and, unless U is None, the singular vectors of the batch A."""
    if A.size == 0:
        if U is not None:                   # the empty product leaves identities
            U[...] = np.eye(U.shape[-2], U.shape[-1])
            Vh[...] = np.eye(Vh.shape[-2], Vh.shape[-1])
        return
    if not np.isfinite(A).all():
        raise LinAlgError("linalg.svd: The algorithm failed to converge because the input "
                          "matrix contained non-finite values.")
    if U is None:
        np.copyto(S, np.linalg.svd(A, compute_uv=False))
        return
    left, values, right = np.linalg.svd(A, full_matrices=full_matrices)
    np.copyto(U, left)
    np.copyto(S, values)
    np.copyto(Vh, right)


@derivative_helper
def svd_backward(gU, gS, gVh, U, S, Vh, full_matrices: bool):
    """``A = U diag(S) V^H``: gA from the three gradients, with S's gaps ``E_ij =
    S_j^2 - S_i^2``; torch's formula and its refusal of losses that read the singular
    vectors' phase. Unused gradients skip their terms (Note [Missing gradients of
    decompositions])."""
    if U.dim() < 2 or Vh.dim() < 2:          # torch asserts the same
        raise RuntimeError("svd_backward: the gradient needs U and Vh, which compute_uv=False "
                           "did not compute")
    k = S.shape[-1]
    if full_matrices:
        U, Vh, gU, gVh = U[..., :k], Vh[..., :k, :], gU[..., :k], gVh[..., :k, :]
    use_u, use_v = not unused(gU), not unused(gVh)
    if not (use_u or use_v):
        return U.matmul(gS.unsqueeze(-1) * Vh) if U.shape[-2] >= Vh.shape[-1] \
            else (U * gS.unsqueeze(-2)).matmul(Vh)
    UhgU = _skew(U.mH.matmul(gU))
    VhgV = _skew(Vh.matmul(gVh.mH))
    if U.is_complex():
        _check_phase(UhgU.diagonal(0, -2, -1).imag, VhgV.diagonal(0, -2, -1).imag)
    gaps = S.square().unsqueeze(-2) - S.square().unsqueeze(-1)
    gaps = gaps + at.diag_embed(at.ones_like(S))
    inner = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / gaps
    inner = inner + at.diag_embed(gS)
    if U.is_complex() and use_u:
        inner = inner + at.diag_embed(UhgU.diagonal(0, -2, -1) / (2 * S))
    return _conjugated_by_vectors(inner, gU, gVh, U, S, Vh, use_u, use_v)


def _skew(X):
    return X - X.mH


def _check_phase(imag_u, imag_v) -> None:
    if not bool(at.allclose(imag_u, -imag_v, rtol=1e-2, atol=1e-2)):
        raise RuntimeError("svd_backward: The singular vectors in the complex case are specified "
                           "up to multiplication by e^{i phi}. The specified loss function "
                           "depends on this phase term, making it ill-defined.")


def _conjugated_by_vectors(inner, gU, gVh, U, S, Vh, use_u: bool, use_v: bool):
    """``U inner V^H``, plus the parts of gU (gVh) outside U's (V's) span for tall (wide)
    matrices."""
    m, n = U.shape[-2], Vh.shape[-1]
    if m > n and use_u:
        gA = U.matmul(inner)
        scaled = gU / S.unsqueeze(-2)
        gA = gA + scaled - U.matmul(U.mH.matmul(scaled))
        return gA.matmul(Vh)
    if m < n and use_v:
        gA = inner.matmul(Vh)
        scaled = gVh / S.unsqueeze(-1)
        gA = gA + scaled - scaled.matmul(Vh.mH).matmul(Vh)
        return U.matmul(gA)
    return U.matmul(inner.matmul(Vh))


@op("_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, "
    "str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)", meta=_svd_meta, out=True,
    out_overload="U", function=False,
    grad={"A": "svd_backward(grads[0], grads[1], grads[2], U, S, Vh, full_matrices)"})
def linalg_svd_factors(A, full_matrices, compute_uv, driver, *, out):
    """The singular value decomposition, or (`compute_uv` False) only the singular
    values, with empty tensors for U and Vh."""
    U, S, Vh = out
    svd_into(A, full_matrices, U if compute_uv else None, S, Vh if compute_uv else None)


@register_meta(linalg_svd_factors)
def _svd_meta_key(A, full_matrices=False, compute_uv=True, driver=None, out=None):
    return _svd_meta(A, full_matrices, compute_uv, driver, out, python_words=True)


def _may_need_grad(A) -> bool:
    """Whether a gradient (or tangent) of A's function may be asked: the singular values'
    then needs the singular vectors."""
    return A.requires_grad or getattr(A._autograd, "fw_grad", None) is not None


@composite("linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> "
           "(Tensor U, Tensor S, Tensor Vh)", python_module="linalg", out=True,
           out_overload="U")
def linalg_svd(A, full_matrices=True, driver=None, U=None, S=None, Vh=None):
    """The singular value decomposition ``A = U diag(S) V^H``: S real and descending, U
    and V with orthonormal columns (``full_matrices``: square U and V^H).

    Example::

        >>> torch.linalg.svd(torch.tensor([[3., 0.], [0., -2.]])).S
        tensor([3., 2.])
    """
    return written_outs(linalg_svd_factors.call(A, full_matrices, True, driver), (U, S, Vh),
                        ops.aten.linalg_svd.U)


@composite("linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor", out=True,
           python_module="linalg")
def linalg_svdvals(A, driver=None, out=None):
    """The singular values of `A`, descending.

    Example::

        >>> torch.linalg.svdvals(torch.tensor([[3., 0.], [0., -2.]]))
        tensor([3., 2.])
    """
    values = linalg_svd_factors.call(A, False, _may_need_grad(A), driver)[1]
    if out is None:
        return values
    return written_out(values, out, ops.aten.linalg_svdvals.out)


@composite("svd(Tensor self, bool some=True, bool compute_uv=True) -> "
           "(Tensor U, Tensor S, Tensor V)", method=True, out=True, out_overload="U")
def svd(self, some=True, compute_uv=True, U=None, S=None, V=None):
    """The singular value decomposition ``A = U diag(S) V^H``, returning V (not V^H);
    `torch.linalg.svd` is its successor. Without `compute_uv`, U and V are zeros.

    Example::

        >>> torch.svd(torch.tensor([[3., 0.], [0., -2.]])).S
        tensor([3., 2.])
    """
    results = _svd_results(self, some, compute_uv)
    if V is not None and not compute_uv:     # torch's out= form writes these zeros row-major
        results = results[:2] + (results[2].contiguous(),)
    return written_outs(results, (U, S, V), ops.aten.svd.U)


def _svd_results(self, some: bool, compute_uv: bool) -> tuple:
    if compute_uv:
        U, S, Vh = linalg_svd_factors.call(self, not some, True, None)
        return U, S, Vh.mH
    S = linalg_svd_factors.call(self, False, _may_need_grad(self), None)[1]
    m, n = self.shape[-2:]
    batch = tuple(self.shape[:-2])
    U = self.new_zeros(batch + (m, m))
    V = self.new_zeros(batch + (n, n)).mH          # as V^H's adjoint, column-major
    return U, S, V
