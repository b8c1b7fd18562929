"""Pooling: the layers of a small convnet's feature maps.

``F.max_pool2d(x, 2)`` and ``F.avg_pool2d(x, 3, 2, 1)`` on ``(32, 64, 32, 32)`` float32
(a CIFAR-sized batch after a conv layer), forward and forward + backward, and the global
``F.adaptive_avg_pool2d(x, 1)`` of a ResNet head. The kernels loop over the few kernel
offsets, never over output positions (Note [Pooling by kernel offsets]), max pooling in
cache-sized blocks of planes (Note [Max pooling in blocks]); the convnet's own
``(64, 32, 32, 32)`` max pooling too. The NumPy column is the bare 2x2 maximum of four
strided slices.
"""
from bench import case

GROUP = "nn: pooling"


def _maps(torch, np):
    torch.manual_seed(0)
    x = torch.randn(32, 64, 32, 32, requires_grad=True)
    a = np.random.default_rng(0).standard_normal((32, 64, 32, 32), dtype=np.float32)
    return {"torch": torch, "F": torch.nn.functional, "np": np, "x": x,
            "g": torch.randn(32, 64, 16, 16), "a": a}


def _convnet_maps(torch, np):
    torch.manual_seed(0)
    return {"F": torch.nn.functional, "x": torch.randn(64, 32, 32, 32, requires_grad=True),
            "g": torch.randn(64, 32, 16, 16)}


case("F.max_pool2d(x, 2)", group=GROUP, name="max_pool2d fwd (32,64,32,32)",
     numpy="np.maximum(np.maximum(a[..., ::2, ::2], a[..., 1::2, ::2]), "
           "np.maximum(a[..., ::2, 1::2], a[..., 1::2, 1::2]))")(_maps)
case("F.max_pool2d(x, 2).backward(g)", group=GROUP,
     name="max_pool2d fwd+bwd (32,64,32,32)")(_maps)
case("F.avg_pool2d(x, 3, 2, 1)", group=GROUP, name="avg_pool2d 3x3/2 fwd (32,64,32,32)")(_maps)
case("F.avg_pool2d(x, 3, 2, 1).backward(g)", group=GROUP,
     name="avg_pool2d 3x3/2 fwd+bwd (32,64,32,32)")(_maps)
case("F.adaptive_avg_pool2d(x, 1)", group=GROUP,
     name="adaptive_avg_pool2d global (32,64,32,32)")(_maps)
case("F.max_pool2d(x, 2)", group=GROUP, name="max_pool2d fwd (64,32,32,32)")(_convnet_maps)
case("F.max_pool2d(x, 2).backward(g)", group=GROUP,
     name="max_pool2d fwd+bwd (64,32,32,32)")(_convnet_maps)
