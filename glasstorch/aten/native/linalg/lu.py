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
