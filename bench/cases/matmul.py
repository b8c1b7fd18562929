"""Matrix products: BLAS time, and what glasstorch adds around it.

The large cases (512 x 512 mm in float32 and float64, a (64, 128, 128) batch, a
transposed operand, a matrix-vector product) are BLAS's own time: glasstorch passes
NumPy the operands as they are (a transposed one as an F-ordered view) and lets
`np.matmul` write the allocated result, so the target is NumPy's `matmul` on the same
arrays, within 5%. The 4 x 4 case is the cost of the machinery around a tiny product
(binding, matmul's rank rules, the meta rule, the kernel call).

torch and NumPy may link different BLAS libraries (MKL, OpenBLAS), so the torch column
compares libraries, not only overheads. On a machine shared with other work, wall-clock
ratios of multi-threaded BLAS calls swing by tens of percent; for the 5% question run
with ``OPENBLAS_NUM_THREADS=1`` (and ``torch.set_num_threads(1)``), where the kernel
time is the same for glasstorch and NumPy and the difference is glasstorch's call.
"""
from bench import case

LARGE = "matmul: BLAS products"
LINEAR = "matmul: a linear layer's three GEMMs (MLP step: 64 rows, 128 -> 256)"
SMALL = "matmul: small-matrix overhead (4x4 float32)"


def _pair(shape_a, shape_b, dtype="float32"):
    def setup(torch, np):
        rng = np.random.default_rng(0)
        x = rng.standard_normal(shape_a).astype(dtype)
        y = rng.standard_normal(shape_b).astype(dtype)
        names = {"torch": torch, "np": np, "x": x, "y": y,
                 "a": torch.from_numpy(x), "b": torch.from_numpy(y)}
        if x.ndim == 2:              # the transposed operand: a view, never a copy
            names.update(xt=x.T, at=torch.from_numpy(x).t())
        return names
    return setup


case("a @ b", numpy="np.matmul(x, y)", group=LARGE,
     name="a @ b [512x512 float32]")(_pair((512, 512), (512, 512)))
case("a @ b", numpy="np.matmul(x, y)", group=LARGE,
     name="a @ b [512x512 float64]")(_pair((512, 512), (512, 512), "float64"))
case("torch.bmm(a, b)", numpy="np.matmul(x, y)", group=LARGE,
     name="bmm [64x128x128 float32]")(_pair((64, 128, 128), (64, 128, 128)))
case("at @ b", numpy="np.matmul(xt, y)", group=LARGE,
     name="a.t() @ b [512x512 float32]")(_pair((512, 512), (512, 512)))
case("torch.mv(a, b)", numpy="np.matmul(x, y)", group=LARGE,
     name="mv [2048x2048 float32]")(_pair((2048, 2048), (2048,)))
case("torch.mm(a, b)", numpy="np.matmul(x, y)", group=LARGE,
     name="mm [2048x2048 float32]")(_pair((2048, 2048), (2048, 2048)))
case("a @ b", numpy="np.matmul(x, y)", group=SMALL, name="a @ b [4x4]")(_pair((4, 4), (4, 4)))
case("torch.mm(a, b)", numpy="np.matmul(x, y)", group=SMALL,
     name="mm [4x4]")(_pair((4, 4), (4, 4)))


def _linear_gemms(torch, np):
    """The forward of ``F.linear(x, w)`` and its two gradients, in the layouts autograd
    hands BLAS: the weight and the output gradient transposed (views, no copies)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 128), dtype=np.float32)
    w = rng.standard_normal((256, 128), dtype=np.float32)
    g = rng.standard_normal((64, 256), dtype=np.float32)
    return {"torch": torch, "np": np, "x": x, "w": w, "g": g, "a": torch.from_numpy(x),
            "b": torch.from_numpy(w), "c": torch.from_numpy(g)}


case("torch.mm(a, b.t())", numpy="np.matmul(x, w.T)", group=LINEAR,
     name="forward: x @ w.t() [64x128 @ (256x128).T]")(_linear_gemms)
case("torch.mm(c, b)", numpy="np.matmul(g, w)", group=LINEAR,
     name="input gradient: g @ w [64x256 @ 256x128]")(_linear_gemms)
case("torch.mm(c.t(), a)", numpy="np.matmul(g.T, x)", group=LINEAR,
     name="weight gradient: g.t() @ x [(64x256).T @ 64x128]")(_linear_gemms)
