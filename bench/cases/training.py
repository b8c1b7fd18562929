"""Eager training steps: what autograd adds on top of the operators.

A step is forward operators (each recording a node when an input requires grad), a
backward pass (the engine runs one node per recorded call: its formula's operators plus
the engine's bookkeeping) and an optimizer update (in-place operators under no_grad).
On small tensors nearly all of it is Python overhead per operator and per node, so
these cases measure the machinery: recording, the engine, dispatch, bindings.

  * recorded calls: ``a + b``, ``a * b``, ``a.relu()``, ``a.sum()`` on 10-element leaves,
    each recording a node (issue 22: the recording's cost beside the call's own);
  * tiny graph: ``(a * b).sum()`` and its backward on 10-element leaves (issue 6);
  * MLP step: 64x128 -> 256 -> 10 with F.linear, relu, mse_loss, SGD written as
    ``p.add_(p.grad, alpha=-lr)`` (issue 7), and the same as nn.Sequential + optim.SGD;
  * GPT step: the model of examples/train_char_lm.py at its default size (2 blocks,
    width 128, 4 heads, batch 32 x 64 characters) with AdamW and gradient clipping.

The NumPy column is left empty: there is no NumPy program doing the same work.
"""
import pathlib

from bench import case

GROUP = "training steps (autograd + optimizer)"
_EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "train_char_lm.py"


def _tiny(torch, np):
    return {"torch": torch, "a": torch.ones(10, requires_grad=True),
            "b": torch.ones(10, requires_grad=True)}


def _mlp_tensors(torch):
    torch.manual_seed(0)
    w1 = (torch.randn(256, 128) * 0.05).requires_grad_()
    w2 = (torch.randn(10, 256) * 0.05).requires_grad_()
    b1, b2 = torch.zeros(256, requires_grad=True), torch.zeros(10, requires_grad=True)
    return [w1, b1, w2, b2], torch.randn(64, 128), torch.randn(64, 10)


def _mlp(torch, np):
    F = torch.nn.functional
    params, x, y = _mlp_tensors(torch)
    w1, b1, w2, b2 = params

    def forward():
        return F.mse_loss(F.linear(F.relu(F.linear(x, w1, b1)), w2, b2), y)

    def step():
        forward().backward()
        with torch.no_grad():
            for p in params:
                p.add_(p.grad, alpha=-0.01)
                p.grad = None

    def update():
        with torch.no_grad():
            for p in params:
                p.add_(p, alpha=-1e-6)
    return {"forward": forward, "step": step, "update": update}


def _mlp_module(torch, np):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(64, 128), torch.randn(64, 10)

    def step():
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
    return {"step": step}


def _gpt(torch, np):
    """The example's model classes, defined against `torch` (the example's only
    glasstorch-specific line is its import)."""
    source = _EXAMPLE.read_text().replace("import glasstorch as torch\n", "")
    namespace = {"torch": torch, "__name__": "train_char_lm", "__file__": str(_EXAMPLE)}
    exec(compile(source, str(_EXAMPLE), "exec"), namespace)
    torch.manual_seed(1337)
    model = namespace["GPT"](65, 64, 128, 4, 2, 0.1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, betas=(0.9, 0.99),
                                  weight_decay=0.1)
    x, y = torch.randint(65, (32, 64)), torch.randint(65, (32, 64))

    def step():
        _, loss = model(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
    return {"step": step}


for _statement in ("a + b", "a * b", "a.relu()", "a.sum()"):
    case(_statement, group=GROUP, name=f"recorded {_statement} (10 floats requiring grad)")(_tiny)
case("z = (a * b).sum(); z.backward()", group=GROUP,
     name="tiny graph: (a * b).sum() + backward (10 floats)")(_tiny)
case("forward()", group=GROUP, name="MLP forward, recording (F.linear, relu, mse)")(_mlp)
case("step()", group=GROUP, name="MLP step: forward + backward + add_ SGD")(_mlp)
case("update()", group=GROUP, name="MLP update only: 4 x p.add_(g, alpha) no_grad")(_mlp)
case("step()", group=GROUP, name="MLP step: nn.Sequential + optim.SGD")(_mlp_module)
case("step()", group=GROUP, name="GPT step: train_char_lm model, AdamW, clipping")(_gpt)
