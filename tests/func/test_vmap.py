"""torch.vmap / torch.func.vmap: batching rules equal to a loop, in_dims / out_dims /
pytrees / chunk_size / nesting / randomness, and torch's errors."""
import warnings

import pytest

import glasstorch as gt
from glasstorch.func import vmap


def loop(func, *inputs, in_dims=0):
    dims = in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(inputs)
    size = next(x.shape[d] for x, d in zip(inputs, dims) if d is not None)
    outs = [func(*[x if d is None else x.select(d, i) for x, d in zip(inputs, dims)])
            for i in range(size)]
    return gt.stack(outs)


CASES = [
    (lambda a, b: a * b + 1, (0, None)),
    (lambda a, b: gt.where(a > 0, a, b), (1, 0)),
    (lambda a, b: (a @ b.T).relu(), (0, 0)),
    (lambda a, b: a.sum(-1) - b.mean(), (1, None)),
    (lambda a, b: gt.cat([a, b], 0).softmax(0), (0, 0)),
    (lambda a, b: a.t().reshape(-1)[:3] * b[0, 1], (0, 0)),
    (lambda a, b: a.permute(1, 0).flip(0).cumsum(1), (1, 1)),
    (lambda a, b: a.unsqueeze(0).expand(2, 3, 4).amax((0, 2)) + b.sum(), (0, None)),
    (lambda a, b: gt.stack([a, b], 1).squeeze().transpose(0, 2), (0, 0)),
    (lambda a, b: a[gt.tensor([2, 0])].max(1).values, (0, None)),
    (lambda a, b: gt.dot(a[0], b[1]), (0, 0)),
    (lambda a, b: a.sort(1).values.median(), (1, None)),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_vmap_equals_a_loop(case):
    func, dims = CASES[case]
    gt.manual_seed(case)
    a = gt.randn(5, 3, 4) if dims[0] == 0 else gt.randn(3, 5, 4)
    b = gt.randn(3, 4) if dims[1] is None else (
        gt.randn(5, 3, 4) if dims[1] == 0 else gt.randn(3, 5, 4))
    expected = loop(func, a, b, in_dims=dims)
    assert gt.allclose(vmap(func, in_dims=dims)(a, b), expected, atol=1e-6)


def test_out_dims_nesting_pytrees_and_chunks():
    x, y = gt.randn(4, 3), gt.randn(3, 4)
    out = vmap(lambda d: {"s": d["x"] * 2, "t": d["y"].sum()}, in_dims=({"x": 0, "y": 1},))(
        {"x": x, "y": y})
    assert gt.equal(out["s"], x * 2) and gt.allclose(out["t"], y.sum(0))
    assert gt.equal(vmap(lambda t: t * 3, out_dims=1)(x), (x * 3).T)
    outer = vmap(vmap(lambda a, b: a * b, in_dims=(0, None)), in_dims=(None, 1))(x[0], y)
    expected = gt.stack([gt.stack([x[0][i] * y[:, j] for i in range(3)]) for j in range(4)])
    assert gt.allclose(outer, expected)
    inner = vmap(vmap(gt.mul))(x, x)
    assert gt.equal(inner, x * x)
    chunked = vmap(lambda t: t.sin().sum(), chunk_size=3)(gt.randn(7, 2).abs())
    assert chunked.shape == (7,)
    z = gt.randn(7, 2)
    assert gt.equal(vmap(gt.cos, chunk_size=2)(z), vmap(gt.cos)(z))
    assert gt.equal(vmap(lambda t: x, out_dims=0)(z), x.expand(7, 4, 3))  # unbatched output
    assert gt.vmap is vmap


def test_nested_vmap_equals_double_loop():
    x, y = gt.randn(2, 3, 4), gt.randn(3, 4)
    got = vmap(vmap(lambda a, b: (a * b).sum(), in_dims=(0, 0)), in_dims=(0, None))(x, y)
    expected = gt.stack([gt.stack([(x[i, j] * y[j]).sum() for j in range(3)])
                         for i in range(2)])
    assert gt.allclose(got, expected)


def test_inplace_on_batched_writes_through_and_refuses_unbatched_self():
    x = gt.zeros(3, 4)
    vmap(lambda t: t.add_(1.5))(x)
    assert gt.equal(x, gt.full((3, 4), 1.5))
    with pytest.raises(RuntimeError, match="vmap: inplace arithmetic\\(self, \\*extra_args\\)"):
        vmap(lambda a, b: a.mul_(b), in_dims=(None, 0))(gt.zeros(3, 4), x)


def test_randomness_modes():
    x = gt.zeros(4, 3)
    with pytest.raises(RuntimeError, match="randomness error mode"):
        vmap(lambda t: t + gt.rand(3))(x)
    with pytest.raises(RuntimeError, match="randomness error mode"):
        vmap(lambda t: gt.nn.functional.dropout(t + 1, 0.5))(x)
    same = vmap(lambda t: t + gt.rand(3), randomness="same")(x)
    assert gt.equal(same, same[0].expand(4, 3))
    different = vmap(lambda t: t + gt.rand(3), randomness="different")(x)
    assert not gt.equal(different[0], different[1])
    same_like = vmap(lambda t: gt.rand_like(t), randomness="same")(x)
    assert gt.equal(same_like, same_like[0].expand(4, 3))
    different_like = vmap(lambda t: gt.rand_like(t), randomness="different")(x)
    assert not gt.equal(different_like[0], different_like[1])


def test_fallback_runs_per_sample_and_warns_when_asked():
    from glasstorch._functorch import batching_fallback
    x = gt.randn(3, 10)
    expected = gt.stack([gt.histc(x[i], 4) for i in range(3)])
    batching_fallback.set_vmap_fallback_warning_enabled(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = vmap(lambda t: gt.histc(t, 4))(x)
    finally:
        batching_fallback.set_vmap_fallback_warning_enabled(False)
    assert gt.equal(got, expected)
    assert any("batching rule for aten::histc" in str(w.message) for w in caught)


def test_batched_tensor_prints_as_torch_does():
    seen = []
    vmap(lambda t: seen.append(repr(t)) or t)(gt.tensor([[1., 2.], [3., 4.]]))
    assert seen[0] == "BatchedTensor(lvl=%s, bdim=0, value=\n    tensor([[1., 2.],\n" \
        "            [3., 4.]])\n)" % seen[0].split("lvl=")[1].split(",")[0]


ERRORS = [
    ("sizes", lambda torch, x: torch.vmap(torch.add)(x, x[:2])),
    ("in_dim range", lambda torch, x: torch.vmap(torch.sin, in_dims=2)(x)),
    ("in_dims structure", lambda torch, x: torch.vmap(torch.sin, in_dims=(0, 0))(x)),
    ("in_dims type", lambda torch, x: torch.vmap(torch.sin, in_dims="a")(x)),
    ("in_dims list", lambda torch, x: torch.vmap(torch.sin, in_dims=[0])(x)),
    ("in_dim float", lambda torch, x: torch.vmap(torch.sin, in_dims=(1.5,))(x)),
    ("item", lambda torch, x: torch.vmap(lambda t: t.sum().item())(x)),
    ("control flow", lambda torch, x: torch.vmap(lambda t: 1 if t.sum() > 0 else 0)(x)),
    ("random", lambda torch, x: torch.vmap(lambda t: torch.rand(3))(x)),
    ("randomness", lambda torch, x: torch.vmap(torch.sin, randomness="bad")),
    ("chunk", lambda torch, x: torch.vmap(torch.sin, chunk_size=0)),
    ("non-tensor input", lambda torch, x: torch.vmap(torch.sin)(1.0)),
    ("no inputs", lambda torch, x: torch.vmap(torch.sin)()),
    ("non-tensor output", lambda torch, x: torch.vmap(lambda t: 1)(x)),
    ("nothing mapped", lambda torch, x: torch.vmap(torch.add, in_dims=(None, None))(x, x)),
    ("out_dims type", lambda torch, x: torch.vmap(lambda t: t, out_dims="a")(x)),
    ("out_dims None batched", lambda torch, x: torch.vmap(lambda t: t, out_dims=None)(x)),
    ("out_dim range", lambda torch, x: torch.vmap(lambda t: t, out_dims=3)(x)),
    ("scalar in_dim", lambda torch, x: torch.vmap(torch.sin)(torch.tensor(1.))),
    ("escaped", lambda torch, x: _escaped(torch, x) + 1),
    ("inplace into unbatched", lambda torch, x: torch.vmap(
        lambda a, b: a.mul_(b), in_dims=(None, 0))(torch.zeros(3, 4), x)),
    ("copy into unbatched", lambda torch, x: torch.vmap(
        lambda a, b: a.copy_(b), in_dims=(None, 0))(torch.zeros(4), x)),
]


def _escaped(torch, x):
    kept = []
    torch.vmap(lambda t: kept.append(t) or t)(x)
    return kept[0]


@pytest.mark.parametrize("name", [name for name, _ in ERRORS])
def test_errors_match_torch(name):
    torch = pytest.importorskip("torch")
    call = dict(ERRORS)[name]
    with pytest.raises(Exception) as expected:
        call(torch, torch.randn(3, 4))
    with pytest.raises(type(expected.value)) as got:
        call(gt, gt.randn(3, 4))
    assert str(got.value) == str(expected.value)


def test_debug_unwrap_shows_the_value():
    seen = []
    vmap(vmap(lambda t: seen.append((gt.func.debug_unwrap(t).shape,
                                     gt.func.debug_unwrap(t, recurse=False).shape)) or t))(
        gt.zeros(2, 3, 4))
    assert seen == [((2, 3, 4), (3, 4))]


def _assign_row(t):
    copy = t.clone()
    copy[0] = t[1]
    return copy


NN_CASES = {
    "conv2d": (lambda a: gt.nn.functional.conv2d(a, gt.ones(2, 3, 3, 3), padding=1),
               (4, 1, 3, 5, 5)),
    "layer_norm": (lambda a: gt.nn.functional.layer_norm(a, (5,)), (4, 3, 5)),
    "max_pool": (lambda a: gt.nn.functional.max_pool2d(a, 2), (4, 2, 3, 6, 6)),
    "cross_entropy": (lambda a: gt.nn.functional.cross_entropy(a, a.softmax(-1)), (4, 3, 5)),
    "topk": (lambda a: a.topk(2, dim=1).values, (4, 3, 5)),
    "setitem": (_assign_row, (4, 3, 5)),
    "mse": (lambda a: gt.nn.functional.mse_loss(a, gt.zeros(3, 5)), (4, 3, 5)),
}


@pytest.mark.parametrize("name", sorted(NN_CASES))
def test_nn_functions_equal_a_loop_without_the_fallback(name):
    from glasstorch._functorch import batching_fallback
    func, shape = NN_CASES[name]
    gt.manual_seed(1)
    x = gt.randn(*shape)
    batching_fallback.FALLBACK_OPS.clear()
    got = vmap(func)(x)
    assert not batching_fallback.FALLBACK_OPS
    assert gt.allclose(got, loop(func, x), atol=1e-5)
