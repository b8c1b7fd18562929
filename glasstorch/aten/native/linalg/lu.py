"""The LU factorization with partial pivoting, as LAPACK's getrf stores it: one matrix LU
holding L's strict lower triangle (its unit diagonal implied) and U, and the 1-based
`pivots`, the row each row i was swapped with, in order.

`lu_factor_into` is shared by the operators that report a factorization (`_linalg_det`,
`_linalg_slogdet`, `_linalg_solve_ex`, `linalg_lu_factor_ex`). SciPy's `lu` factors a
whole batch in one compiled loop (getrf underneath) and returns the permutation as row
indices; `swaps_from_permutation` turns those back into getrf's swaps, looping over the
n rows, never over the batch.
"""
from __future__ import annotations

import numpy as np

from .lapack import scipy_linalg
from .triangular import solve_triangular_into


def swaps_from_permutation(perm: np.ndarray) -> np.ndarray:
    """getrf's 1-based pivots for row permutations `perm` (``PA = A[perm]``), batched
    over the leading dims: the swaps that, applied in order, bring row ``perm[i]`` to i."""
    n = perm.shape[-1]
    batch = perm.shape[:-1]
    rows = np.broadcast_to(np.arange(n), batch + (n,)).copy()   # row now at each position
    where = rows.copy()                                          # position of each row
    pivots = np.empty(batch + (n,), dtype=np.int32)
    for i in range(n):
        wanted = perm[..., i:i + 1]
        j = np.take_along_axis(where, wanted, -1)
        pivots[..., i] = j[..., 0] + 1
        displaced = rows[..., i:i + 1].copy()
        np.put_along_axis(rows, j, displaced, -1)
        np.put_along_axis(rows, np.full_like(j, i), wanted, -1)
        np.put_along_axis(where, displaced, j, -1)
        np.put_along_axis(where, wanted, np.full_like(j, i), -1)
    return pivots


def lu_factor_into(A: np.ndarray, LU: np.ndarray, pivots: np.ndarray,
                   info: np.ndarray | None = None) -> None:
    """Factor the batch `A` (m x n) into `LU` and `pivots` (min(m, n) each), and write
    getrf's code per matrix into `info` (k > 0: ``U[k-1, k-1]`` is exactly zero)."""
    m, n = A.shape[-2:]
    k = min(m, n)
    if A.size == 0:
        pivots[...] = np.arange(1, k + 1, dtype=np.int32)
        if info is not None:
            info.fill(0)
        return
    perm, lower, upper = scipy_linalg().lu(A, p_indices=True, check_finite=False)
    LU[...] = 0
    LU[..., :k, :] = upper
    strict = np.tril(lower, -1)
    LU[..., :, :k] += strict
    order = np.argsort(perm, axis=-1)            # SciPy: A = L[perm] U, so A[order] = L U
    pivots[...] = swaps_from_permutation(order)[..., :k]
    if info is not None:
        zero = np.einsum("...ii->...i", upper[..., :k, :k]) == 0
        info[...] = np.where(zero.any(-1), zero.argmax(-1) + 1, 0)


def unpack_into(LU: np.ndarray, pivots: np.ndarray, P, L, U) -> None:
    """Split getrf's storage into P (from the swaps), unit-lower L and upper U; each
    None when not asked for."""
    m, n = LU.shape[-2:]
    k = min(m, n)
    if L is not None:
        L[...] = np.tril(LU[..., :, :k], -1) + np.eye(m, k, dtype=L.dtype)
        U[...] = np.triu(LU[..., :k, :])
    if P is not None:
        P[...] = np.swapaxes(permutation_matrix(pivots, m, P.dtype), -1, -2)


def permutation_matrix(pivots: np.ndarray, m: int, dtype) -> np.ndarray:
    """The m x m matrix Q with ``Q A = A[order]``, the rows in the order getrf's swaps
    leave them (so ``A = Q^T L U``), batched over pivots' leading dims."""
    batch = pivots.shape[:-1]
    order = np.broadcast_to(np.arange(m), batch + (m,)).copy()
    for i in range(pivots.shape[-1]):
        j = pivots[..., i:i + 1].astype(np.intp) - 1
        row_i = order[..., i:i + 1].copy()
        np.put_along_axis(order, np.full_like(j, i), np.take_along_axis(order, j, -1), -1)
        np.put_along_axis(order, j, row_i, -1)
    return np.eye(m, dtype=dtype)[order]


def lu_solve_into(LU: np.ndarray, pivots: np.ndarray, B: np.ndarray, left: bool,
                  adjoint: bool, out: np.ndarray) -> None:
    """``out = op(A)^{-1} B`` (or ``B op(A)^{-1}`` unless `left`) from A's factorization
    ``A = P L U``: a permutation and two triangular solves, batched (Note [Batched LAPACK])."""
    if not left:                  # X A = B: conj(X^T) solves A^H Y = B^H (the other op)
        Y = np.empty(np.swapaxes(out, -1, -2).shape, out.dtype)
        lu_solve_into(LU, pivots, np.swapaxes(B, -1, -2).conj(), True, not adjoint, Y)
        np.copyto(out, np.swapaxes(Y, -1, -2).conj())
        return
    n = LU.shape[-1]
    batch = out.shape[:-2]
    Q = permutation_matrix(np.broadcast_to(pivots, batch + pivots.shape[-1:]), n, out.dtype)
    LU = np.broadcast_to(LU, batch + (n, n))
    half = np.empty_like(out)
    if adjoint:                   # A^H = U^H L^H Q: U^H is lower, L^H unit upper
        solve_triangular_into(np.swapaxes(LU, -1, -2).conj(), B, False, True, False, half)
        solve_triangular_into(np.swapaxes(LU, -1, -2).conj(), half, True, True, True, half)
        np.copyto(out, np.swapaxes(Q, -1, -2) @ half)
        return
    solve_triangular_into(LU, Q @ B, False, True, True, half)
    solve_triangular_into(LU, half, True, True, False, out)
