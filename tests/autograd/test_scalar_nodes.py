"""The `.Scalar` overloads of add/sub/mul/div (aten/native/pointwise/binary_scalar.py): Python's
bindings never reach them (``x * 2`` records MulBackward0, as in torch), torch.ops.aten
and the composites that torch writes with numbers in C++ do (MulBackward1, ...)."""
import pytest

import glasstorch as torch
import glasstorch.nn.functional as F


def _x():
    return torch.randn(3, 4, dtype=torch.float64, requires_grad=True)


@pytest.mark.parametrize("call", [lambda x: torch.mul(x, 2), lambda x: x * 2,
                                  lambda x: x.mul(2), lambda x: (x * 1).mul_(2),
                                  lambda x: torch.ops.aten.mul(x, 2)])
def test_python_bindings_take_the_tensor_overload(call):
    assert type(call(_x()).grad_fn).__name__ == "MulBackward0"


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div"])
def test_scalar_overloads_record_numbered_nodes(name):
    x = _x()
    node = f"{name.title()}Backward1"
    result = getattr(torch.ops.aten, name).Scalar(x, 3)
    assert type(result.grad_fn).__name__ == node
    y = x * 1
    assert getattr(torch.ops.aten, name + "_").Scalar(y, 3) is y
    assert type(y.grad_fn).__name__ == node and y._version == 1
    assert torch.autograd.gradcheck(lambda t: getattr(torch.ops.aten, name).Scalar(t, 3), (x,))


def test_scalar_out_is_generated_torchs_way():
    x = torch.arange(6.).reshape(2, 3).t()
    out = torch.empty(0)
    assert torch.ops.aten.mul.Scalar_out(x, 2, out=out) is out
    assert out.stride() == (2, 1) and out.tolist() == (x * 2).tolist()
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype float, but got "
                                           "double instead$"):
        torch.ops.aten.mul.Scalar_out(x, 2, out=torch.empty(0, dtype=torch.float64))


def _names(fn, depth=0) -> set:
    if fn is None or depth > 30:
        return set()
    found = {fn.name()}
    for nf, _ in fn.next_functions:
        found |= _names(nf, depth + 1)
    return found


COMPOSITES = {
    "trapezoid": (lambda t, F, m, p: t.trapezoid(m), "MulBackward1"),
    "trapezoid_x": (lambda t, F, m, p: t.trapezoid(m, t.arange(4.) ** 2), "DivBackward1"),
    "cumulative_trapezoid": (lambda t, F, m, p: t.cumulative_trapezoid(m), "MulBackward1"),
    "cumulative_trapezoid_x": (lambda t, F, m, p: t.cumulative_trapezoid(m, t.arange(4.)),
                               "DivBackward1"),
    "gradient": (lambda t, F, m, p: t.gradient(m, edge_order=2)[1], "MulBackward1"),
    "cross_entropy_probs": (lambda t, F, m, p: F.cross_entropy(m, p), "DivBackward1"),
    "cross_entropy_smoothing": (lambda t, F, m, p: F.cross_entropy(
        m, t.tensor([0, 1, 3]), label_smoothing=0.1), "MulBackward1"),
    "rms_norm": (lambda t, F, m, p: F.rms_norm(m, (4,)), "AddBackward1"),
    "sdpa_math": (lambda t, F, m, p: F.scaled_dot_product_attention(
        m[None], m[None], m[None], attn_mask=t.ones(3, 3, dtype=t.bool).tril()),
        "MulBackward1"),
}


def _run(lib, functional, name):
    lib.manual_seed(0)
    m = lib.randn(3, 4, dtype=lib.float64, requires_grad=True)
    p = lib.softmax(lib.randn(3, 4, dtype=lib.float64), 1)
    return COMPOSITES[name][0](lib, functional, m, p)


@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_composites_record_scalar_nodes(name):
    names = _names(_run(torch, F, name).grad_fn)
    assert COMPOSITES[name][1] in names


@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_composites_node_names_match_torch(name):
    real = pytest.importorskip("torch")
    import torch.nn.functional as real_F
    ours = _names(_run(torch, F, name).grad_fn)
    theirs = _names(_run(real, real_F, name).grad_fn)
    # glasstorch's 3-D matmul returns bmm's result; torch's views it (matmul.py's choice)
    views = {"ExpandBackward0", "ReshapeAliasBackward0", "UnsafeViewBackward0",
             "ViewBackward0"}
    assert ours == theirs - views if name == "sdpa_math" else ours == theirs


@pytest.mark.parametrize("number, gradient", [(2 ** 63, 9.223372036854776e18),
                                              (2 ** 64 - 1, 1.8446744073709552e19)])
def test_recorded_numbers_beyond_int64_are_unsigned_as_torchs_scalars(number, gradient):
    x = torch.ones(2, dtype=torch.float64, requires_grad=True)
    (x * number).sum().backward()
    assert x.grad.tolist() == [gradient, gradient]


@pytest.mark.parametrize("number, message", [(2 ** 64, "int too big to convert"),
                                             (-2 ** 63 - 1, "can't convert negative int to "
                                                            "unsigned")])
def test_recorded_numbers_beyond_uint64_raise_torchs_overflow(number, message):
    with pytest.raises(OverflowError, match=f"^{message}$"):
        torch.ones(2, requires_grad=True) * number
