"""Module hooks against torch: forward pre/post hooks (with_kwargs, prepend, always_call),
full backward hooks and backward pre-hooks (gradients seen and replaced), the deprecated
backward hook, global hooks, handles; plus the hook-free fast path of __call__."""
import warnings

import pytest

import glasstorch as gt
from nn_compare import same_outcome


def _scale_module(torch):
    class Scale(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))

        def forward(self, x, shift=0.0):
            return x @ self.w * 2 + shift, x.sum()

    return Scale()


def _listed(grads):
    return [None if g is None else g.tolist() for g in grads]


def _forward_hooks(torch):
    m, log = _scale_module(torch), []
    m.register_forward_pre_hook(lambda mod, args: log.append(("pre", len(args))))
    m.register_forward_pre_hook(lambda mod, args, kwargs: log.append(("pre-kw", kwargs)),
                                with_kwargs=True, prepend=True)
    m.register_forward_pre_hook(lambda mod, args: args[0] * 2)        # replaces the input
    m.register_forward_hook(lambda mod, args, out: log.append(("post", args[0].tolist())))
    m.register_forward_hook(lambda mod, args, kwargs, out: (out[0] + 1, out[1]),
                            with_kwargs=True)
    handle = m.register_forward_hook(lambda mod, args, out: log.append("removed"))
    handle.remove()
    handle.remove()
    with m.register_forward_hook(lambda mod, args, out: log.append("scoped")):
        out = m(torch.ones(1, 2), shift=1.0)
    m(torch.ones(1, 2))
    return out, log


def _pre_hook_replacing_kwargs(torch):
    m = _scale_module(torch)
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"shift": 100.0}),
                                with_kwargs=True)
    return m(torch.ones(1, 2))


def _pre_hook_bad_return(torch):
    m = _scale_module(torch)
    m.register_forward_pre_hook(lambda mod, args, kwargs: 3, with_kwargs=True)
    m(torch.ones(1, 2))


def _always_called_hook(torch):
    m, log = _scale_module(torch), []
    m.register_forward_hook(lambda mod, args, out: log.append(("always", out)), always_call=True)
    m.register_forward_hook(lambda mod, args, out: log.append("normal"))
    try:
        m(torch.ones(3, 3))                       # forward raises
    except RuntimeError:
        log.append("raised")
    return log


def _full_backward_hooks(torch):
    m, log = _scale_module(torch), []
    m.register_full_backward_pre_hook(lambda mod, go: log.append(("bpre", _listed(go))))

    def hook(mod, grad_input, grad_output):
        log.append(("bh", _listed(grad_input), _listed(grad_output)))
        return (grad_input[0] * 10,)
    m.register_full_backward_hook(hook)
    m.register_full_backward_hook(lambda mod, gi, go: log.append("first"), prepend=True)
    x = torch.tensor([[1.0, 1.0]], requires_grad=True)
    out = m(x)
    (out[0].sum() + out[1]).backward()
    return out[0].grad_fn.name(), log, x.grad, m.w.grad


def _backward_hooks_with_mixed_arguments(torch):
    class Mixed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))

        def forward(self, a, k, b):
            return a * self.w * k, 7, b * 3

    m, log = Mixed(), []
    m.register_full_backward_hook(lambda mod, gi, go: log.append(("bh", _listed(gi), _listed(go))))
    m.register_full_backward_pre_hook(lambda mod, go: log.append(("pre", _listed(go))))
    a = torch.ones(2, requires_grad=True)
    out = m(a, 2.0, torch.ones(2))               # the last input needs no grad
    out[0].sum().backward()
    both = m(a, 1.0, torch.ones(2, requires_grad=True))
    (both[0].sum() + 2 * both[2].sum()).backward()
    return out[1], out[2].grad_fn, log, a.grad


def _nested_backward_hooks(torch):
    class Square(torch.nn.Module):
        def forward(self, x):
            return x * x

    seq, log = torch.nn.Sequential(Square(), Square()), []
    for i, sub in enumerate(seq):
        sub.register_full_backward_hook(lambda mod, gi, go, i=i: log.append((i, _listed(gi))))
    seq.register_full_backward_hook(lambda mod, gi, go: log.append(("seq", _listed(gi))))
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = seq(x)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    return log, x.grad


def _backward_pre_hook_replacing(torch):
    m = _scale_module(torch)
    m.register_full_backward_pre_hook(lambda mod, go: (go[0] * 0 + 5, go[1]))
    x = torch.ones(1, 2, requires_grad=True)
    out = m(x)
    out[0].sum().backward()
    return x.grad, m.w.grad


def _backward_hook_wrong_count(torch):
    m = _scale_module(torch)
    m.register_full_backward_hook(lambda mod, gi, go: (None, None))
    x = torch.ones(1, 2, requires_grad=True)
    m(x)[0].sum().backward()


def _backward_hook_without_input_grad(torch):
    m, log = _scale_module(torch), []
    m.register_full_backward_hook(lambda mod, gi, go: log.append((gi, _listed(go))))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m(torch.ones(1, 2))[0].sum().backward()
    return log, [str(w.message)[:60] for w in caught], m.w.grad


def _mixing_backward_hook_kinds(torch):
    m = _scale_module(torch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m.register_backward_hook(lambda *args: None)
    m.register_full_backward_hook(lambda *args: None)


def _deprecated_backward_hooks(torch):
    class Forms(torch.nn.Module):
        def __init__(self, form):
            super().__init__()
            self.form = form
            self.w = torch.nn.Parameter(torch.ones(2))

        def forward(self, x):
            y = x * self.w
            return [y, y.exp(), (y, x + self.w), y.exp()][self.form]

    seen = []
    for form in range(4):
        m, log = Forms(form), []
        m.register_backward_hook(lambda mod, gi, go: log.append((len(gi), len(go))))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = m(torch.ones(2, requires_grad=True) * 1)
            (out[0] if isinstance(out, tuple) else out).sum().backward()
        seen.append((log, [(w.category.__name__, str(w.message)) for w in caught]))
    return seen


def _global_hooks(torch):
    module_file = torch.nn.modules.module
    log = []
    handles = [
        module_file.register_module_forward_pre_hook(lambda mod, args: log.append("gpre")),
        module_file.register_module_forward_hook(lambda mod, args, out: log.append("gpost")),
        module_file.register_module_full_backward_hook(lambda mod, gi, go: log.append("gbh"))]
    try:
        m = _scale_module(torch)
        m.register_forward_pre_hook(lambda mod, args: log.append("pre"))
        x = torch.ones(1, 2, requires_grad=True)
        m(x)[0].sum().backward()
    finally:
        for handle in handles:
            handle.remove()
    m(x)
    return log


def _no_hooks_no_extra_nodes(torch):
    m = _scale_module(torch)
    m.register_forward_hook(lambda *args: None)
    out = m(torch.ones(1, 2, requires_grad=True))
    return out[0].grad_fn.name()


SCENARIOS = [value for name, value in sorted(globals().items())
             if name.startswith("_") and callable(value) and name not in ("_scale_module",
                                                                           "_listed")]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__.strip("_"))
def test_same_as_torch(scenario):
    pytest.importorskip("torch")
    same_outcome(scenario)


# ----- without torch ---------------------------------------------------------------------
def test_call_without_hooks_is_forward():
    calls = []

    class Echo(gt.nn.Module):
        def forward(self, *args, **kwargs):
            calls.append((args, kwargs))
            return len(calls)

    m = Echo()
    assert m(1, 2, key=3) == 1
    assert calls == [((1, 2), {"key": 3})]


def test_handles_forget_their_hook_everywhere():
    m = gt.nn.Module()
    m.forward = lambda x: x
    handle = m.register_forward_hook(lambda *a: None, with_kwargs=True, always_call=True)
    assert handle.id in m._forward_hooks_with_kwargs and handle.id in m._forward_hooks_always_called
    handle.remove()
    assert not (m._forward_hooks or m._forward_hooks_with_kwargs
                or m._forward_hooks_always_called)


def test_forward_hooks_order_and_replacement():
    log = []

    class Double(gt.nn.Module):
        def forward(self, x, scale=1.0):
            log.append(("forward", x, scale))
            return x * 2 * scale

    m = Double()
    m.register_forward_pre_hook(lambda mod, args: (args[0] + 1,))
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"scale": 10.0}),
                                with_kwargs=True)
    m.register_forward_hook(lambda mod, args, out: out + 0.5)
    m.register_forward_hook(lambda mod, args, out: log.append(("first", out)), prepend=True)
    assert m(1.0) == 40.5
    assert log == [("forward", 2.0, 10.0), ("first", 40.0)]


def test_always_called_hook_runs_when_forward_raises():
    class Broken(gt.nn.Module):
        def forward(self, x):
            raise ValueError("broken")

    seen = []
    m = Broken()
    m.register_forward_hook(lambda mod, args, out: seen.append(out), always_call=True)
    with pytest.raises(ValueError, match="broken"):
        m(1)
    assert seen == [None]
