"""Decompositions' vectors compared up to the freedom torch documents them to have.

Note [Vectors up to their gauge]
    A singular vector or an eigenvector is unique only up to a factor of modulus one (a
    sign for real matrices), the columns completing a square U or V of a full SVD only
    up to a unitary mixing of their span, and `linalg.eig`'s eigenvalues come in no
    promised order (torch's documentation says all three). Which choice LAPACK makes
    depends on the build: NumPy's OpenBLAS here, MKL in torch's wheel. So before the
    values harness compares the results of the records in `GAUGED`, glasstorch's vectors
    are turned onto torch's: eig's eigenvalues (with their vectors) put in torch's order,
    each vector multiplied by the phase that best matches torch's, the completing columns
    projected onto torch's. Only that freedom is removed: a vector outside torch's line
    (a span outside torch's span) still differs after the turn, and the singular values
    and eigenvalues are compared as they come. A singular pair shares one phase: it is
    read off the left vector and applied to both, so a right vector of the wrong sign
    still fails.

The gradient harness needs none of this: it applies each sample's own
`output_process_fn_grad`, which torch's gradient tests use to read only what the
gauge leaves fixed.
"""
from __future__ import annotations


def _phases(ours, theirs):
    """Per column of `ours`, the unit factor turning it closest onto `theirs`'s column
    (1 where the two are orthogonal, a zero column among them)."""
    inner = (ours.conj() * theirs).sum(-2, keepdim=True)
    size = inner.abs()
    return (inner / size.clamp_min(1e-30)).where(size > 0, 1)


def _onto_span(ours, theirs):
    """`ours`'s columns replaced by the projection of `theirs`'s onto their span: equal
    to `theirs` exactly when both sets of orthonormal columns span one space."""
    return ours @ (ours.mH @ theirs)


def _svd_turned(U, V, theirs_U, theirs_V, k: int) -> tuple:
    """U and V (vectors in columns) turned onto torch's: one phase per singular pair,
    the columns past the k-th (a full SVD's completion) projected onto torch's."""
    if U.numel() == 0 or V.numel() == 0 or k == 0:
        return U, V
    phase = _phases(U[..., :k], theirs_U[..., :k])
    U = _joined(U[..., :k] * phase, U[..., k:], theirs_U[..., k:])
    V = _joined(V[..., :k] * phase, V[..., k:], theirs_V[..., k:])
    return U, V


def _joined(first, rest, theirs_rest):
    import torch
    if rest.shape[-1] == 0:
        return first
    return torch.cat([first, _onto_span(rest, theirs_rest)], -1)


def _svd(expected, actual, vh: bool) -> tuple:
    """(U, S, V or Vh) of glasstorch turned onto torch's (`vh`: the third result is V^H)."""
    U, S, V = actual
    k = S.shape[-1]
    theirs_V = expected[2].mH if vh else expected[2]
    U, V = _svd_turned(U, V.mH if vh else V, expected[0], theirs_V, k)
    return U, S, V.mH if vh else V


def _eigh(expected, actual) -> tuple:
    L, Q = actual
    return L, Q * _phases(Q, expected[1]) if Q.numel() else Q


def _torch_order(theirs, ours):
    """Indices putting `ours` (eigenvalues, batched) in the order of `theirs`: each of
    torch's takes the nearest of glasstorch's not yet taken."""
    import torch
    order = torch.empty(ours.shape, dtype=torch.long)
    flat_t, flat_o = theirs.reshape(-1, theirs.shape[-1]), ours.reshape(-1, ours.shape[-1])
    flat = order.view(-1, ours.shape[-1])
    for row, (t, o) in enumerate(zip(flat_t, flat_o)):
        free = list(range(o.shape[0]))
        for i, value in enumerate(t):
            j = min(free, key=lambda c: abs(complex(o[c]) - complex(value)))
            free.remove(j)
            flat[row, i] = j
    return order


def _eig(expected, actual) -> tuple:
    L, V = actual
    if L.numel() == 0:
        return L, V
    order = _torch_order(expected[0], L)
    L = L.gather(-1, order)
    V = V.gather(-1, order.unsqueeze(-2).expand(V.shape))
    return L, V * _phases(V, expected[1])


def _eigvals(expected, actual):
    if actual.numel() == 0:
        return actual
    return actual.gather(-1, _torch_order(expected, actual))


# record name -> how glasstorch's results (as torch tensors) are turned onto torch's
GAUGED = {"svd": lambda e, a: _svd(e, a, vh=False),
          "linalg.svd": lambda e, a: _svd(e, a, vh=True),
          "svd_lowrank": lambda e, a: _svd(e, a, vh=False),
          "pca_lowrank": lambda e, a: _svd(e, a, vh=False),
          "linalg.eigh": _eigh, "linalg.eig": _eig, "linalg.eigvals": _eigvals}


def turned(name: str, expected, actual, to_torch, to_glasstorch):
    """glasstorch's `actual` result of record `name` with its vectors turned onto torch's
    `expected` (Note [Vectors up to their gauge]); as it is for other records, or when the
    shapes disagree (the comparison reports that)."""
    turn = GAUGED.get(name)
    if turn is None or not _same_shapes(expected, actual):
        return actual
    ours = [to_torch(t) for t in actual] if isinstance(actual, (tuple, list)) \
        else to_torch(actual)
    found = turn(expected, ours)
    if isinstance(found, (tuple, list)):
        return tuple(to_glasstorch(t) for t in found)
    return to_glasstorch(found)


def _same_shapes(expected, actual) -> bool:
    if isinstance(expected, (tuple, list)):
        return isinstance(actual, (tuple, list)) and len(actual) == len(expected) and all(
            _same_shapes(e, a) for e, a in zip(expected, actual))
    return hasattr(actual, "shape") and tuple(actual.shape) == tuple(expected.shape) \
        and str(actual.dtype) == str(expected.dtype)
