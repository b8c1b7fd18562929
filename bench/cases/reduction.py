"""Reductions on 4M float32 elements: sum, mean, max, std, argmax, over everything and
over a dim of a (1024, 4096) view of the same data (the kept rows, dim=1, and the
long-stride dim, dim=0). NumPy's own function on the same array is the floor;
torch uses every core.
"""
import os

from bench import case

WHOLE = "reduction: 4M float32, every element"
ALONG = "reduction: 4M float32 as (1024, 4096), over a dim"
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def _data(torch, np):
    torch.set_num_threads(CORES)
    x = np.random.default_rng(0).standard_normal(4 * 2 ** 20, dtype=np.float32)
    m = x.reshape(1024, 4096)
    return {"torch": torch, "np": np, "x": x, "m": m, "a": torch.from_numpy(x),
            "b": torch.from_numpy(m)}


for stmt, numpy in (("a.sum()", "x.sum()"), ("a.mean()", "x.mean()"),
                    ("a.max()", "x.max()"), ("a.std()", "x.std(ddof=1)"),
                    ("a.argmax()", "x.argmax()")):
    case(stmt, numpy=numpy, group=WHOLE)(_data)

for dim in (1, 0):
    for stmt, numpy in ((f"b.sum({dim})", f"m.sum({dim})"), (f"b.mean({dim})", f"m.mean({dim})"),
                        (f"b.amax({dim})", f"m.max({dim})"),
                        (f"b.max({dim})", f"(m.max({dim}), m.argmax({dim}))"),
                        (f"b.std({dim})", f"m.std({dim}, ddof=1)"),
                        (f"b.argmax({dim})", f"m.argmax({dim})")):
        case(stmt, numpy=numpy, group=ALONG)(_data)

SMALL = "reduction: a small float32 batch (64, 100), over a dim (torch's order of additions)"


def _small(torch, np):
    torch.set_num_threads(CORES)
    m = np.random.default_rng(0).standard_normal((64, 100), dtype=np.float32)
    return {"torch": torch, "np": np, "m": m, "s": torch.from_numpy(m)}


for dim in (0, 1):
    case(f"s.sum({dim})", numpy=f"m.sum({dim})", group=SMALL)(_small)
    case(f"s.mean({dim})", numpy=f"m.mean({dim})", group=SMALL)(_small)

TINY = ("reduction: tiny float32 sums, 1 thread (a (32, 32) over a dim, bias gradients "
        "(64, 256) and (64, 10) over dim 0, 10 elements whole)")


def _tiny(torch, np):
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    arrays = {name: rng.standard_normal(shape, dtype=np.float32) for name, shape in
              (("m", (32, 32)), ("w", (64, 256)), ("n", (64, 10)), ("v", (10,)))}
    return {"torch": torch, "np": np, **arrays,
            **{name.upper(): torch.from_numpy(a) for name, a in arrays.items()}}


for stmt, numpy in (("M.sum(1)", "m.sum(1)"), ("M.sum(0)", "m.sum(0)"),
                    ("M.mean(1)", "m.mean(1)"), ("W.sum(0)", "w.sum(0)"),
                    ("N.sum(0)", "n.sum(0)"), ("V.sum()", "v.sum()"), ("V.mean()", "v.mean()")):
    case(stmt, numpy=numpy, group=TINY)(_tiny)

MID = ("reduction: mid-size float32 sums on every core ((64, 1024) and (256, 1024) over a dim, "
       "2**21 elements whole: where a pool thread's wake-up costs about the work)")


def _mid(torch, np):
    torch.set_num_threads(CORES)
    rng = np.random.default_rng(0)
    arrays = {name: rng.standard_normal(shape, dtype=np.float32) for name, shape in
              (("k", (64, 1024)), ("r", (256, 1024)), ("h", (2 ** 21,)))}
    return {"torch": torch, "np": np, **arrays,
            **{name.upper(): torch.from_numpy(a) for name, a in arrays.items()}}


for stmt, numpy in (("K.sum(0)", "k.sum(0)"), ("R.sum(0)", "r.sum(0)"), ("R.sum(1)", "r.sum(1)"),
                    ("H.sum()", "h.sum()")):
    case(stmt, numpy=numpy, group=MID)(_mid)
