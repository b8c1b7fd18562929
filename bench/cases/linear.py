"""Linear layers, initialisers and gradient clipping: the parts of a training step and
of building a model that issue 7 adds on top of the operators.

Building ``nn.Linear(1024, 1024)`` is one kaiming-uniform draw of 1M values (the
random stream's cost) plus the module machinery. A Linear forward/backward is BLAS
(addmm and two mm) plus the autograd bookkeeping. ``clip_grad_norm_`` over 12
gradients is 12 small norms, a stack, a norm and 12 in-place multiplies: overhead-bound.
The NumPy column is the bare arithmetic where one exists.
"""
from bench import case

GROUP = "nn: Linear, init, clip_grad_norm_"


def _linear(torch, np):
    torch.manual_seed(0)
    layer = torch.nn.Linear(512, 512)
    x = torch.randn(64, 512, requires_grad=True)
    a = np.random.default_rng(0).standard_normal((64, 512), dtype=np.float32)
    w = np.random.default_rng(1).standard_normal((512, 512), dtype=np.float32)
    return {"torch": torch, "np": np, "layer": layer, "x": x, "a": a, "w": w,
            "b": w[0].copy()}


def _gradients(torch, np):
    torch.manual_seed(0)
    parameters = [torch.randn(256, 256, requires_grad=True) for _ in range(12)]
    for parameter in parameters:
        parameter.grad = torch.randn(256, 256)
    return {"torch": torch, "np": np, "parameters": parameters}


def _empty(torch, np):
    torch.manual_seed(0)
    return {"torch": torch, "np": np, "w": torch.empty(1024, 1024),
            "q": torch.empty(256, 256)}


case("torch.nn.Linear(1024, 1024)", group=GROUP, name="Linear(1024, 1024) construction")(
    _empty)
case("torch.nn.init.trunc_normal_(w, std=0.02)", group=GROUP,
     name="trunc_normal_ [1M float32]")(_empty)
case("torch.nn.init.orthogonal_(q)", group=GROUP, name="orthogonal_ [256x256]")(_empty)
case("layer(x)", numpy="a @ w.T + b", group=GROUP,
     name="Linear(512, 512) forward [64 rows]")(_linear)
case("layer(x).sum().backward()", group=GROUP,
     name="Linear(512, 512) forward+backward [64 rows]")(_linear)
case("torch.nn.utils.clip_grad_norm_(parameters, 1.0)", group=GROUP,
     name="clip_grad_norm_ [12 x 256x256]")(_gradients)
