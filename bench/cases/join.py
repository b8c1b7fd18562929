"""Joining and reordering: cat, stack, flip, roll and repeat of large float32 tensors.

Eight 1000 x 1000 float32 tensors (32 MB in all) joined along each dim: the time is
the copy into the result. NumPy's concatenate / stack with the same arrays is the
floor; glasstorch's kernels call them with the result as `out`, so the ratio shows
the machinery's cost on top (meta rule, allocation) and nothing else.
"""
from bench import case

GROUP = "join: 8 x (1000, 1000) float32, flip / roll / repeat of 4M"


def _pieces(torch, np):
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((1000, 1000), dtype=np.float32) for _ in range(8)]
    big = rng.standard_normal((2000, 2000), dtype=np.float32)
    return {"torch": torch, "np": np, "xs": xs, "ts": [torch.from_numpy(x) for x in xs],
            "big": big, "t": torch.from_numpy(big)}


case("torch.cat(ts, 0)", numpy="np.concatenate(xs, 0)", group=GROUP,
     name="cat dim 0")(_pieces)
case("torch.cat(ts, 1)", numpy="np.concatenate(xs, 1)", group=GROUP,
     name="cat dim 1")(_pieces)
case("torch.stack(ts, 0)", numpy="np.stack(xs, 0)", group=GROUP, name="stack dim 0")(_pieces)
case("torch.stack(ts, 2)", numpy="np.stack(xs, 2)", group=GROUP, name="stack dim 2")(_pieces)
case("torch.flip(t, (0,))", numpy="np.flip(big, 0).copy()", group=GROUP,
     name="flip dim 0 [2000x2000]")(_pieces)
case("torch.flip(t, (0, 1))", numpy="np.flip(big, (0, 1)).copy()", group=GROUP,
     name="flip both dims [2000x2000]")(_pieces)
case("torch.roll(t, 7, 1)", numpy="np.roll(big, 7, 1)", group=GROUP,
     name="roll dim 1 [2000x2000]")(_pieces)
case("t.repeat(2, 1)", numpy="np.tile(big, (2, 1))", group=GROUP,
     name="repeat (2, 1) [2000x2000]")(_pieces)
