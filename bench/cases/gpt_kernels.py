"""Kernels the GPT training step of examples/train_char_lm.py spends its time in.

At its default size (batch 32 x 64 characters, width 128) a step makes 2048-row
matrices: the weight gradient of a linear layer is ``grad.t() @ input``, a product
over the 2048 rows with a transposed operand (blas_threads.py cuts it over the pool
with OpenBLAS on one thread); dropout draws its masks with ``bernoulli_(1 - p)``
(one integer comparison per draw, random_bits.py); the MLP's GELU runs on 2048 x 512.
"""
from bench import case

GROUP = "GPT step kernels (train_char_lm, default size)"


def _step_tensors(torch, np):
    rng = np.random.default_rng(0)
    grad = rng.standard_normal((2048, 512), dtype=np.float32)
    x = rng.standard_normal((2048, 128), dtype=np.float32)
    return {"torch": torch, "np": np, "gx": grad, "xx": x, "g": torch.from_numpy(grad),
            "x": torch.from_numpy(x), "noise": torch.empty(32, 4, 64, 64),
            "F": torch.nn.functional}


case("g.t() @ x", numpy="gx.T @ xx", group=GROUP,
     name="weight gradient g.t() @ x [(2048,512)^T (2048,128)]")(_step_tensors)
case("noise.bernoulli_(0.9)", group=GROUP,
     name="dropout mask bernoulli_(0.9) [32x4x64x64]")(_step_tensors)
case("F.gelu(g)", group=GROUP, name="F.gelu [2048x512]")(_step_tensors)
