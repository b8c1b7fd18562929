"""Attention and dropout: the per-layer hot spots of the issue-7 demo model.

``F.scaled_dot_product_attention(q, k, v, is_causal=True)`` on ``(64, 4, 256, 32)``
float32 runs torch's fused CPU kernel in both libraries (one node,
`ScaledDotProductFlashAttentionForCpuBackward0`): glasstorch's is two matmuls and a
softmax per block of batch rows (NumPy, over the thread pool), its backward four matmuls
recomputing the probabilities. The NumPy column is the bare forward arithmetic (scores,
causal mask, softmax, weighted sum) on one thread. Dropout is one draw per element
(torch's mt19937 stream) and a multiply.
"""
from bench import case

GROUP = "nn: attention, dropout"


def _attention(torch, np):
    torch.manual_seed(0)
    shape = (64, 4, 256, 32)
    q, k, v = (torch.randn(*shape, requires_grad=True) for _ in range(3))
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(shape, dtype=np.float32) for _ in range(3))
    above = np.triu(np.ones((256, 256), bool), 1)
    return {"torch": torch, "F": torch.nn.functional, "np": np, "q": q, "k": k, "v": v,
            "a": a, "b": b, "c": c, "causal": np.where(above, -np.inf, 0).astype(np.float32),
            "numpy_attention": _numpy_attention}


def _numpy_attention(np, a, b, c, causal):
    scores = a @ b.swapaxes(-1, -2)
    scores *= np.float32(32 ** -0.5)
    scores += causal
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores @ c


def _activations(torch, np):
    torch.manual_seed(0)
    return {"torch": torch, "F": torch.nn.functional, "np": np,
            "x": torch.randn(64, 256, 128, requires_grad=True)}


case("F.scaled_dot_product_attention(q, k, v, is_causal=True)",
     numpy="numpy_attention(np, a, b, c, causal)", group=GROUP,
     name="SDPA causal forward [64x4x256x32]")(_attention)
case("F.scaled_dot_product_attention(q, k, v, is_causal=True).sum().backward()",
     group=GROUP, name="SDPA causal forward+backward [64x4x256x32]")(_attention)
case("F.dropout(x, 0.1)", group=GROUP, name="F.dropout(p=0.1) [64x256x128]")(_activations)
