"""torch.lobpcg: a few extreme eigenpairs of a symmetric (generalized) eigenproblem
``A x = lambda B x`` by the Locally Optimal Block Preconditioned Conjugate Gradient
method, written in torch operators as torch's is.

Each step runs Rayleigh-Ritz on the search basis ``S = [X, P, W]`` (the current
eigenvector estimates, the previous step's direction, the preconditioned residuals),
keeps the best `n` Ritz vectors and locks the leading ones whose backward-stable
residual ``|A x - e B x| / (|x| (|A| + |e| |B|))`` is below `tol` (Duersch, Shao, Yang
and Gu, 2018). "basic" makes the basis B-orthonormal by a Cholesky factor of
``S^T B S`` (Knyazev, 2001); "ortho" orthonormalizes the new residual block against the
rest by repeated SVQB sweeps (Stathopoulos and Wu, 2002), the robust choice.

The backward pass (Note [lobpcg backward]) differentiates the returned eigenpairs of
the symmetrized A; B must be None there, as in torch.
"""
from __future__ import annotations

from typing import Callable

import glasstorch as torch

__all__ = ["lobpcg"]

# sqrt of these is the default `tol`: the dtypes torch's lobpcg accepts
_EPSILON = {torch.float32: 1.2e-07, torch.float64: 2.23e-16}


def _mm(M, Y):
    """``M @ Y``, with None standing for the identity (B and iK default to it)."""
    return Y if M is None else torch.matmul(M, Y)


def _quadratic(M, S):
    """``S^T M S``."""
    return torch.matmul(S.mT, _mm(M, S))


def _eigh(M, largest: bool = False):
    """Eigenpairs of the symmetric M, ascending, or descending when `largest`."""
    E, Z = torch.linalg.eigh(M, UPLO="U")
    return (E.flip(-1), Z.flip(-1)) if largest else (E, Z)


class LOBPCG:
    """The iteration's state; a `tracker` receives it after every step.

    Its dicts hold the parameters (`iparams`, `fparams`, `bparams`: int, float, bool)
    and the running variables (`ivars`: ``istep``, ``converged_count``, ...; `fvars`,
    `bvars`: a tracker may set ``bvars["force_stop"] = True``; `tvars`: ``rerr``, the
    convergence measure per pair); `E`, `X`, `S`, `R` are the eigenvalues, eigenvectors,
    search basis and residuals so far.
    """

    def __init__(self, A, B, X, iK, iparams: dict, fparams: dict, bparams: dict,
                 method: str, tracker: Callable | None) -> None:
        self.A, self.B, self.iK = A, B, iK
        self.iparams, self.fparams, self.bparams = iparams, fparams, bparams
        self.method, self.tracker = method, tracker
        m, n = iparams["m"], iparams["n"]
        self.X = X
        self.E = torch.zeros((n,), dtype=X.dtype, device=X.device)
        self.R = torch.zeros((m, n), dtype=X.dtype, device=X.device)
        self.S = torch.zeros((m, 3 * n), dtype=X.dtype, device=X.device)
        self.tvars: dict = {}
        self.ivars: dict = {"istep": 0}
        self.fvars: dict = {"_": 0.0}
        self.bvars: dict = {"_": False}

    def __str__(self) -> str:
        names = ("iparams", "fparams", "bparams", "ivars", "fvars", "bvars", "tvars", "A",
                 "B", "iK", "X", "E")
        return "LOBPCG:\n" + "".join(f"  {name}={getattr(self, name)}\n" for name in names)

    def run(self) -> None:
        """Step until `k` pairs converge, `niter` steps are done or a tracker stops it."""
        self.update()
        self.call_tracker()
        while not self.stop_iteration():
            self.update()
            self.call_tracker()

    def call_tracker(self) -> None:
        if self.tracker is not None:
            self.tracker(self)

    def stop_iteration(self) -> bool:
        return (self.bvars.get("force_stop", False) or self.ivars["iterations_left"] == 0
                or self.ivars["converged_count"] >= self.iparams["k"])

    def update(self) -> None:
        """One step (the first also measures A and B on X, for the convergence test)."""
        if self.ivars["istep"] == 0:
            X_norm = float(torch.norm(self.X))
            self.fvars["X_norm"] = X_norm
            self.fvars["A_norm"] = float(torch.norm(_mm(self.A, self.X))) / X_norm
            self.fvars["B_norm"] = float(torch.norm(_mm(self.B, self.X))) / X_norm
            self.ivars.update(iterations_left=self.iparams["niter"], converged_count=0,
                              converged_end=0)
        if self.method == "ortho":
            self._step_ortho()
        else:
            self._step_basic()
        self.ivars["iterations_left"] -= 1
        self.ivars["istep"] += 1

    def update_residual(self) -> None:
        self.R = _mm(self.A, self.X) - _mm(self.B, self.X) * self.E

    def update_converged_count(self) -> int:
        """How many leading pairs meet the backward-stable test; the count never falls."""
        A_norm, B_norm = self.fvars["A_norm"], self.fvars["B_norm"]
        E = self.E[:self.X.shape[-1]]
        scale = torch.norm(self.X, 2, (0,)) * (A_norm + E.abs() * B_norm)
        rerr = torch.norm(self.R, 2, (0,)) / scale
        count = 0
        for converged in (rerr < self.fparams["tol"]).tolist():   # a prefix: keeps the order
            if not converged:
                break
            count += 1
        previous = self.ivars["converged_count"]
        if count < previous:
            raise AssertionError(f"the number of converged eigenpairs (was {previous}, got "
                                 f"{count}) cannot decrease")
        self.ivars["converged_count"] = count
        self.tvars["rerr"] = rerr
        return count

    def _extend_basis(self, P, residuals: Callable) -> None:
        """S = [X, P, W] with W = residuals(the columns before it); `converged_end` marks
        where S's live columns end."""
        n, np = self.iparams["n"], P.shape[-1]
        self.S[:, :n] = self.X
        self.S[:, n:n + np] = P
        W = residuals(self.S[:, :n + np])
        end = self.ivars["converged_end"] = n + np + W.shape[-1]
        self.S[:, n + np:end] = W

    def _step_basic(self) -> None:
        n, largest = self.iparams["n"], self.bparams["largest"]
        locked, end = self.ivars["converged_count"], self.ivars["converged_end"]
        first = self.ivars["istep"] == 0
        S = self.X if first else self.S[:, locked:end]
        Ri = self._rayleigh_ritz_transform(S)
        E, Z = _eigh(_quadratic(_quadratic(self.A, S), Ri), largest)
        C = torch.matmul(Ri, Z)
        if first:       # in place: as torch's, a caller's X holds the first Ritz vectors
            self.X[:] = torch.matmul(S, C)
            self.E[:] = E
            P = S[:, :0]
        else:
            self.X[:, locked:] = torch.matmul(S, C[:, :n - locked])
            self.E[locked:] = E[:n - locked]
            P = torch.matmul(S, C[:, n:2 * n - locked])
        self.update_residual()
        locked = self.update_converged_count()
        R = self.R if first else self.R[:, locked:]
        self._extend_basis(P, lambda _: _mm(self.iK, R))

    def _step_ortho(self) -> None:
        n, largest = self.iparams["n"], self.bparams["largest"]
        locked, end = self.ivars["converged_count"], self.ivars["converged_end"]
        if self.ivars["istep"] == 0:
            Ri = self._rayleigh_ritz_transform(self.X)
            _, Z = _eigh(_quadratic(_quadratic(self.A, self.X), Ri), largest)
            self.X = torch.matmul(self.X, torch.matmul(Ri, Z))   # E stays 0 until step 1
            self.update_residual()
            self.update_converged_count()
            self._extend_basis(self.X[:, :0], lambda V: self._orthogonalized(self.R, V))
            return
        S = self.S[:, locked:end]                     # B-orthonormal by construction
        E, Z = _eigh(_quadratic(self.A, S), largest)
        live = n - locked
        self.X[:, locked:] = torch.matmul(S, Z[:, :live])
        self.E[locked:] = E[:live]
        # the direction: the rest of the Ritz space, turned to leave X's part orthogonal
        turn = torch.linalg.qr(Z[:live, live:].mT).Q
        P = torch.matmul(S, torch.matmul(Z[:, live:], turn))
        self.update_residual()
        locked = self.update_converged_count()
        R = self.R[:, locked:]
        self._extend_basis(P, lambda V: self._orthogonalized(R, V))

    def _rayleigh_ritz_transform(self, S):
        """Ri with ``Ri^T S^T B S Ri = I``: the inverse of the Cholesky factor of the
        diagonally scaled ``S^T B S``, the scaling folded back in."""
        SBS = _quadratic(self.B, S)
        d = SBS.diagonal(0, -2, -1) ** -0.5
        R = torch.linalg.cholesky((SBS * d) * d.reshape(-1, 1), upper=True)
        return torch.linalg.solve_triangular(R, d.diag_embed(), upper=True, left=False)

    def _svqb(self, U, drop: bool, tau: float):
        """U with B-orthonormal columns (Duersch's algorithm 4); with `drop`, the columns
        adding less than `tau` to U's span are left out, else their weight is raised."""
        if U.numel() == 0:
            return U
        UBU = _quadratic(self.B, U)
        d = UBU.diagonal(0, -2, -1)
        nonzero = torch.where(d.abs() != 0.0)[0]
        if len(nonzero) < len(d):                   # zero columns have no direction
            U = U[:, nonzero]
            if U.numel() == 0:
                return U
            UBU = _quadratic(self.B, U)
            d = UBU.diagonal(0, -2, -1)
        scale = (d ** -0.5).reshape(-1, 1)
        E, Z = _eigh((UBU * scale) * scale.mT)
        floor = tau * E.abs().max()
        if drop:
            keep = torch.where(E > floor)[0]
            E, Z, scale = E[keep], Z[:, keep], scale[keep]
        else:
            E[torch.where(E < floor)[0]] = floor
        return torch.matmul(U * scale.mT, Z * E ** -0.5)

    def _orthogonalized(self, U, V):
        """U's columns made B-orthonormal and B-orthogonal to V's (Duersch's algorithms 3
        and, with ``ortho_use_drop``, 6); empty when U lies in V's span."""
        tau, i_max = self.fparams["ortho_tol"], self.iparams["ortho_i_max"]
        for key in [k for k in self.fvars if k.startswith("ortho_") and k.endswith("_rerr")]:
            del self.fvars[key]
        self.ivars.pop("ortho_i", 0)
        self.ivars.pop("ortho_j", 0)
        BV_norm = torch.norm(_mm(self.B, V))
        VBU = torch.matmul(V.mT, _mm(self.B, U))
        i = j = 0
        for i in range(i_max):
            U = U - torch.matmul(V, VBU)
            U, BU, j = self._orthonormal_sweeps(U, i)
            if U.numel() == 0:
                break
            VBU = torch.matmul(V.mT, BU)
            rerr = float(torch.norm(VBU)) * float(BV_norm * torch.norm(U)) ** -1
            self.fvars[f"ortho_VBU_rerr[{i}]"] = rerr
            if rerr < tau:
                break
            if self.iparams["m"] < U.shape[-1] + V.shape[-1]:
                if self.B is None:          # torch's check reads B's width
                    raise AssertionError("B must not be None")
                raise ValueError(f"Overdetermined shape of U: #B-cols(={self.B.shape[-1]}) >= "
                                 f"#U-cols(={U.shape[-1]}) + #V-cols(={V.shape[-1]}) must hold")
        self.ivars["ortho_i"], self.ivars["ortho_j"] = i, j
        return U

    def _orthonormal_sweeps(self, U, i: int):
        """Up to ``ortho_j_max`` SVQB sweeps over U, until ``U^T B U`` is near I:
        (U, B U, the last sweep's index)."""
        use_drop = self.bparams["ortho_use_drop"]
        tau_svqb = self.fparams["ortho_tol_drop"]
        BU, j = U, 0
        for j in range(self.iparams["ortho_j_max"]):
            if use_drop:
                U = self._svqb(U, j > 0, tau_svqb)
                tau_svqb = self.fparams["ortho_tol_replace"]
            else:
                U = self._svqb(U, False, self.fparams["ortho_tol_replace"])
            if U.numel() == 0:
                return U, U, j
            BU = _mm(self.B, U)
            defect = torch.matmul(U.mT, BU) - torch.eye(U.shape[-1], dtype=U.dtype,
                                                         device=U.device)
            rerr = float(torch.norm(defect)) * float(torch.norm(BU) * torch.norm(U)) ** -1
            self.fvars[f"ortho_UBUmI_rerr[{i}, {j}]"] = rerr
            if rerr < self.fparams["ortho_tol"]:
                break
        return U, BU, j


def lobpcg(A: torch.Tensor, k: int | None = None, B: torch.Tensor | None = None,
           X: torch.Tensor | None = None, n: int | None = None,
           iK: torch.Tensor | None = None, niter: int | None = None,
           tol: float | None = None, largest: bool | None = None,
           method: str | None = None, tracker: Callable | None = None,
           ortho_iparams: dict | None = None, ortho_fparams: dict | None = None,
           ortho_bparams: dict | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """The `k` largest (or smallest) eigenvalues and their eigenvectors of the symmetric
    positive definite problem ``A x = lambda B x``, by LOBPCG: A and B are only multiplied
    with blocks of vectors.

    A (and B) requiring grad are symmetrized first, ``(A + A^T) / 2``, so that their
    gradients are symmetric; the backward pass needs B None and real inputs. The method
    needs ``m >= 3 n`` rows.

    Args:
        A (Tensor): ``(*, m, m)``, symmetric.
        k (int, optional): eigenpairs wanted (X's columns, or 1).
        B (Tensor, optional): ``(*, m, m)``, symmetric positive definite (the identity).
        X (Tensor, optional): ``(*, m, n)``, the first guess at the eigenvectors
            (``k <= n <= m``); random, with `n` columns (default `k`), when None.
        n (int, optional): the random guess's columns; ignored when X is given.
        iK (Tensor, optional): ``(*, m, m)``, a preconditioner.
        niter (int, optional): the most steps (1000); -1 runs until convergence.
        tol (float, optional): the residual tolerance (the square root of the dtype's
            epsilon).
        largest (bool, optional): the largest eigenvalues (True) or the smallest.
        method (str, optional): "ortho" (robust, the default) or "basic".
        tracker (callable, optional): called with the `LOBPCG` state after every step.
        ortho_iparams, ortho_fparams, ortho_bparams (dict, optional): "ortho"'s settings
            (``ortho_i_max``, ``ortho_j_max``, ``ortho_tol``, ``ortho_tol_drop``,
            ``ortho_tol_replace``, ``ortho_use_drop``).

    Returns:
        (Tensor, Tensor): the eigenvalues ``(*, k)`` and eigenvectors ``(*, m, k)``.

    Example::

        >>> A = torch.diag(torch.arange(1., 10.))
        >>> E, X = torch.lobpcg(A, k=2, X=torch.eye(9)[:, :3] + 0.1)
        >>> E.round(decimals=4)
        tensor([9., 8.])
    """
    options = dict(k=k, X=X, n=n, iK=iK, niter=niter, tol=tol, largest=largest,
                   method=method, tracker=tracker, ortho_iparams=ortho_iparams,
                   ortho_fparams=ortho_fparams, ortho_bparams=ortho_bparams)
    if A.requires_grad or (B is not None and B.requires_grad):
        A = (A + A.mT) / 2
        B = None if B is None else (B + B.mT) / 2
        return _LobpcgFunction.apply(A, B, options)
    return _lobpcg(A, B, **options)


def _parameters(m: int, n: int, k: int, niter, tol: float, largest, method: str,
                ortho_iparams, ortho_fparams, ortho_bparams) -> tuple[dict, dict, dict]:
    """The worker's int, float and bool parameters, "ortho"'s defaults filled in."""
    iparams = {"m": m, "n": n, "k": k, "niter": 1000 if niter is None else niter}
    fparams = {"tol": tol}
    bparams = {"largest": True if largest is None else largest}
    if method == "ortho":
        iparams.update(ortho_iparams or {})
        fparams.update(ortho_fparams or {})
        bparams.update(ortho_bparams or {})
        for key in ("ortho_i_max", "ortho_j_max"):
            iparams.setdefault(key, 3)
        for key in ("ortho_tol", "ortho_tol_drop", "ortho_tol_replace"):
            fparams.setdefault(key, tol)
        bparams.setdefault("ortho_use_drop", False)
    return iparams, fparams, bparams


def _lobpcg(A, B=None, k=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None,
            method=None, tracker=None, ortho_iparams=None, ortho_fparams=None,
            ortho_bparams=None):
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")
    dtype = A.dtype if A.dtype in (torch.float16, torch.float32, torch.float64) \
        else torch.float32
    tol = _EPSILON[dtype] ** 0.5 if tol is None else tol    # float16: a KeyError, as torch's
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows "
                         f"(={m}) is smaller than 3 x the number of requested eigenpairs "
                         f"(={n})")
    method = "ortho" if method is None else method
    iparams, fparams, bparams = _parameters(m, n, k, niter, tol, largest, method,
                                            ortho_iparams, ortho_fparams, ortho_bparams)

    def solve(A, B, X):
        X = torch.randn((m, n), dtype=dtype, device=A.device) if X is None else X
        if X.shape != (m, n):
            raise AssertionError(f"X shape mismatch: got {X.shape}, expected {(m, n)}")
        worker = LOBPCG(A, B, X, iK, iparams, fparams, bparams, method, tracker)
        worker.run()
        return worker.E[:k], worker.X[:, :k]

    if A.dim() == 2:
        return solve(A, B, X)
    batch = tuple(A.shape[:-2])
    flat = [M if M is None else M.reshape((-1,) + tuple(M.shape[-2:])) for M in (A, B, X)]
    E = torch.empty((len(flat[0]), k), dtype=dtype, device=A.device)
    V = torch.empty((len(flat[0]), m, k), dtype=dtype, device=A.device)
    for i in range(len(flat[0])):          # each problem converges in its own steps
        iparams["batch_index"] = i
        E[i], V[i] = solve(*(M if M is None else M[i] for M in flat))
    return E.reshape(batch + (k,)), V.reshape(batch + (m, k))


class _LobpcgFunction(torch.autograd.Function):
    """lobpcg's eigenpairs as a differentiable function of (symmetrized) A."""

    @staticmethod
    def forward(ctx, A, B, options: dict):
        A = A.contiguous()
        B = None if B is None else B.contiguous()
        D, U = _lobpcg(A, B, **options)
        ctx.save_for_backward(A, B, D, U)
        return D, U

    @staticmethod
    def backward(ctx, D_grad, U_grad):
        A, B, D, U = ctx.saved_tensors
        if A.is_complex() or (B is not None and B.is_complex()):
            raise ValueError("lobpcg.backward does not support complex input yet. Note "
                             "that lobpcg.forward does though.")
        if B is not None:
            raise ValueError("lobpcg.backward does not support backward with B != I yet.")
        return _eigenpairs_backward(D_grad, U_grad, A, D, U), None, None


# Note [lobpcg backward]
# ~~~~~~~~~~~~~~~~~~~~~~
# lobpcg returns k eigenpairs (D, U) of a symmetric m x m A, not all m. Perturbing A by
# dA moves them by
#     dD_i = u_i^T dA u_i,
#     dU   = U (F o U^T dA U) - sum_i (A - d_i)^+ P dA u_i e_i^T,
# with F_ij = 1 / (d_j - d_i) off the diagonal and 0 on it, P = I - U U^T the projector
# off span(U), and (A - d_i)^+ the inverse of A - d_i on P's range (where A has none of
# the d_i as eigenvalue, as long as the pairs found are distinct). The first part is
# eigh's own formula within span(U); the second is the part of each vector leaving it.
# Its adjoint gives A's gradient: U (diag(dD) + F o U^T dU) U^T, less
# Q (Q^T A Q - d_i)^-1 Q^T dU_i u_i^T summed over i, for any orthonormal basis Q of P's
# range. Q is the trailing columns of U's complete QR; the k shifted systems are one
# batched solve.

def _eigenpairs_backward(D_grad, U_grad, A, D, U):
    k, m = U.shape[-1], U.shape[-2]
    gap = D.unsqueeze(-2) - D.unsqueeze(-1)                 # gap[i, j] = d_j - d_i
    gap.diagonal(0, -2, -1).fill_(float("inf"))
    inner = torch.diag_embed(D_grad) + torch.matmul(U.mT, U_grad) * gap.reciprocal()
    grad = torch.matmul(U, torch.matmul(inner, U.mT))
    if k == m:
        return grad
    Q = torch.linalg.qr(U, mode="complete").Q[..., k:]
    A_off = torch.matmul(Q.mT, torch.matmul(A, Q))
    shifts = D[..., :, None, None] * torch.eye(m - k, dtype=A.dtype, device=A.device)
    rhs = torch.matmul(Q.mT, U_grad).mT.unsqueeze(-1)       # (*, k, m - k, 1)
    Y = torch.linalg.solve(A_off.unsqueeze(-3) - shifts, rhs).squeeze(-1).mT
    return grad - torch.matmul(Q, torch.matmul(Y, U.mT))
