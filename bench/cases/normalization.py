"""Layer norm, batch norm and embedding: the other per-layer hot spots of the issue-7 demo
model and of the convnet (`convolution.py`).

``F.layer_norm`` on ``(64, 256, 384)`` float32 (the demo's activations) forward, and
forward + backward through `native_layer_norm_backward` (one fused pass over cache-sized
row blocks, input/weight/bias gradients together). The embedding looks up a 65-row
table (the demo's character vocabulary) with ``(64, 256)`` indices; its backward sums
16384 gradient rows into 65 with one sorted `np.add.reduceat`. The NumPy column is the
bare forward arithmetic on one thread. ``F.batch_norm`` in training on the convnet's first
feature maps, ``(64, 32, 32, 32)`` float32, forward and forward + backward
(`native_batch_norm` and its backward over blocks of channels, Note [Batch norm in
channel blocks]).
"""
from bench import case

GROUP = "nn: layer norm, embedding"


def _layer_norm(torch, np):
    torch.manual_seed(0)
    x = torch.randn(64, 256, 384, requires_grad=True)
    weight, bias = torch.ones(384, requires_grad=True), torch.zeros(384, requires_grad=True)
    grad = torch.randn(64, 256, 384)
    a = np.random.default_rng(0).standard_normal((64, 256, 384), dtype=np.float32)
    return {"torch": torch, "F": torch.nn.functional, "np": np, "x": x, "w": weight,
            "b": bias, "g": grad, "a": a, "numpy_layer_norm": _numpy_layer_norm}


def _numpy_layer_norm(np, a):
    mean = a.mean(-1, keepdims=True)
    centered = a - mean
    rstd = 1 / np.sqrt((centered * centered).mean(-1, keepdims=True) + np.float32(1e-5))
    return centered * rstd


def _batch_norm(torch, np):
    torch.manual_seed(0)
    x = torch.randn(64, 32, 32, 32, requires_grad=True)
    weight, bias = torch.ones(32, requires_grad=True), torch.zeros(32, requires_grad=True)
    return {"F": torch.nn.functional, "x": x, "w": weight, "b": bias,
            "m": torch.zeros(32), "v": torch.ones(32), "g": torch.randn(64, 32, 32, 32)}


def _embedding(torch, np):
    torch.manual_seed(0)
    table = torch.randn(65, 384, requires_grad=True)
    indices = torch.randint(0, 65, (64, 256))
    grad = torch.randn(64, 256, 384)
    return {"torch": torch, "F": torch.nn.functional, "np": np, "w": table, "i": indices,
            "g": grad, "t": table.detach().numpy(), "n": indices.numpy()}


case("F.layer_norm(x, (384,), w, b)", group=GROUP, name="layer_norm fwd (64,256,384)",
     numpy="numpy_layer_norm(np, a)")(_layer_norm)
case("F.layer_norm(x, (384,), w, b).backward(g)", group=GROUP,
     name="layer_norm fwd+bwd (64,256,384)")(_layer_norm)
case("F.batch_norm(x, m, v, w, b, True)", group=GROUP,
     name="batch_norm train fwd (64,32,32,32)")(_batch_norm)
case("F.batch_norm(x, m, v, w, b, True).backward(g)", group=GROUP,
     name="batch_norm train fwd+bwd (64,32,32,32)")(_batch_norm)
case("F.embedding(i, w)", group=GROUP, name="embedding fwd 65x384[(64,256)]",
     numpy="np.take(t, n, axis=0)")(_embedding)
case("F.embedding(i, w).backward(g)", group=GROUP,
     name="embedding fwd+bwd 65x384[(64,256)]")(_embedding)
