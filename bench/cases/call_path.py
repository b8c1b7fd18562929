"""The call path on one thread: what an operator and a backward node cost in Python.

Issue 22's table: tiny no-grad calls (a Python-number-sized tensor of 10 floats, so the
arithmetic is nothing and the time is binding, dispatch, the kernel's bookkeeping and
the result's birth), the same calls recording a graph, a tiny backward pass, and the
training steps, each on one thread in both libraries. ``python bench/layers.py`` splits
the time of a few of these calls by layer (docs/architecture.md, "Where an operator's
time goes").
"""
from bench import case
from bench.cases.training import _mlp, _mlp_module
from bench.cases.transformer import _encoder

GROUP = "call path (1 thread)"


def _one_thread(setup):
    """`setup` with both libraries on one thread (the runner restores the default)."""
    def on_one_thread(torch, np):
        torch.set_num_threads(1)
        return setup(torch, np)
    return on_one_thread


@_one_thread
def _tiny(torch, np):
    a, b, x = torch.rand(10), torch.rand(10), torch.rand(10)
    ga, gb = torch.rand(10, requires_grad=True), torch.rand(10, requires_grad=True)
    return {"torch": torch, "a": a, "b": b, "x": x, "ga": ga, "gb": gb}


for _stmt in ("a + b", "a * b", "a + 1", "torch.add(a, b)", "x.sum()", "x.exp()",
              "x.relu()", "x[1:3]", "x.view(-1)"):
    case(_stmt, group=GROUP, name=f"{_stmt} [10 floats]")(_tiny)
for _stmt in ("ga + gb", "ga * gb", "ga.sum()", "ga.relu()"):
    case(_stmt, group=GROUP, name=f"{_stmt} recording [10 floats]")(_tiny)
case("(ga * gb).sum().backward()", group=GROUP, name="(a * b).sum().backward() [10 floats]")(
    _tiny)
case("step()", group=GROUP, name="MLP step: forward + backward + add_ SGD [1 thread]")(
    _one_thread(_mlp))
case("step()", group=GROUP, name="MLP step: nn.Sequential + optim.SGD [1 thread]")(
    _one_thread(_mlp_module))
case("step()", group=GROUP, name="TransformerEncoder training step [1 thread]")(
    _one_thread(_encoder))
