"""Scans: cumsum of 4M float32 and along each dim of a 2000 x 2000 float32 tensor.

torch's float32 cumsum keeps its running sum in double and rounds each output
(Note [Scan accumulation] in aten/native/reduction/scan.py), so NumPy's float32 `np.cumsum`
computes a different (less accurate) result: its row is the floor for the same
amount of work, and the float64-accumulating NumPy call is given beside it.
"""
from bench import case

SCAN = "scan: cumsum of 4M float32"


def _data(torch, np):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(4 * 2 ** 20, dtype=np.float32)
    m = rng.standard_normal((2000, 2000), dtype=np.float32)
    return {"torch": torch, "np": np, "x": x, "m": m,
            "a": torch.from_numpy(x), "b": torch.from_numpy(m)}


case("torch.cumsum(a, 0)", numpy="np.cumsum(x)", group=SCAN,
     name="torch.cumsum(a, 0) [4M] vs np.cumsum")(_data)
case("torch.cumsum(a, 0)", numpy="np.cumsum(x, dtype=np.float64).astype(np.float32)",
     group=SCAN, name="torch.cumsum(a, 0) [4M] vs np.cumsum in float64")(_data)
case("torch.cumsum(b, 0)", numpy="np.cumsum(m, 0)", group=SCAN,
     name="torch.cumsum(b, 0) [2000x2000] vs np.cumsum")(_data)
case("torch.cumsum(b, 1)", numpy="np.cumsum(m, 1)", group=SCAN,
     name="torch.cumsum(b, 1) [2000x2000] vs np.cumsum")(_data)
case("torch.cumprod(b, 1)", numpy="np.cumprod(m, 1)", group=SCAN,
     name="torch.cumprod(b, 1) [2000x2000] vs np.cumprod")(_data)
case("torch.cummax(b, 0)", numpy="np.maximum.accumulate(m, 0)", group=SCAN,
     name="torch.cummax(b, 0) [2000x2000] vs np.maximum.accumulate (values only)")(_data)
case("torch.logcumsumexp(b, 1)", numpy="np.logaddexp.accumulate(m, 1)", group=SCAN,
     name="torch.logcumsumexp(b, 1) [2000x2000] vs np.logaddexp.accumulate")(_data)
