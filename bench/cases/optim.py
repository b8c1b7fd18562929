"""Optimizers: one step over the parameters of a small character-level GPT.

The 20 float32 tensors have the shapes of a 3-layer GPT with 128 channels over a
65-character vocabulary (embedding, attention and MLP weights, biases, norms): about
600k numbers, the training demo's optimizer load. Each step reads and writes every
parameter and its state a few times, so the time is the elementwise kernels' plus a
per-parameter overhead; torch's default on CPU is its for-loop implementation, the
one glasstorch's roundings follow.

The last case is one large parameter (4M numbers, 16 MiB), where the update's
temporaries no longer fit in the cache unless the step works in blocks.

The NumPy column is the floor for the same arithmetic in plain float32 NumPy (no fused
multiply-adds, so not the same bits): what the update costs without any framework.
"""
from bench import case

GROUP = "optim: one step over a small GPT's 20 float32 tensors"
BLOCK = [(128, 384), (384, 128), (128, 512), (512, 128), (128,)]
SHAPES = [(65, 128)] + BLOCK * 3 + [(128,)] * 4

NUMPY_ADAMW = """
for p, g, m, v in arrays:
    p *= f(1 - 1e-5)
    m += f(0.1) * (g - m)
    v *= f(0.999)
    v += f(0.001) * g * g
    p -= f(0.01) * m / (np.sqrt(v) / f(0.5) + f(1e-8))
"""


def _model(make_optimizer, shapes=SHAPES):
    def setup(torch, np):
        rng = np.random.default_rng(0)
        params = []
        for shape in shapes:
            param = torch.tensor(rng.standard_normal(shape, dtype=np.float32),
                                 requires_grad=True)
            param.grad = torch.tensor(rng.standard_normal(shape, dtype=np.float32))
            params.append(param)
        optimizer = make_optimizer(torch, params)
        optimizer.step()                 # the state exists before timing
        arrays = [tuple(rng.standard_normal(shape, dtype=np.float32) for _ in range(4))
                  for shape in shapes]
        return {"optimizer": optimizer, "arrays": arrays, "np": np, "f": np.float32}
    return setup


case("optimizer.step()", numpy=NUMPY_ADAMW, group=GROUP, name="AdamW step")(
    _model(lambda torch, params: torch.optim.AdamW(params, lr=1e-3)))
case("optimizer.step()", group=GROUP, name="Adam step (amsgrad, weight decay)")(
    _model(lambda torch, params: torch.optim.Adam(params, lr=1e-3, amsgrad=True,
                                                  weight_decay=0.01)))
case("optimizer.step()", group=GROUP, name="SGD step (momentum 0.9, nesterov)")(
    _model(lambda torch, params: torch.optim.SGD(params, lr=1e-3, momentum=0.9,
                                                 nesterov=True)))
case("optimizer.zero_grad(set_to_none=False)", group=GROUP, name="zero_grad (fill zeros)")(
    _model(lambda torch, params: torch.optim.AdamW(params, lr=1e-3)))
case("optimizer.step()", numpy=NUMPY_ADAMW, group="optim: one step over one large parameter",
     name="AdamW step, one 4M-element parameter")(
    _model(lambda torch, params: torch.optim.AdamW(params, lr=1e-3), shapes=[(2048, 2048)]))
