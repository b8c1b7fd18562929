"""The linear algebra functions torch removed in 1.9 and still names (torch.eig, lstsq,
matrix_rank, solve, symeig, and their Tensor methods): each raises torch's message, which
says what replaces it. Plain Python functions, as torch's are."""
from __future__ import annotations

_REMOVED = "This function was deprecated since version 1.9 and is now removed. "

_EIG = (_REMOVED + "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = torch.linalg.eig(A)")
_LSTSQ = (_REMOVED + "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
          "`torch.linalg.lstsq` has reversed arguments and does not return the QR "
          "decomposition in the returned tuple (although it returns other information about "
          "the problem).\n\nTo get the QR decomposition consider using `torch.linalg.qr`.\n\n"
          "The returned solution in `torch.lstsq` stored the residuals of the solution in the "
          "last m - n columns of the returned value whenever m > n. In torch.linalg.lstsq, the "
          "residuals are in the field 'residuals' of the returned named tuple.\n\nThe unpacking "
          "of the solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be "
          "replaced with:\nX = torch.linalg.lstsq(A, B).solution")
_MATRIX_RANK = (_REMOVED.rstrip() + "\nPlease use the `torch.linalg.matrix_rank` function instead. The "
                "parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` to "
                "'hermitian'.")
_SOLVE = (_REMOVED + "`torch.solve` is deprecated in favor of `torch.linalg.solve`. "
          "`torch.linalg.solve` has its arguments reversed and does not return the LU "
          "factorization.\n\nTo get the LU factorization see `torch.lu`, which can be used with "
          "`torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be "
          "replaced with:\nX = torch.linalg.solve(A, B)")
_SYMEIG = (_REMOVED + "The default behavior has changed from using the upper triangular portion "
           "of the matrix by default to using the lower triangular portion.\n\nL, _ = "
           "torch.symeig(A, upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, "
           "UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) "
           "should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


def eig(self, eigenvectors: bool = False, *, e=None, v=None):
    """Removed: `torch.linalg.eig` / `eigvals` replace it (raises, saying so)."""
    raise RuntimeError(_EIG)


def lstsq(input, A, *, out=None):
    """Removed: `torch.linalg.lstsq` replaces it (raises, saying so)."""
    raise RuntimeError(_LSTSQ)


def matrix_rank(input, tol=None, symmetric: bool = False, *, out=None):
    """Removed: `torch.linalg.matrix_rank` replaces it (raises, saying so)."""
    raise RuntimeError(_MATRIX_RANK)


def solve(input, A, *, out=None):
    """Removed: `torch.linalg.solve` replaces it (raises, saying so)."""
    raise RuntimeError(_SOLVE)


def symeig(input, eigenvectors: bool = False, upper: bool = True, *, out=None):
    """Removed: `torch.linalg.eigh` / `eigvalsh` replace it (raises, saying so)."""
    raise RuntimeError(_SYMEIG)
