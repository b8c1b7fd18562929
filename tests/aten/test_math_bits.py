"""The conjugate and negative bits (Note [Math bits] in aten/math_bits.py), against torch.

Each case runs the same expression in glasstorch and torch and compares what a user
sees: values, dtype, sizes, strides, whether the result shares the input's memory, its
bits and versions.
"""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _summary(t, root=None) -> tuple:
    """What a user sees of a result: geometry, bits, memory sharing and the values."""
    if not hasattr(t, "is_conj"):
        return ("value", t)
    shares = None
    if root is not None and t.numel():
        shares = t.untyped_storage().data_ptr() == root.untyped_storage().data_ptr()
    values = np.asarray(t.detach().resolve_conj().resolve_neg().tolist())
    if values.dtype.kind in "fc":
        values = values.round(5)
    return (str(t.dtype), tuple(t.shape), t.stride(), t.storage_offset(), t.is_conj(),
            t.is_neg(), shares, values.tolist())


def _run(lib, expression: str):
    x = lib.tensor([[1 + 2j, 3 - 1j, -2j], [0.5, 4 + 4j, -1 - 1j]], dtype=lib.complex64)
    r = lib.tensor([[1.0, -2.0, 3.0], [0.0, 5.0, -6.0]])
    c = x.conj()
    n = lib._neg_view(r)
    scope = {"torch": lib, "x": x, "c": c, "r": r, "n": n}
    result = eval(expression, scope)
    root = r if expression.lstrip("(").startswith(("n", "r")) else x
    return _summary(result, root), _summary(x), _summary(r), x._version


EXPRESSIONS = [
    # views keep the bit, over the same memory
    "c", "c.t()", "c[1]", "c[:, 1:]", "c.reshape(3, 2)", "c.view(6)", "c.unsqueeze(0)",
    "c.expand(2, 2, 3)", "c.detach()", "c.narrow(1, 0, 2)", "c.unbind(0)[1]", "c.mT",
    "c.diagonal()", "c.transpose(0, 1).contiguous()", "c.flatten()", "c.squeeze()",
    "x.mH", "x.H", "x.adjoint()", "x.conj().conj()", "torch.conj(x)", "x.T.conj()",
    "c.real", "c.imag", "c.imag.real", "n", "n[0]", "n.t()", "torch._neg_view(c)",
    "torch._neg_view(c).imag", "torch._neg_view(c).real", "torch._neg_view(n)",
    # reals: conj is the tensor itself
    "r.conj()", "r.resolve_conj()", "r.conj_physical()",
    # copies and math resolve the bits
    "c.clone()", "c.resolve_conj()", "n.resolve_neg()", "torch._neg_view(c).resolve_conj()",
    "torch._neg_view(c).resolve_neg()", "c.conj_physical()", "c.contiguous()",
    "c.t().contiguous()", "c.to(torch.complex128)", "c.to(torch.complex64)", "c + 1", "c * c",
    "c.abs()", "c.exp()", "c.sum()", "c.sum(0)", "c.mean(1)", "c.prod()", "c @ x.mT",
    "x @ x.mH", "torch.stack([c, x])", "torch.cat([c, c], 1)", "c.flip(0)",
    "torch.where(r > 0, c, x)", "c.masked_fill(r > 0, 2j)", "c[[0, 1], [2, 0]]",
    "torch.empty_like(c).shape", "torch.zeros_like(c)", "c.new_ones(2)", "n + 1", "n * r",
    "n.sum()", "n.abs()", "-n", "c == x.conj_physical()", "torch.equal(c, x.conj_physical())",
    "c.sum().item()", "c.tolist()", "n.tolist()", "c[0, 0].item()", "float(n[0, 1])",
    "torch.allclose(c, x.conj_physical())", "torch.vdot(c[0], x[1])", "torch.dot(c[0], c[1])",
    "torch.dot(c[0], x[1])", "torch.dot(x[0], c[1])", "torch.vdot(x[0], c[1])",
    "torch.vdot(c[0], c[1])",
    "torch.linalg.vector_norm(c)", "n.sort(dim=1, stable=True).values",
]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_matches_torch(expression):
    assert _run(gt, expression) == _run(torch, expression)


WRITES = [
    # through a conjugate view memory gets the conjugates of what is written
    "c.add_(1j)", "c.mul_(2j)", "c.fill_(1 + 1j)", "c.zero_()", "c[0].copy_(x[1])",
    "c[:, 0].mul_(3)", "c.copy_(x)", "c.copy_(c.clone())", "c.t().add_(x.t())",
    "c.imag.add_(1)", "c.real.mul_(2)", "c.imag.copy_(r)", "c.conj_physical_()",
    "c.index_fill_(1, torch.tensor([0]), 5j)", "c.masked_fill_(r > 0, 3)",
    "torch.mul(x, 2, out=torch.zeros(2, 3, dtype=torch.complex64).conj())",
    "torch.add(x, c, out=torch.zeros(2, 3, dtype=torch.complex64).conj())",
    "x.copy_(c)", "x.add_(c)", "x.mul_(c)", "x[0].copy_(c[1])", "torch.zeros(2, 3).copy_(n)",
    # through a negative view memory gets the negations
    "n.add_(1)", "n.mul_(2)", "n.copy_(r)", "n.fill_(3)", "n[0].copy_(n[1])",
    "n.clamp_(min=0)", "r.copy_(n)", "r.add_(n)",
    "torch.add(r, 1, out=torch.zeros(2, 3)._neg_view())",
]


@pytest.mark.parametrize("expression", WRITES)
def test_writes_match_torch(expression):
    """The result, the memory under the views, and the version counts."""
    assert _run(gt, expression) == _run(torch, expression)


@pytest.mark.parametrize("expression", [
    "c.numpy()", "n.numpy()", "torch._neg_view(c).numpy()", "c.view(torch.float32)",
    "c.view(torch.complex64)", "n.view(torch.int32)", "torch.view_as_real(c)",
    "x.conj()._conj().numpy().shape", "r._conj()",
])
def test_refusals_match_torch(expression):
    outcomes = []
    for lib in (gt, torch):
        try:
            outcomes.append(_run(lib, expression)[0])
        except RuntimeError as error:
            outcomes.append(("RuntimeError", str(error).split(" INTERNAL ASSERT")[0]))
    assert outcomes[0] == outcomes[1]


def test_printing_shows_the_values():
    for lib in (gt, torch):
        x = lib.tensor([1 + 2j, -3j])
        c = x.conj()
        assert repr(c) == "tensor([1.-2.j, -0.+3.j])" and str(lib._neg_view(x.real)) == \
            "tensor([-1.,  0.])"
        assert repr(lib.zeros(2, 2, dtype=lib.complex64, device="meta").mH) == \
            "tensor(..., device='meta', size=(2, 2), dtype=torch.complex64)"


def test_numpy_with_force_gives_the_values():
    c = gt.tensor([1 + 2j]).conj()
    assert c.numpy(force=True).tolist() == [1 - 2j]
    assert np.asarray(c.resolve_conj()).tolist() == [1 - 2j]


def test_meta_tensors_carry_the_bits():
    for lib in (gt, torch):
        m = lib.zeros(2, 3, dtype=lib.complex64, device="meta").mH
        assert m.is_conj() and m.stride() == (1, 3) and m.shape == (3, 2)
        assert not (m * 2).is_conj() and (m @ m.mH).shape == (3, 3)
        assert not m.resolve_conj().is_conj()


def _grads(lib, expression: str):
    x = lib.tensor([[1 + 1j, 2 - 1j], [0.5j, -1.0]], dtype=lib.complex128, requires_grad=True)
    r = lib.tensor([1.0, -2.0], dtype=lib.float64, requires_grad=True)
    value = eval(expression, {"torch": lib, "x": x, "r": r})
    value.backward()
    grads = [t.grad for t in (x, r) if t.grad is not None]
    return [(g.is_conj(), np.asarray(g.resolve_conj().tolist()).round(8).tolist())
            for g in grads], type(value.grad_fn).__name__


@pytest.mark.parametrize("expression", [
    "(x.conj() * (2 + 1j)).real.sum()", "(x.conj().abs() ** 2).sum()",
    "(x.mH @ x).abs().sum()", "x.conj().resolve_conj().imag.sum()",
    "(torch._neg_view(r) * torch.tensor([3.0, 4.0], dtype=torch.float64)).sum()",
    "torch._neg_view(r).resolve_neg().sum()", "x.conj().imag.sum()",
    "(x.conj() * x).real.sum()", "x.conj()[0].real.sum()",
])
def test_gradients_through_math_bits_match_torch(expression):
    assert _grads(gt, expression) == _grads(torch, expression)


def test_node_names_match_torch():
    for lib in (gt, torch):
        x = lib.tensor([1 + 1j], requires_grad=True)
        names = [type(t.grad_fn).__name__ for t in (
            x.conj(), x.conj().resolve_conj(), lib._neg_view(x), x.conj().imag)]
        assert names == ["ConjBackward0", "CloneBackward0", "NegViewBackward0",
                         "SelectBackward0"]


def test_forward_ad_tangent_of_a_conjugate_view():
    import glasstorch.autograd.forward_ad as gt_fwAD
    import torch.autograd.forward_ad as fwAD
    found = []
    for lib, ad in ((gt, gt_fwAD), (torch, fwAD)):
        with ad.dual_level():
            dual = ad.make_dual(lib.tensor([1 + 2j]), lib.tensor([3 - 1j]))
            out = ad.unpack_dual(dual.conj() * 2)
            found.append(out.tangent.resolve_conj().tolist())
    assert found[0] == found[1] == [6 + 2j]


def test_dispatch_keys_are_ordered_as_torchs():
    from glasstorch.c10.dispatch_key import DISPATCH_ORDER, KEYS_BELOW, DispatchKey
    order = [k.name for k in DISPATCH_ORDER]
    assert order.index("ADInplaceOrView") < order.index("Negative") < \
        order.index("Conjugate") < order.index("Python")
    assert (int(DispatchKey.Conjugate), int(DispatchKey.Negative)) == (256, 512)
    assert KEYS_BELOW[DispatchKey.Conjugate] == int(DispatchKey.Python | DispatchKey.Meta |
                                                    DispatchKey.CPU)


def test_fallback_route_is_visible():
    c = gt.tensor([1 + 1j]).conj()
    with gt.dispatch_trace() as route:
        c.exp()
    text = str(route)
    assert "Conjugate        -> math_bits_fallback" in text
    assert "aten::conj_physical" in text          # the materialisation, below it


def test_in_place_writes_through_math_bit_views_differentiate_as_torchs():
    """An in-place write through a conjugate (negated) view of a non-leaf: the base's
    history becomes CopySlices, the view's is regenerated with its bit (ConjBackward0
    over the strided view), and the gradients are torch's."""
    found = []
    for lib in (gt, torch):
        x = lib.tensor([1 + 1j, 2 - 1j], requires_grad=True)
        y = x * 1
        c = y.conj()
        c.mul_(2 + 1j)
        (y.real.sum() + 3 * y.imag.sum()).backward()
        r = lib.tensor([1.0, 2.0], requires_grad=True)
        n = lib._neg_view(r * 1)
        n.add_(1)
        (n * lib.tensor([2.0, 5.0])).sum().backward()
        found.append((type(c.grad_fn).__name__, type(y.grad_fn).__name__, x.grad.tolist(),
                      type(n.grad_fn).__name__, r.grad.tolist(), c.detach().tolist()))
    assert found[0] == found[1]
