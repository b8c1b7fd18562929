"""Triangles and distances: tril of a 2000 x 2000 matrix, cdist of 1000 x 64 rows.

tril copies the matrix and zeroes the upper triangle through a strided mask view
(aten/native/shape/triangular.py), split over the thread pool; NumPy's `np.tril` builds a
full mask and a `where`. cdist with p=2 takes torch's matmul road (more than 25 rows,
Note [cdist's two roads]); its NumPy column is the same road written out in NumPy
(squared norms plus one matrix product), so the ratio is glasstorch's overhead around
BLAS. The p=1 case takes the direct road; its NumPy column is the same broadcasting in
one expression, without glasstorch's blocking.
"""
from bench import case

GROUP = "triangular: tril 2000x2000, cdist 1000x64"


def _square(torch, np):
    x = np.random.default_rng(0).standard_normal((2000, 2000), dtype=np.float32)
    return {"torch": torch, "np": np, "x": x, "a": torch.from_numpy(x)}


def _rows(torch, np):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1000, 64), dtype=np.float32)
    y = rng.standard_normal((1000, 64), dtype=np.float32)
    return {"torch": torch, "np": np, "x": x, "y": y, "a": torch.from_numpy(x),
            "b": torch.from_numpy(y)}


def _few_rows(torch, np):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((200, 64), dtype=np.float32)
    y = rng.standard_normal((200, 64), dtype=np.float32)
    return {"torch": torch, "np": np, "x": x, "y": y, "a": torch.from_numpy(x),
            "b": torch.from_numpy(y)}


case("torch.tril(a)", numpy="np.tril(x)", group=GROUP,
     name="tril [2000x2000 float32]")(_square)
case("torch.triu(a, 1)", numpy="np.triu(x, 1)", group=GROUP,
     name="triu [2000x2000 float32]")(_square)
case("torch.cdist(a, b)",
     numpy="np.sqrt(np.maximum((x * x).sum(1)[:, None] - 2 * (x @ y.T) + (y * y).sum(1), 0))",
     group=GROUP, name="cdist p=2 [1000x64, 1000x64]")(_rows)
case("torch.cdist(a, b, p=1)", numpy="np.abs(x[:, None, :] - y[None, :, :]).sum(-1)",
     group=GROUP, name="cdist p=1 [200x64, 200x64]")(_few_rows)
