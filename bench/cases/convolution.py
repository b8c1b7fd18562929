"""Convolution: the layers of a CIFAR-sized convnet (issue 15's speed targets).

``F.conv2d`` on a ``(64, 32, 32, 32)`` float32 batch with 64 3x3 filters (padding 1),
forward, and forward + backward (input, weight and bias gradients: a transposed
convolution and a grouped one, Note [Convolution backward in convolutions]), and each
gradient alone through `convolution_backward`; a strided transposed convolution; and a
small convnet training step (two conv layers, batch norm, max pooling, a linear
classifier, cross entropy, SGD), with a variant without batch norm and pooling. The
NumPy column is the forward's im2col and one GEMM.
"""
from bench import case

GROUP = "nn: convolution"


def _conv(torch, np):
    torch.manual_seed(0)
    x = torch.randn(64, 32, 32, 32, requires_grad=True)
    weight = (torch.randn(64, 32, 3, 3) * 0.05).requires_grad_()
    bias = torch.zeros(64, requires_grad=True)
    grad = torch.randn(64, 64, 32, 32)
    a = np.random.default_rng(0).standard_normal((64, 32, 32, 32), dtype=np.float32)
    w = np.random.default_rng(1).standard_normal((64, 32 * 9), dtype=np.float32)
    return {"torch": torch, "F": torch.nn.functional, "np": np, "x": x, "w": weight,
            "b": bias, "g": grad, "a": a, "wm": w, "numpy_conv": _numpy_conv,
            "backward": _backward(torch)}


def _backward(torch):
    """`convolution_backward` at the case's parameters, for the gradients `mask` asks."""
    def gradients(grad, input, weight, mask):
        return torch.ops.aten.convolution_backward(
            grad, input.detach(), weight.detach(), [weight.shape[0]], [1, 1], [1, 1],
            [1, 1], False, [0, 0], 1, mask)
    return gradients


def _numpy_conv(np, a, wm):
    padded = np.pad(a, [(0, 0), (0, 0), (1, 1), (1, 1)])
    n, c, h, w = a.shape
    s = padded.strides
    columns = np.lib.stride_tricks.as_strided(padded, (c, 3, 3, n, h, w),
                                              (s[1], s[2], s[3], s[0], s[2], s[3]))
    return wm @ columns.reshape(c * 9, n * h * w)


def _transposed(torch, np):
    torch.manual_seed(0)
    return {"F": torch.nn.functional, "x": torch.randn(32, 64, 16, 16),
            "w": torch.randn(64, 32, 4, 4) * 0.05}


def _convnet(torch, np, norm_and_pool: bool = True):
    nn = torch.nn
    torch.manual_seed(0)
    if norm_and_pool:
        model = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                              nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1),
                              nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                              nn.Linear(64 * 8 * 8, 10))
    else:
        model = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
                              nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU(),
                              nn.Flatten(), nn.Linear(64 * 8 * 8, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = torch.randn(64, 3, 32, 32), torch.randint(0, 10, (64,))

    def step():
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    return {"step": step}


case("F.conv2d(x, w, b, padding=1)", group=GROUP, name="conv2d fwd (64,32,32,32) 3x3x64",
     numpy="numpy_conv(np, a, wm)")(_conv)
case("F.conv2d(x, w, b, padding=1).backward(g)", group=GROUP,
     name="conv2d fwd+bwd (64,32,32,32) 3x3x64")(_conv)
case("backward(g, x, w, [True, False, False])", group=GROUP,
     name="conv2d input grad (64,32,32,32) 3x3x64")(_conv)
case("backward(g, x, w, [False, True, True])", group=GROUP,
     name="conv2d weight+bias grad (64,32,32,32) 3x3x64")(_conv)
case("F.conv_transpose2d(x, w, stride=2, padding=1)", group=GROUP,
     name="conv_transpose2d fwd (32,64,16,16) 4x4 s2")(_transposed)
case("step()", group=GROUP, name="convnet step (conv, bn, pool, linear; 64x3x32x32)")(
    _convnet)
case("step()", group=GROUP, name="convnet step (conv s2, relu, linear; 64x3x32x32)")(
    lambda torch, np: _convnet(torch, np, norm_and_pool=False))
