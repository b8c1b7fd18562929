"""Losses: cross entropy on ``(4096, 512)`` float32 logits (a language model's batch of
positions over its vocabulary), forward and forward + backward, and mse_loss.

Cross entropy is `_log_softmax` (row-blocked passes) then `nll_loss_forward` (one
gather and a sum); its backward is `nll_loss_backward` (one scatter into zeros) then
`_log_softmax_backward_data` (one fused pass). The NumPy column is the bare forward
arithmetic: a stable log-softmax and the picked entries' mean.
"""
from bench import case

GROUP = "nn: losses"


def _logits(torch, np):
    torch.manual_seed(0)
    x = torch.randn(4096, 512, requires_grad=True)
    target = torch.randint(0, 512, (4096,))
    a = x.detach().numpy().copy()
    return {"torch": torch, "F": torch.nn.functional, "np": np, "x": x, "t": target,
            "a": a, "n": target.numpy(), "numpy_cross_entropy": _numpy_cross_entropy}


def _numpy_cross_entropy(np, a, n):
    shifted = a - a.max(axis=1, keepdims=True)
    logs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -logs[np.arange(len(n)), n].mean()


def _regression(torch, np):
    torch.manual_seed(0)
    x = torch.randn(4096, 512, requires_grad=True)
    y = torch.randn(4096, 512)
    return {"torch": torch, "F": torch.nn.functional, "np": np, "x": x, "y": y,
            "a": x.detach().numpy().copy(), "b": y.numpy()}


case("F.cross_entropy(x, t)", group=GROUP, name="cross_entropy fwd (4096, 512)",
     numpy="numpy_cross_entropy(np, a, n)")(_logits)
case("F.cross_entropy(x, t).backward()", group=GROUP,
     name="cross_entropy fwd+bwd (4096, 512)")(_logits)
case("F.cross_entropy(x, t, label_smoothing=0.1).backward()", group=GROUP,
     name="cross_entropy label_smoothing fwd+bwd (4096, 512)")(_logits)
case("F.mse_loss(x, y).backward()", group=GROUP, name="mse_loss fwd+bwd (4096, 512)",
     numpy="((a - b) ** 2).mean()")(_regression)
