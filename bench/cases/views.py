"""Views beyond the overhead table's: the reshapes and basic indices a model writes.

On a 3x4 float32 tensor each is metadata work only (no element is read), so the time
is the view's Python path: the method, the operator's express entry with its cached
geometry (Note [View geometry cache] in aten/view_express.py), the result's birth.
`x.view(-1)`, `x.t()`, `x.transpose(0, 1)` and `x[1:3]` are in overhead.py.
"""
from bench import case

GROUP = "views (3x4 float32)"


def _small(torch, np):
    return {"x": torch.zeros(3, 4), "a": np.zeros((3, 4), np.float32), "np": np,
            "torch": torch}


case("x[0]", numpy="a[0]", group=GROUP)(_small)
case("x[1, 2:]", numpy="a[1, 2:]", group=GROUP)(_small)
case("x[:, 1]", numpy="a[:, 1]", group=GROUP)(_small)
case("x[..., None]", numpy="a[..., None]", group=GROUP)(_small)
case("x.view(x.shape)", numpy="a.reshape(a.shape)", group=GROUP)(_small)
case("x.reshape(-1)", numpy="a.reshape(-1)", group=GROUP)(_small)
case("x.flatten()", numpy="a.reshape(-1)", group=GROUP)(_small)
case("x.unsqueeze(0)", numpy="a[None]", group=GROUP)(_small)
case("x.select(0, 1)", numpy="a[1]", group=GROUP)(_small)
case("x.permute(1, 0)", numpy="a.transpose(1, 0)", group=GROUP)(_small)
case("x.expand(2, 3, 4)", numpy="np.broadcast_to(a, (2, 3, 4))", group=GROUP)(_small)
