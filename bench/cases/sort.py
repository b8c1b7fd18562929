"""Sorting and selection: sort, argsort, topk, median, unique on 1M elements.

torch's sort returns the values and their positions, stably here (Note [Order keys]
in aten/native/sorting/sort.py): the NumPy equivalent of that is a stable argsort and a
gather, given as its own row. `np.sort` alone (values only, not stable) is the floor
no sort that also returns positions can reach; its row is there to show the gap.
"""
from bench import case

SORT = "sort: 1M float32 (1000 x 1000 along the last dim)"
SELECT = "selection: topk, median, unique of 1M float32"


def _data(torch, np):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(2 ** 20, dtype=np.float32)
    m = rng.standard_normal((1000, 1000), dtype=np.float32)
    d = rng.standard_normal(2 ** 20)
    n = rng.integers(0, 1000, 2 ** 20)
    return {"torch": torch, "np": np, "x": x, "m": m, "d": d, "n": n,
            "a": torch.from_numpy(x), "b": torch.from_numpy(m), "c": torch.from_numpy(d),
            "k": torch.from_numpy(n)}


case("torch.sort(a)", numpy="np.sort(x)", group=SORT,
     name="torch.sort(a) [1M] vs np.sort (values only)")(_data)
case("torch.sort(a)", numpy="np.take_along_axis(x, np.argsort(x, kind='stable'), -1)",
     group=SORT, name="torch.sort(a) [1M] vs stable argsort + gather")(_data)
case("torch.sort(b)", numpy="np.sort(m, axis=-1)", group=SORT,
     name="torch.sort(b) [1000x1000] vs np.sort")(_data)
case("torch.sort(b)", numpy="np.take_along_axis(m, np.argsort(m, -1, kind='stable'), -1)",
     group=SORT, name="torch.sort(b) [1000x1000] vs stable argsort + gather")(_data)
case("torch.sort(a, descending=True)", numpy="np.sort(x)[::-1]", group=SORT,
     name="torch.sort(a, descending=True) [1M]")(_data)
case("torch.argsort(a)", numpy="np.argsort(x, kind='stable')", group=SORT,
     name="torch.argsort(a) [1M]")(_data)
case("torch.sort(k)", numpy="np.sort(n)", group=SORT, name="torch.sort(k) [1M int64]")(_data)
case("torch.sort(c)", numpy="np.sort(d)", group=SORT, name="torch.sort(c) [1M float64]")(_data)

case("torch.topk(a, 10)", numpy="np.sort(np.partition(x, -10)[-10:])", group=SELECT,
     name="torch.topk(a, 10) [1M]")(_data)
case("torch.topk(b, 10)", numpy="np.sort(np.partition(m, -10, axis=-1)[:, -10:], axis=-1)",
     group=SELECT, name="torch.topk(b, 10) [1000x1000]")(_data)
case("torch.median(a)", numpy="np.partition(x, (x.size - 1) // 2)[(x.size - 1) // 2]",
     group=SELECT, name="torch.median(a) [1M]")(_data)
case("torch.median(b, 1)", numpy="np.partition(m, 499, axis=1)[:, 499]", group=SELECT,
     name="torch.median(b, 1) [1000x1000]")(_data)
case("torch.unique(a)", numpy="np.unique(x)", group=SELECT, name="torch.unique(a) [1M]")(_data)
case("torch.unique(k, return_counts=True)", numpy="np.unique(n, return_counts=True)",
     group=SELECT, name="torch.unique(k, return_counts=True) [1M int64]")(_data)
