"""Elementwise operators: the cost of a small call, and the kernel time of a large one.

Small (10 float32 elements): the arithmetic is nothing, so the time is the
machinery's (binding, promotion, dispatch, wrapping the result). DESIGN.md sets the
target at or below torch's eager call.

Large (4M float32 elements, 2000 x 2000 for the transposed case): the time is the
kernel's. NumPy's single kernel is the floor for one thread; the thread pool
(aten/parallel.py) splits the work so that with every core glasstorch should reach
torch. The "1 thread" cases measure the single-core overhead over NumPy.

Each setup sets the thread count it wants, so the order cases run in does not
matter; the last cases registered leave the default (every core) behind.
"""
import os

from bench import case

SMALL = "pointwise: small-tensor overhead (10 float32)"
LARGE = "pointwise: 4M float32 kernels"
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def _small(torch, np):
    torch.set_num_threads(CORES)
    x = np.linspace(-1, 1, 10, dtype=np.float32)
    y = np.linspace(2, 3, 10, dtype=np.float32)
    return {"torch": torch, "np": np, "x": x, "y": y, "a": torch.from_numpy(x.copy()),
            "b": torch.from_numpy(y.copy())}


def _large(threads):
    def setup(torch, np):
        torch.set_num_threads(threads)
        rng = np.random.default_rng(0)
        x = rng.standard_normal(4 * 2 ** 20, dtype=np.float32)
        y = rng.standard_normal(4 * 2 ** 20, dtype=np.float32)
        cn = x > y
        return {"torch": torch, "np": np, "x": x, "y": y, "cn": cn,
                "a": torch.from_numpy(x), "b": torch.from_numpy(y),
                "c": torch.from_numpy(cn)}
    return setup


def _square(threads):
    def setup(torch, np):
        torch.set_num_threads(threads)
        rng = np.random.default_rng(0)
        x = rng.standard_normal((2000, 2000), dtype=np.float32)
        y = rng.standard_normal((2000, 2000), dtype=np.float32)
        return {"torch": torch, "np": np, "x": x, "y": y,
                "a": torch.from_numpy(x), "b": torch.from_numpy(y)}
    return setup


case("a + b", numpy="x + y", group=SMALL)(_small)
case("a * 2", numpy="x * np.float32(2)", group=SMALL)(_small)
case("torch.exp(a)", numpy="np.exp(x)", group=SMALL)(_small)
case("a.add_(b)", numpy="np.add(x, y, out=x)", group=SMALL)(_small)
case("a.relu()", numpy="np.maximum(x, np.float32(0))", group=SMALL)(_small)
case("a.clamp(-0.5, 0.5)", numpy="np.clip(x, np.float32(-0.5), np.float32(0.5))",
     group=SMALL)(_small)
# an SGD update (a fused multiply-add; NumPy's row rounds twice) and a number to a power
case("a.add_(b, alpha=-1e-3)", numpy="np.add(x, y * np.float32(-1e-3), out=x)",
     group=SMALL)(_small)
case("torch.pow(2, a)", numpy="np.power(np.float32(2), x)", group=SMALL)(_small)


def _kernels(threads: int, suffix: str) -> None:
    """The large cases on `threads` threads, labelled with `suffix`."""
    for stmt, numpy in (("a + b", "x + y"), ("a * b", "x * y"),
                        ("torch.exp(a)", "np.exp(x)"),
                        ("torch.where(c, a, b)", "np.where(cn, x, y)"),
                        ("a.add_(b, alpha=-1e-3)", "np.add(x, y * np.float32(-1e-3), out=x)")):
        case(stmt, numpy=numpy, group=LARGE, name=f"{stmt} [4M, {suffix}]")(_large(threads))
    case("a.t() + b", numpy="x.T + y", group=LARGE,
         name=f"a.t() + b [2000x2000, {suffix}]")(_square(threads))


_kernels(1, "1 thread")
_kernels(CORES, f"{CORES} threads")
