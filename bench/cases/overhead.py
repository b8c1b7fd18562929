"""Small-tensor overhead: operators whose cost is Python bookkeeping, not arithmetic.

On a 3x4 float32 tensor every one of these is metadata work (views) or one tiny
allocation (factories, copies), so the time measured is the cost of the machinery:
argument binding, dispatch, building the result tensor. DESIGN.md section 7 sets the
target: at or below torch's eager overhead.
"""
from bench import case

GROUP = "small-tensor overhead (3x4 float32)"


def _small(torch, np):
    return {"x": torch.zeros(3, 4), "a": np.zeros((3, 4), np.float32), "np": np,
            "torch": torch}


def _small_transposed(torch, np):
    names = _small(torch, np)
    names["x"] = torch.zeros(4, 3).t()
    names["a"] = np.zeros((4, 3), np.float32).T
    return names


case("x.view(-1)", numpy="a.reshape(-1)", group=GROUP)(_small)
case("x.t()", numpy="a.T", group=GROUP)(_small)
case("x.transpose(0, 1)", numpy="a.swapaxes(0, 1)", group=GROUP)(_small)
case("x[1:3]", numpy="a[1:3]", group=GROUP)(_small)
case("torch.zeros(3, 4)", numpy="np.zeros((3, 4), np.float32)", group=GROUP)(_small)
case("torch.empty(3, 4)", numpy="np.empty((3, 4), np.float32)", group=GROUP)(_small)
case("x.clone()", numpy="a.copy()", group=GROUP)(_small)
case("x.contiguous()", numpy="np.ascontiguousarray(a)", group=GROUP,
     name="x.contiguous() (x transposed)")(_small_transposed)
