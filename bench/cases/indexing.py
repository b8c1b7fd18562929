"""Indexing: gathering rows, adding into rows, selecting by mask, and the Python
overhead of a small advanced index.

Large cases gather or scatter 1M rows of a (1M, 16) float32 table (64 MB) with a
random int64 index: the time is memory traffic, and NumPy's fancy indexing
(`np.take` / `np.add.at`) is the floor glasstorch's kernels call into. The range
check on the index (two passes over it) is glasstorch's only extra work.
"""
from bench import case

LARGE = "indexing: 1M rows of a (1M, 16) float32 table"
MASK = "indexing: 4M float32 masked_select / masked_fill"
SMALL = "indexing: small-tensor overhead"
ROWS = 2 ** 20


def _table(torch, np):
    rng = np.random.default_rng(0)
    table = rng.standard_normal((ROWS, 16), dtype=np.float32)
    rows = rng.integers(0, ROWS, ROWS)
    updates = rng.standard_normal((ROWS, 16), dtype=np.float32)
    return {"torch": torch, "np": np, "x": table, "i": rows, "u": updates,
            "a": torch.from_numpy(table.copy()), "idx": torch.from_numpy(rows.copy()),
            "src": torch.from_numpy(updates.copy()), "acc": np.zeros_like(table),
            "z": torch.zeros(ROWS, 16)}


def _masked(torch, np):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(4 * ROWS, dtype=np.float32)
    m = x > 0
    return {"torch": torch, "np": np, "x": x, "m": m, "a": torch.from_numpy(x.copy()),
            "mask": torch.from_numpy(m.copy())}


def _small(torch, np):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    return {"torch": torch, "np": np, "x": x, "i": np.array([2, 0]),
            "a": torch.from_numpy(x.copy()), "idx": torch.tensor([2, 0])}


case("a[idx]", numpy="x[i]", group=LARGE, name="a[idx] gather [1M rows]")(_table)
case("a.index_select(0, idx)", numpy="np.take(x, i, axis=0)", group=LARGE,
     name="index_select [1M rows]")(_table)
case("z.index_add_(0, idx, src)", numpy="np.add.at(acc, i, u)", group=LARGE,
     name="index_add_ [1M rows]")(_table)
case("z.scatter_add_(0, idx[:, None].expand(-1, 16), src)",
     numpy="np.add.at(acc, (i[:, None], np.arange(16)), u)", group=LARGE,
     name="scatter_add_ [1M x 16]")(_table)
case("torch.gather(a, 0, idx[:, None].expand(-1, 16))",
     numpy="np.take_along_axis(x, np.broadcast_to(i[:, None], (len(i), 16)), axis=0)",
     group=LARGE, name="gather [1M x 16]")(_table)
case("torch.masked_select(a, mask)", numpy="x[m]", group=MASK,
     name="masked_select [4M]")(_masked)
case("a.masked_fill(mask, 0.0)", numpy="np.where(m, np.float32(0), x)", group=MASK,
     name="masked_fill [4M]")(_masked)
case("a[idx]", numpy="x[i]", group=SMALL, name="a[idx] [3x4]")(_small)
case("a[:, idx]", numpy="x[:, i]", group=SMALL, name="a[:, idx] [3x4]")(_small)
