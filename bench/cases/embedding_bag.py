"""Embedding bags: a recommender's sparse feature lookup.

``F.embedding_bag`` of 20000 indices in 1000 bags of a ``(10000, 64)`` float32 table, sum,
mean and max, forward and forward + backward. Sums are one sparse-matrix product (rows
added in order, as torch adds them); the NumPy column is the bare gather and segment sum.
"""
from bench import case

GROUP = "nn: embedding bags"


def _bags(torch, np):
    torch.manual_seed(0)
    weight = torch.randn(10000, 64, requires_grad=True)
    indices = torch.randint(0, 10000, (20000,))
    offsets = torch.arange(0, 20000, 20)
    table = np.random.default_rng(0).standard_normal((10000, 64), dtype=np.float32)
    return {"F": torch.nn.functional, "np": np, "w": weight, "i": indices, "o": offsets,
            "g": torch.randn(1000, 64), "t": table, "n": indices.numpy() if hasattr(
                indices, "numpy") else None, "starts": np.arange(0, 20000, 20)}


for _mode in ("sum", "mean", "max"):
    case(f"F.embedding_bag(i, w, o, mode='{_mode}')", group=GROUP,
         name=f"embedding_bag {_mode} fwd 10000x64[20000 in 1000 bags]",
         numpy="np.add.reduceat(np.take(t, n, axis=0), starts, axis=0)"
         if _mode == "sum" else None)(_bags)
    case(f"F.embedding_bag(i, w, o, mode='{_mode}').backward(g)", group=GROUP,
         name=f"embedding_bag {_mode} fwd+bwd 10000x64[20000 in 1000 bags]")(_bags)
