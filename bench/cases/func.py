"""torch.func: per-sample gradients of an MLP (the DP-SGD recipe), vmap(grad) against
the loop of one backward pass per sample that it replaces.

The MLP is 32 -> 64 -> 10 with cross-entropy, for a batch of 64. `vmap(grad(loss))`
runs each operator once for the whole batch through its batching rule; the loop runs
64 forward and backward passes. The NumPy column is left empty.
"""
from bench import case

GROUP = "torch.func: per-sample gradients (MLP 32-64-10, batch 64)"


def _mlp(torch, np):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(),
                                torch.nn.Linear(64, 10))
    params = {k: v.detach() for k, v in model.named_parameters()}
    x, y = torch.randn(64, 32), torch.randint(0, 10, (64,))
    F = torch.nn.functional

    def loss(p, sample, target):
        out = torch.func.functional_call(model, p, (sample.unsqueeze(0),))
        return F.cross_entropy(out, target.unsqueeze(0))
    per_sample = torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))

    def loop():
        grads = []
        for i in range(64):
            model.zero_grad()
            F.cross_entropy(model(x[i:i + 1]), y[i:i + 1]).backward()
            grads.append([p.grad.clone() for p in model.parameters()])
        return grads
    return {"vmapped": lambda: per_sample(params, x, y), "loop": loop}


case("vmapped()", group=GROUP, name="vmap(grad(loss))")(_mlp)
case("loop()", group=GROUP, name="loop of 64 backward passes")(_mlp)
