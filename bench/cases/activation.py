"""Softmax, GELU and the logistic family: the activations of the demo model and of
LSTM-style gates.

``(64, 256, 384)`` float32 (the demo's activations; 6.3M elements). softmax runs over
the last dim (as attention does) and over a middle one; forward + backward goes through
the fused `_softmax_backward_data` / `gelu_backward` (one pass per block). The NumPy
column is the bare forward arithmetic on one thread: max-shifted exp and a division
for softmax; ``x * (1 + erf(x / sqrt 2)) / 2`` with SciPy's erf for gelu; SciPy's
``expit`` for sigmoid (glasstorch computes it with NumPy alone, in cache-sized blocks).
leaky_relu, elu, softplus and hardswish go forward + backward: their kernels choose
between two branches per element (bitwise, in blocks).
"""
from bench import case

GROUP = "nn: softmax, gelu, sigmoid"


def _activations(torch, np):
    torch.manual_seed(0)
    x = torch.randn(64, 256, 384, requires_grad=True)
    grad = torch.randn(64, 256, 384)
    a = np.random.default_rng(0).standard_normal((64, 256, 384), dtype=np.float32)
    from scipy import special
    return {"torch": torch, "F": torch.nn.functional, "np": np, "x": x, "g": grad, "a": a,
            "numpy_softmax": _numpy_softmax, "erf": special.erf, "expit": special.expit}


def _numpy_softmax(np, a, axis):
    e = np.exp(a - a.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


case("torch.softmax(x, -1)", group=GROUP, name="softmax fwd (64,256,384) dim -1",
     numpy="numpy_softmax(np, a, -1)")(_activations)
case("torch.softmax(x, 1)", group=GROUP, name="softmax fwd (64,256,384) dim 1",
     numpy="numpy_softmax(np, a, 1)")(_activations)
case("torch.softmax(x, -1).backward(g)", group=GROUP,
     name="softmax fwd+bwd (64,256,384) dim -1")(_activations)
case("F.log_softmax(x, -1).backward(g)", group=GROUP,
     name="log_softmax fwd+bwd (64,256,384) dim -1")(_activations)
case("torch.softmax(x, 1).backward(g)", group=GROUP,
     name="softmax fwd+bwd (64,256,384) dim 1")(_activations)
case("F.gelu(x)", group=GROUP, name="gelu fwd (64,256,384)",
     numpy="a * (1 + erf(a * np.float32(0.70710678))) * np.float32(0.5)")(_activations)
case("F.gelu(x, approximate='tanh')", group=GROUP, name="gelu tanh fwd (64,256,384)")(
    _activations)
case("F.gelu(x).backward(g)", group=GROUP, name="gelu fwd+bwd (64,256,384)")(_activations)
case("torch.sigmoid(x)", group=GROUP, name="sigmoid fwd (64,256,384)",
     numpy="expit(a)")(_activations)
case("F.silu(x).backward(g)", group=GROUP, name="silu fwd+bwd (64,256,384)")(_activations)
case("F.leaky_relu(x, 0.1).backward(g)", group=GROUP,
     name="leaky_relu fwd+bwd (64,256,384)")(_activations)
case("F.elu(x).backward(g)", group=GROUP, name="elu fwd+bwd (64,256,384)")(_activations)
case("F.softplus(x).backward(g)", group=GROUP,
     name="softplus fwd+bwd (64,256,384)")(_activations)
case("F.hardswish(x).backward(g)", group=GROUP,
     name="hardswish fwd+bwd (64,256,384)")(_activations)
case("torch.sigmoid(x).backward(g)", group=GROUP,
     name="sigmoid fwd+bwd (64,256,384)")(_activations)
case("torch.tanh(x).backward(g)", group=GROUP, name="tanh fwd+bwd (64,256,384)")(_activations)
