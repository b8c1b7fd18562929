"""A covariance given one of three ways: as a matrix, as its inverse (the precision
matrix) or as its lower Cholesky factor, as MultivariateNormal and Wishart take it.

The given matrix is kept (broadcast) under its own name and the other two are lazy
properties; every computation goes through the Cholesky factor of the unbroadcast
matrix (`_unbroadcasted_scale_tril`), the cheapest form to solve and sample with.
"""
from __future__ import annotations

import glasstorch as torch

# the order in which `expand` carries the given matrices over
_MATRIX_NAMES = ("covariance_matrix", "scale_tril", "precision_matrix")


def _given_matrix(error: type, **matrices) -> tuple:
    """The (name, matrix) of the one matrix that is not None; `error` (the class
    torch raises, which differs between distributions) when not exactly one is."""
    given = [(name, matrix) for name, matrix in matrices.items() if matrix is not None]
    if len(given) != 1:
        raise error("Exactly one of covariance_matrix or precision_matrix or "
                    "scale_tril may be specified.")
    return given[0]


def _precision_to_scale_tril(P):
    """The lower Cholesky factor of P^{-1}, from the Cholesky factor of P with its
    rows and columns reversed (no inverse of P is formed)."""
    Lf = torch.linalg.cholesky(torch.flip(P, (-2, -1)))
    L_inv = torch.transpose(torch.flip(Lf, (-2, -1)), -2, -1)
    identity = torch.eye(P.shape[-1], dtype=P.dtype, device=P.device)
    return torch.linalg.solve_triangular(L_inv, identity, upper=False)


def _scale_tril_of(name: str, matrix):
    """The lower Cholesky factor of the covariance given as `name`."""
    if name == "scale_tril":
        return matrix
    if name == "covariance_matrix":
        return torch.linalg.cholesky(matrix)
    return _precision_to_scale_tril(matrix)


def _expand_given_matrices(distribution, new, matrix_shape) -> None:
    """Give `new` the covariance matrices `distribution` holds (the given one, and
    those computed so far), expanded to `matrix_shape`."""
    for name in _MATRIX_NAMES:
        if name in distribution.__dict__:
            setattr(new, name, getattr(distribution, name).expand(matrix_shape))
