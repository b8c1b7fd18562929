"""Randomized low-rank decompositions: torch.svd_lowrank and torch.pca_lowrank, plain
Python over the operators, as torch's are (they differentiate through qr and svd).

The method is the randomized range finder of Halko, Martinsson and Tropp (2009): the
range of A is sketched by A applied to q random Gaussian vectors, sharpened by `niter`
power iterations (each re-orthonormalized by a QR decomposition), and the SVD of the
small projection ``Q^H A`` lifts back to A's. The random draws are `torch.randn`'s, so a
seeded program gets torch's numbers.
"""
from __future__ import annotations

from ... import functions as at
from .qr import linalg_qr
from .svd import linalg_svd


def _orthonormal(X):
    return linalg_qr.call(X, "reduced")[0]


def _range_basis(A, q: int, niter: int, M=None):
    """An orthonormal basis Q (n x q) approximately spanning A's range, A - M's if M."""
    def product(left, right, adjoint: bool = False):
        left = left.mH if adjoint else left
        result = left.matmul(right)
        if M is not None:
            result = result - (M.mH if adjoint else M).matmul(right)
        return result
    sketch = at.randn(A.shape[-1], q, dtype=A.dtype, device=A.device)
    Q = _orthonormal(product(A, sketch))
    for _ in range(niter):
        Q = _orthonormal(product(A, Q, adjoint=True))
        Q = _orthonormal(product(A, Q))
    return Q


def svd_lowrank(A, q: int | None = 6, niter: int | None = 2, M=None):
    """An approximate rank-q SVD of A (of ``A - M`` when M is given): ``(U, S, V)`` with
    ``A ~ U diag(S) V^H``, by a randomized range finder and `niter` power iterations.

    Args:
        A (Tensor): ``(*, m, n)``.
        q (int, optional): the rank sought (a slight overestimate is advisable).
        niter (int, optional): power iterations (more: more accurate, slower).
        M (Tensor, optional): subtracted from A (broadcast to its shape).

    Returns:
        (Tensor, Tensor, Tensor): U ``(*, m, q)``, S ``(*, q)``, V ``(*, n, q)``.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> U, S, V = torch.svd_lowrank(torch.eye(4)[:, :2] @ torch.ones(2, 3), q=2)
        >>> S.round(decimals=4)
        tensor([2.4495, 0.0000])
    """
    q = 6 if q is None else q
    niter = 2 if niter is None else niter
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(tuple(A.shape))
    wide = m < n
    if wide:                              # sketch the smaller side: work on A^H
        A = A.mH
        M = None if M is None else M.mH
    Q = _range_basis(A, q, niter, M)
    projected = Q.mH.matmul(A) if M is None else Q.mH.matmul(A - M)
    U, S, Vh = linalg_svd.call(projected, False, None)
    U, V = Q.matmul(U), Vh.mH
    return (V, S, U) if wide else (U, S, V)


def pca_lowrank(A, q: int | None = None, center: bool = True, niter: int = 2):
    """The principal components of the rows of A: svd_lowrank of A with its column
    means removed (`center`).

    Args:
        A (Tensor): ``(*, m, n)``, m samples of n features.
        q (int, optional): components sought (default ``min(6, m, n)``).
        center (bool): subtract the column means first.
        niter (int): power iterations.

    Returns:
        (Tensor, Tensor, Tensor): ``(U, S, V)`` as svd_lowrank's.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> U, S, V = torch.pca_lowrank(torch.tensor([[1., 2.], [3., 4.], [5., 7.]]), q=1)
        >>> V.shape
        torch.Size([2, 1])
    """
    m, n = A.shape[-2:]
    q = min(6, m, n) if q is None else q
    if not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if niter < 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return svd_lowrank(A, q, niter=niter)
    mean = A.mean(dim=-2, keepdim=True)
    return svd_lowrank(A - mean, q, niter=niter)
