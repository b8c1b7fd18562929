"""Batched linear algebra: solve, cholesky, svd and eigh on a batch of 256 small matrices
(8x8, float64), the shape of per-sample Gaussian-process and covariance work, where a
Python loop over the batch would dominate. glasstorch hands each batch to one NumPy
gufunc (LAPACK in C over the batch); the NumPy column is that bare call.
"""
from bench import case

GROUP = "linalg: batched solve, cholesky, svd, eigh"


def _matrices(torch, np):
    torch.manual_seed(0)
    x = torch.randn(256, 8, 8, dtype=torch.float64)
    spd = x @ x.mT + 8 * torch.eye(8, dtype=torch.float64)
    b = torch.randn(256, 8, 4, dtype=torch.float64)
    a = np.random.default_rng(0).standard_normal((256, 8, 8))
    return {"torch": torch, "np": np, "A": spd, "B": b, "a": a @ a.transpose(0, 2, 1) +
            8 * np.eye(8), "b": np.ones((256, 8, 4))}


case("torch.linalg.solve(A, B)", group=GROUP, name="linalg.solve (256,8,8) float64",
     numpy="np.linalg.solve(a, b)")(_matrices)
case("torch.linalg.cholesky(A)", group=GROUP, name="linalg.cholesky (256,8,8) float64",
     numpy="np.linalg.cholesky(a)")(_matrices)
case("torch.linalg.svd(A)", group=GROUP, name="linalg.svd (256,8,8) float64",
     numpy="np.linalg.svd(a)")(_matrices)
case("torch.linalg.eigh(A)", group=GROUP, name="linalg.eigh (256,8,8) float64",
     numpy="np.linalg.eigh(a)")(_matrices)
