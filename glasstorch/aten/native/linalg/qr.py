"""QR and Householder reflectors: geqrf, linalg_qr, qr, linalg_householder_product, orgqr,
ormqr.

NumPy's `qr` takes the whole batch (LAPACK's geqrf, then orgqr, as torch's). geqrf's
compact storage holds R on and above the diagonal and, below it, the Householder vectors
``v_i`` (their leading 1 implied) with the scalars `tau`: ``Q = H_0 ... H_{k-1}``,
``H_i = I - tau_i v_i v_i^H``. The products of reflectors are written in operators, one
reflector at a time over the whole batch, so they differentiate as they are.
"""
from __future__ import annotations

import numpy as np

from ....c10.dtype import scalar_type_name
from ... import functions as at
from ...backends import register_meta
from ...dispatcher import ops
from ...derivatives import derivative_helper
from ...registry import TensorMeta, composite, op
from ..shape.shape import _warn_once
from .lapack import (castable_out, check_floating, check_kernel_dtype, check_matrix,
                     column_major_strides, written_outs)
from .triangular import linalg_solve_triangular

_MODES = ("reduced", "complete", "r")


# ----------------------------------------------------------------------------------
# geqrf
# ----------------------------------------------------------------------------------
def _geqrf_meta(self, out=None, python_words=False):
    if self.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    check_kernel_dtype("geqrf_cpu", self, python_words)
    batch, (m, n) = self._size[:-2], self._size[-2:]
    return (TensorMeta(self._size, self._dtype, column_major_strides(self._size)),
            TensorMeta(batch + (min(m, n),), self._dtype))


@op("geqrf(Tensor self) -> (Tensor a, Tensor tau)", meta=_geqrf_meta, out=True,
    out_overload="a", method=True)
def geqrf(self, *, out):
    """LAPACK's QR factorization in compact storage: R and the Householder vectors in
    one matrix, and their scalars `tau` (see `torch.linalg.householder_product`).

    Example::

        >>> torch.geqrf(torch.tensor([[3., 1.], [4., 2.]])).tau
        tensor([1.6000, 0.0000])
    """
    a, tau = out
    if self.size == 0:
        return
    storage, scalars = np.linalg.qr(self, mode="raw")      # storage transposed, as LAPACK's
    np.copyto(a, np.swapaxes(storage, -1, -2))
    np.copyto(tau, scalars)


@register_meta(geqrf)
def _geqrf_meta_key(self, out=None):
    return _geqrf_meta(self, out, python_words=True)


# ----------------------------------------------------------------------------------
# linalg_qr, qr
# ----------------------------------------------------------------------------------
def _qr_meta(A, mode="reduced", out=None, python_words=False):
    name = "linalg.qr"
    check_matrix(name, A)
    check_floating(name, A, allow_low_precision=True)
    if mode not in _MODES:
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           f"'reduced' (default), 'r', or 'complete'")
    check_kernel_dtype("geqrf_cpu", A, python_words)
    batch, (m, n) = A._size[:-2], A._size[-2:]
    k = m if mode == "complete" else min(m, n)
    Q_shape, R_shape = batch + (m, k), batch + (k, n)
    Q = TensorMeta((0,), A._dtype) if mode == "r" else \
        TensorMeta(Q_shape, A._dtype, column_major_strides(Q_shape))
    return Q, TensorMeta(R_shape, A._dtype, column_major_strides(R_shape))


@derivative_helper
def qr_backward(gQ, gR, Q, R, mode: str):
    """``A = Q R``: for m >= n, ``gA = (gQ + Q copyltu(M)) R^{-H}`` with
    ``M = gR R^H - Q^H gQ`` (copyltu: the upper triangle mirrored Hermitian, the real
    diagonal kept once); a wide A splits as ``[X | Y]``, X's QR square, Y = Q R_2."""
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going "
                           "to differentiate through linalg.qr.")
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.")
    if m >= n:
        return _qr_backward_tall(gQ, gR, Q, R)
    R1, R2, gR1, gR2 = R[..., :m], R[..., m:], gR[..., :m], gR[..., m:]
    gX = _qr_backward_tall(gQ + Q.matmul(R2).matmul(gR2.mH), gR1, Q, R1)
    return at.cat([gX, Q.matmul(gR2)], -1)


def _qr_backward_tall(gQ, gR, Q, R):
    M = gR.matmul(R.mH) - Q.mH.matmul(gQ)
    upper = M.triu()
    copied = upper + upper.mH
    copied = copied - at.diag_embed(upper.diagonal(0, -2, -1).real.to(copied.dtype))
    gA = Q.matmul(copied) + gQ
    return linalg_solve_triangular.call(R.mH, gA, False, False, False)


@op("linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)", meta=_qr_meta,
    out=True, python_module="linalg",
    grad={"A": "qr_backward(grads[0], grads[1], Q, R, mode)"})
def linalg_qr(A, mode, *, out):
    """The QR decomposition ``A = Q R``: Q with orthonormal columns, R upper triangular.
    `mode`: 'reduced' (k = min(m, n) columns of Q), 'complete' (square Q) or 'r' (R only,
    Q empty).

    Example::

        >>> torch.linalg.qr(torch.tensor([[3., 1.], [4., 2.]])).R
        tensor([[-5.0000, -2.2000],
                [ 0.0000,  0.4000]])
    """
    Q, R = out
    if A.size == 0:
        if mode != "r":
            Q[...] = np.eye(*Q.shape[-2:])
        R[...] = 0
        return
    if mode == "r":
        np.copyto(R, np.linalg.qr(A, mode="r"))
        return
    found_q, found_r = np.linalg.qr(A, mode=mode)
    np.copyto(Q, found_q)
    np.copyto(R, found_r)


@register_meta(linalg_qr)
def _qr_meta_key(A, mode="reduced", out=None):
    return _qr_meta(A, mode, out, python_words=True)


@composite("qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)", method=True, out=True,
           out_overload="Q")
def qr(self, some=True, Q=None, R=None):
    """The QR decomposition (`torch.linalg.qr`'s predecessor): reduced when `some`,
    complete otherwise.

    Example::

        >>> torch.qr(torch.tensor([[3., 1.], [4., 2.]])).R
        tensor([[-5.0000, -2.2000],
                [ 0.0000,  0.4000]])
    """
    _warn_once(_QR_WARNING)
    return written_outs(linalg_qr.call(self, "reduced" if some else "complete"), (Q, R),
                        ops.aten.qr.Q)


_QR_WARNING = (
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
    "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
    "Q, R = torch.qr(A, some)\nshould be replaced with\n"
    "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')")


# ----------------------------------------------------------------------------------
# linalg_householder_product, orgqr, ormqr
# ----------------------------------------------------------------------------------
def _reflector(input, i: int):
    """v_i: zeros above row i, 1 at row i, input's column i below, batched."""
    column = input[..., i + 1:, i]
    head = input.new_zeros(tuple(input.shape[:-2]) + (i,))
    one = input.new_ones(tuple(input.shape[:-2]) + (1,))
    return at.cat([head, one, column], -1)


def _apply(C, v, tau_i, left: bool, adjoint: bool):
    """``H C`` (``C H`` unless `left`) for ``H = I - tau v v^H`` (its adjoint if asked)."""
    scale = (tau_i.conj() if adjoint else tau_i).unsqueeze(-1).unsqueeze(-1)
    if left:
        return C - scale * v.unsqueeze(-1).matmul(v.conj().unsqueeze(-2).matmul(C))
    return C - scale * C.matmul(v.unsqueeze(-1)).matmul(v.conj().unsqueeze(-2))


def _column_major(t):
    """`t` copied into a batch of column-major matrices, as LAPACK (and torch) leave it."""
    shape = tuple(t.shape)
    return at.empty_strided(shape, column_major_strides(shape), dtype=t.dtype,
                            device=t.device).copy_(t)


def _check_householder(name: str, input, tau) -> None:
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if input.shape[-2] < input.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           f"input.shape[-1]")
    if input.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           f"tau.shape[-1]")
    if tau.dtype != input.dtype:
        raise RuntimeError(f"{name}: tau dtype {scalar_type_name(tau.dtype)} does not match "
                           f"input dtype {scalar_type_name(input.dtype)}")


@composite("linalg_householder_product(Tensor input, Tensor tau) -> Tensor", out=True,
           python_module="linalg")
def linalg_householder_product(input, tau, out=None):
    """The first n columns of ``H_0 ... H_{k-1}`` from Householder vectors (stored below
    `input`'s diagonal, geqrf's storage) and their scalars `tau`.

    Example::

        >>> a, tau = torch.geqrf(torch.tensor([[3., 1.], [4., 2.]]))
        >>> torch.linalg.householder_product(a, tau)
        tensor([[-0.6000, -0.8000],
                [-0.8000,  0.6000]])
    """
    _check_householder("torch.linalg.householder_product", input, tau)
    m, n = input.shape[-2:]
    Q = at.eye(m, n, dtype=input.dtype, device=input.device).expand(tuple(input.shape)).clone()
    for i in reversed(range(tau.shape[-1])):
        Q = _apply(Q, _reflector(input, i), tau[..., i], True, False)
    return castable_out(_column_major(Q), out, ops.aten.linalg_householder_product.out,
                        "torch.linalg.householder_product")


@composite("orgqr(Tensor self, Tensor input2) -> Tensor", method=True, out=True)
def orgqr(self, input2, out=None):
    """`torch.linalg.householder_product` (LAPACK's name).

    Example::

        >>> a, tau = torch.geqrf(torch.tensor([[3., 1.], [4., 2.]]))
        >>> torch.orgqr(a, tau)
        tensor([[-0.6000, -0.8000],
                [-0.8000,  0.6000]])
    """
    return castable_out(linalg_householder_product.call(self, input2), out, ops.aten.orgqr.out,
                        "torch.linalg.householder_product")


def _check_ormqr(input, tau, other, left: bool) -> None:
    """torch's refusals, in its order: ranks, then the sizes the product needs."""
    for name, t in (("input", input), ("other", other)):
        if t.dim() < 2:
            raise RuntimeError(f"torch.ormqr: {name} must have at least 2 dimensions.")
    axis = -2 if left else -1
    if other.shape[axis] != input.shape[-2]:
        raise RuntimeError(f"torch.ormqr: other.shape[{axis}] must be equal to input.shape[-2]")
    if tau.dim() < 1 or tau.shape[-1] != min(other.shape[axis], input.shape[-1]):
        raise RuntimeError(f"torch.ormqr: tau.shape[-1] must be equal to "
                           f"min(other.shape[{axis}], input.shape[-1])")


@composite("ormqr(Tensor self, Tensor input2, Tensor input3, bool left=True, "
           "bool transpose=False) -> Tensor", method=True, out=True)
def ormqr(self, input2, input3, left=True, transpose=False, out=None):
    """``op(Q) C`` (``C op(Q)`` unless `left`) for the Q of geqrf's storage `input` and
    scalars `tau` (`input2`), without forming Q; op is the adjoint when `transpose`.

    Example::

        >>> a, tau = torch.geqrf(torch.tensor([[3., 1.], [4., 2.]]))
        >>> torch.ormqr(a, tau, torch.eye(2))
        tensor([[-0.6000, -0.8000],
                [-0.8000,  0.6000]])
    """
    C = input3
    _check_ormqr(self, input2, C, left)
    k = input2.shape[-1] if C.numel() else 0          # nothing to reflect: no gradient
    order = range(k) if transpose == left else reversed(range(k))
    for i in order:
        C = _apply(C, _reflector(self, i), input2[..., i], left, transpose)
    result = _column_major(C)
    if out is not None and out.dtype != result.dtype:
        raise RuntimeError(f"torch.ormqr: Expected input and result to have the same dtype, but "
                           f"input has dtype{scalar_type_name(self.dtype)} and result has dtype "
                           f"{scalar_type_name(out.dtype)}")
    return castable_out(result, out, ops.aten.ormqr.out, "torch.ormqr")
