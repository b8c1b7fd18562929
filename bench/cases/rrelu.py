"""RReLU: the randomized leaky ReLU in training (one 64-bit draw per element that is not
positive) and in eval mode, forward and forward + backward, on ``(256, 4096)`` float32
(1M elements, half of them negative)."""
from bench import case

GROUP = "nn: rrelu"


def _inputs(torch, np):
    torch.manual_seed(0)
    x = torch.randn(256, 4096, requires_grad=True)
    return {"torch": torch, "F": torch.nn.functional, "x": x, "g": torch.randn(256, 4096)}


case("F.rrelu(x, training=True)", group=GROUP, name="rrelu training fwd (256,4096)")(_inputs)
case("F.rrelu(x, training=True).backward(g)", group=GROUP,
     name="rrelu training fwd+bwd (256,4096)")(_inputs)
case("F.rrelu(x)", group=GROUP, name="rrelu eval fwd (256,4096)")(_inputs)
