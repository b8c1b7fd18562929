"""grad / grad_and_value / vjp / jvp / linearize / jacrev / jacfwd / hessian against
torch.func, their compositions with each other and with vmap, and torch's errors."""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch import func

torch = pytest.importorskip("torch")


def both(values):
    """The same float64 values in glasstorch and torch."""
    arrays = [np.asarray(v, dtype=np.float64) for v in values]
    return [gt.tensor(a) for a in arrays], [torch.tensor(a) for a in arrays]


def close(got, expected):
    if isinstance(expected, (tuple, list)):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            close(g, e)
        return
    np.testing.assert_allclose(np.asarray(got.detach().numpy() if hasattr(got, "detach")
                                          else got), expected.detach().numpy(), rtol=1e-10,
                               atol=1e-12)


FUNCTIONS = {
    "poly": lambda m, x, y: (x ** 3 * y).sum() + x.sin().prod(),
    "softmax": lambda m, x, y: (m.softmax(x, 0) * y.exp()).sum(),
    "matmul": lambda m, x, y: (m.outer(x, y).tanh() @ y).logsumexp(0),
    "norm": lambda m, x, y: m.linalg.vector_norm(x - y) + (x * y).cumsum(0).max(),
}
RNG = np.random.default_rng(0)
X, Y = RNG.standard_normal(4), RNG.standard_normal(4)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("transform", ["grad", "jacrev", "jacfwd", "hessian"])
def test_derivatives_match_torch(name, transform):
    (gx, gy), (tx, ty) = both([X, Y])
    f = FUNCTIONS[name]
    argnums = (0, 1) if transform in ("grad", "jacrev") else 0
    ours = getattr(func, transform)(lambda a, b: f(gt, a, b), argnums)(gx, gy)
    theirs = getattr(torch.func, transform)(lambda a, b: f(torch, a, b), argnums)(tx, ty)
    close(ours, theirs)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_vjp_jvp_linearize_match_torch(name):
    (gx, gy, gv), (tx, ty, tv) = both([X, Y, RNG.standard_normal(4)])
    f = FUNCTIONS[name]
    out, vjp_fn = func.vjp(lambda a, b: f(gt, a, b) * gt.arange(3.), gx, gy)
    t_out, t_vjp_fn = torch.func.vjp(lambda a, b: f(torch, a, b) * torch.arange(3.), tx, ty)
    close(out, t_out)
    close(vjp_fn(gt.ones(3, dtype=gt.float64)), t_vjp_fn(torch.ones(3, dtype=torch.float64)))
    close(func.jvp(lambda a: f(gt, a, gy), (gx,), (gv,)),
          torch.func.jvp(lambda a: f(torch, a, ty), (tx,), (tv,)))
    _, jvp_fn = func.linearize(lambda a: f(gt, a, gy), gx)
    close(jvp_fn(gv), torch.func.jvp(lambda a: f(torch, a, ty), (tx,), (tv,))[1])


def test_compositions_match_torch():
    (gx, gxs), (tx, txs) = both([X, RNG.standard_normal((3, 4))])

    def f(m, x):
        return (x.sin() * x.cos().exp()).sum()
    close(func.vmap(func.grad(lambda a: f(gt, a)))(gxs),
          torch.func.vmap(torch.func.grad(lambda a: f(torch, a)))(txs))
    close(func.grad(lambda a: func.vmap(lambda r: f(gt, r))(a).sum())(gxs),
          torch.func.grad(lambda a: torch.func.vmap(lambda r: f(torch, r))(a).sum())(txs))
    close(func.jacrev(func.jacrev(lambda a: f(gt, a)))(gx), torch.func.hessian(
        lambda a: f(torch, a))(tx))
    close(func.jacfwd(func.jacfwd(lambda a: f(gt, a)))(gx), torch.func.hessian(
        lambda a: f(torch, a))(tx))
    close(func.vmap(func.jacfwd(lambda a: a.sin() * a.sum()))(gxs),
          torch.func.vmap(torch.func.jacfwd(lambda a: a.sin() * a.sum()))(txs))
    close(func.grad(func.grad(lambda s: (s ** 3).sin()))(gx[0]),
          torch.func.grad(torch.func.grad(lambda s: (s ** 3).sin()))(tx[0]))


def test_has_aux_argnums_and_structures():
    x = gt.tensor([1., 2.], dtype=gt.float64)
    (g, aux) = func.grad(lambda a: ((a ** 2).sum(), a * 3), has_aux=True)(x)
    assert gt.equal(g, 2 * x) and gt.equal(aux, 3 * x) and not aux.requires_grad
    (g, v) = func.grad_and_value(lambda d: (d["a"] * d["b"]).sum())({"a": x, "b": x + 1})
    assert gt.equal(g["a"], x + 1) and gt.equal(g["b"], x) and v.item() == 8.0
    jac = func.jacrev(lambda a, b: (a * b, a + b), argnums=(0, 1))(x, x)
    assert [tuple(j.shape) for pair in jac for j in pair] == [(2, 2)] * 4
    jac = func.jacfwd(lambda a, b: {"p": a * b}, argnums=1)(x, x)
    assert gt.equal(jac["p"], gt.diag(x))
    ones = gt.ones(2, dtype=gt.float64)
    out, jvp_out, aux = func.jvp(lambda a: (a.exp(), a.sum()), (x,), (ones,), has_aux=True)
    assert gt.allclose(jvp_out, x.exp()) and aux.item() == 3.0


def test_functionalize_gives_the_functions_results():
    def f(x):
        y = x.clone()
        y.add_(1)
        return y * 2
    x = gt.tensor([1., 2.])
    assert gt.equal(func.functionalize(f)(x), f(x))


def test_results_do_not_leak_inner_graphs_but_compose_with_outer_autograd():
    x = gt.tensor([1., 2.], dtype=gt.float64)
    assert not func.grad(lambda a: (a ** 3).sum())(x).requires_grad
    kept = []
    func.grad(lambda a: kept.append(a) or (a ** 2).sum())(x)
    assert not (kept[0] + 1).requires_grad         # the level is over, as in torch
    w = gt.tensor([1., 2.], dtype=gt.float64, requires_grad=True)
    g = func.grad(lambda a: (a ** 3).sum())(w)
    g.sum().backward()
    assert gt.equal(w.grad, 6 * w.detach())


ERRORS = [
    ("argnum range", lambda m, x: m.func.grad(lambda t: t.sum(), argnums=-2)(x)),
    ("argnum type", lambda m, x: m.func.grad(lambda t: t.sum(), argnums=1.0)(x)),
    ("argnums empty", lambda m, x: m.func.grad(lambda t: t.sum(), argnums=())(x)),
    ("argnums repeat", lambda m, x: m.func.grad(lambda t: t.sum(), argnums=(0, 0))(x)),
    ("not scalar", lambda m, x: m.func.grad(lambda t: t)(x)),
    ("not tensor", lambda m, x: m.func.grad(lambda t: 3)(x)),
    ("input not tensor", lambda m, x: m.func.grad(lambda t: t.sum())(3.0)),
    ("aux missing", lambda m, x: m.func.grad(lambda t: t.sum(), has_aux=True)(x)),
    ("aux type", lambda m, x: m.func.grad(lambda t: (t.sum(), 1), has_aux=True)(x)),
    ("vjp aux", lambda m, x: m.func.vjp(lambda t: t, x, has_aux=True)),
    ("vjp output", lambda m, x: m.func.vjp(lambda t: 3, x)),
    ("vjp cotangents", lambda m, x: m.func.vjp(lambda t: t, x)[1]((x,))),
    ("jvp primals", lambda m, x: m.func.jvp(lambda t: t, x, x)),
    ("jvp structure", lambda m, x: m.func.jvp(lambda t: t, (x,), (x, x))),
    ("jvp size", lambda m, x: m.func.jvp(lambda t: t, (x,), (x[:2],))),
    ("jacrev argnum", lambda m, x: m.func.jacrev(lambda t: t, argnums=2)(x)),
    ("functionalize remove", lambda m, x: m.func.functionalize(lambda t: t, remove="bad")),
]


@pytest.mark.parametrize("name", [name for name, _ in ERRORS])
def test_errors_match_torch(name):
    call = dict(ERRORS)[name]
    with pytest.raises(Exception) as expected:
        call(torch, torch.randn(3))
    with pytest.raises(type(expected.value)) as got:
        call(gt, gt.randn(3))
    assert str(got.value) == str(expected.value)


# ----------------------------------------------------------------------------------
# Per-sample gradients (DP-SGD): vmap(grad) equal to a loop of backward passes
# ----------------------------------------------------------------------------------
def _per_sample_grads(model, inputs, targets):
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(p, x, y):
        out = func.functional_call(model, p, (x.unsqueeze(0),))
        return gt.nn.functional.cross_entropy(out, y.unsqueeze(0))
    return func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, inputs, targets)


def _loop_grads(model, inputs, targets, index):
    model.zero_grad()
    gt.nn.functional.cross_entropy(model(inputs[index:index + 1]),
                                   targets[index:index + 1]).backward()
    return {k: v.grad for k, v in model.named_parameters()}


@pytest.mark.parametrize("kind", ["mlp", "convnet"])
def test_dp_sgd_per_sample_gradients_equal_a_loop(kind):
    nn = gt.nn
    gt.manual_seed(0)
    if kind == "mlp":
        model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3)).double()
        inputs = gt.randn(5, 6, dtype=gt.float64)
    else:
        model = nn.Sequential(nn.Conv2d(1, 3, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                              nn.Linear(12, 3)).double()
        inputs = gt.randn(5, 1, 6, 6, dtype=gt.float64)
    targets = gt.tensor([0, 2, 1, 1, 0])
    grads = _per_sample_grads(model, inputs, targets)
    for i in range(5):
        for name, expected in _loop_grads(model, inputs, targets, i).items():
            assert gt.allclose(grads[name][i], expected, rtol=1e-10, atol=1e-12), (name, i)


def test_module_jacobians_and_batched_hessians_match_torch():
    g_model = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.Tanh(), gt.nn.Linear(4, 2)).double()
    t_model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(),
                                  torch.nn.Linear(4, 2)).double()
    t_model.load_state_dict({k: torch.tensor(v.detach().numpy())
                             for k, v in g_model.state_dict().items()})
    (gx,), (tx,) = both([RNG.standard_normal((5, 3))])
    g_params = {k: v.detach() for k, v in g_model.named_parameters()}
    t_params = {k: v.detach() for k, v in t_model.named_parameters()}

    def ours(x):
        return func.functional_call(g_model, g_params, (x,)).sum()

    def theirs(x):
        return torch.func.functional_call(t_model, t_params, (x,)).sum()
    close(func.vmap(func.hessian(ours))(gx), torch.func.vmap(torch.func.hessian(theirs))(tx))
    by_params = func.jacrev(lambda p: func.functional_call(g_model, p, (gx,)))(g_params)
    expected = torch.func.jacrev(lambda p: torch.func.functional_call(t_model, p, (tx,)))(
        t_params)
    for name in g_params:
        close(by_params[name], expected[name])
