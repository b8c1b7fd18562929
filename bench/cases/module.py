"""The Module machinery on a training step's hot path: calling a module (the hook-free
fast path of ``__call__``), reading a parameter attribute (``__getattr__`` into the
parameter table), walking ``parameters()`` and ``named_parameters()`` as optimizers and
``zero_grad`` do, ``state_dict()``, and building a module tree. None of these has a
NumPy equivalent: the time is Python bookkeeping, to compare with torch's.
"""
from bench import case

GROUP = "nn: Module machinery"


def _tree(torch, np):
    class Identity(torch.nn.Module):
        def forward(self, x):
            return x

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = torch.nn.Parameter(torch.ones(4))
            self.bias = torch.nn.Parameter(torch.zeros(4))
            self.register_buffer("mean", torch.zeros(4))

    def model():
        return torch.nn.Sequential(*[torch.nn.Sequential(Block(), Block()) for _ in range(25)])
    net = model()
    for p in net.parameters():
        p.grad = torch.ones(4)
    return {"torch": torch, "identity": Identity(), "x": torch.ones(2), "block": Block(),
            "net": net, "chain": torch.nn.Sequential(*[Identity() for _ in range(10)]),
            "model": model}


case("identity(x)", group=GROUP, name="call a module (no hooks)")(_tree)
case("chain(x)", group=GROUP, name="Sequential of 10 modules")(_tree)
case("block.weight", group=GROUP, name="read a parameter attribute")(_tree)
case("list(net.parameters())", group=GROUP, name="parameters() of 100")(_tree)
case("list(net.named_parameters())", group=GROUP, name="named_parameters() of 100")(_tree)
case("net.zero_grad()", group=GROUP, name="zero_grad() of 100")(_tree)
case("net.state_dict()", group=GROUP, name="state_dict() of 150 entries")(_tree)
case("model()", group=GROUP, name="build 75 modules, 100 parameters")(_tree)
