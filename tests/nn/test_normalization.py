"""LayerNorm, RMSNorm and their functional forms: values, gradients, node names, reprs
and errors against torch 2.13 (skipped without torch), plus torch-free checks of the
fused backward's output_mask and the shared-formula machinery it relies on."""
import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, copy_parameters, to_glass, to_torch

try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="differential: needs torch")


# ----- torch-free --------------------------------------------------------------------
def test_backward_op_leaves_out_what_output_mask_refuses():
    x = gt.randn(2, 3, 4)
    _, mean, rstd = gt.native_layer_norm(x, [4], None, None, 1e-5)
    grads = gt.ops.aten.native_layer_norm_backward(gt.ones(2, 3, 4), x, [4], mean, rstd,
                                                    gt.ones(4), None, [False, True, False])
    assert grads[0] is None and grads[2] is None
    assert grads[1].shape == (4,)


def test_one_backward_call_for_every_parameter():
    """SharedFormula: one NativeLayerNormBackward0 gives input, weight and bias gradients,
    and only those whose inputs require grad are computed."""
    x, w, b = (gt.randn(3, 5, requires_grad=True), gt.randn(5, requires_grad=True),
               gt.randn(5))
    y = gt.layer_norm(x, [5], w, b)
    assert type(y.grad_fn).__name__ == "NativeLayerNormBackward0"
    y.sum().backward()
    assert x.grad is not None and w.grad is not None and b.grad is None
    np.testing.assert_allclose(w.grad.numpy(), ((x - x.mean(-1, keepdim=True)) /
                               (x.var(-1, unbiased=False, keepdim=True) + 1e-5).sqrt())
                               .sum(0).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_statistics_do_not_require_grad():
    out, mean, rstd = gt.native_layer_norm(gt.randn(2, 4, requires_grad=True), [4], None,
                                           None, 1e-5)
    assert out.requires_grad and not mean.requires_grad and not rstd.requires_grad


def test_modules_initialise_and_repr():
    m = gt.nn.LayerNorm([3, 4], elementwise_affine=True, bias=False)
    assert m.bias is None and (m.weight.detach().numpy() == 1).all()
    assert repr(m) == "LayerNorm((3, 4), eps=1e-05, elementwise_affine=True, bias=False)"
    assert repr(gt.nn.RMSNorm(4)) == "RMSNorm((4,), eps=None, elementwise_affine=True)"
    assert gt.nn.LayerNorm(4, elementwise_affine=False).weight is None


# ----- against torch -----------------------------------------------------------------
@needs_torch
@pytest.mark.parametrize("kind, args", [("LayerNorm", ((8,),)), ("LayerNorm", ((3, 8), 1e-3)),
                                        ("RMSNorm", ((8,),)), ("RMSNorm", ((3, 8), 0.1))])
def test_module_matches_torch(kind, args):
    theirs = getattr(torch.nn, kind)(*args)
    mine = getattr(gt.nn, kind)(*args)
    with torch.no_grad():
        for p in theirs.parameters():
            p.uniform_(0.5, 1.5)
    copy_parameters(mine, theirs)
    assert repr(mine) == repr(theirs)
    x = torch.randn(2, 3, 8, requires_grad=True)
    xg = to_glass(x)
    y, yg = theirs(x), mine(xg)
    assert type(yg.grad_fn).__name__ == type(y.grad_fn).__name__
    assert_close(yg, y)
    g = torch.randn(2, 3, 8)
    y.backward(g)
    yg.backward(to_glass(g))
    assert_close(xg.grad, x.grad, rtol=1e-4, atol=1e-5)
    for name, p in theirs.named_parameters():
        assert_close(dict(mine.named_parameters())[name].grad, p.grad, rtol=1e-4, atol=1e-5)


@needs_torch
def test_half_input_with_float_parameters():
    x = torch.randn(4, 6).half()
    w, b = torch.randn(6), torch.randn(6)
    theirs = torch.native_layer_norm(x, [6], w, b, 1e-5)
    mine = gt.native_layer_norm(to_glass(x), [6], to_glass(w), to_glass(b), 1e-5)
    for a, e in zip(mine, theirs, strict=True):
        assert_close(a, e, rtol=2e-3, atol=2e-3)


@needs_torch
def test_rms_norm_warns_on_mixed_dtypes_and_casts_back():
    x, w = torch.randn(3, 4), torch.randn(4, dtype=torch.float64)
    with pytest.warns(UserWarning, match="Mismatch dtype between input and weight"):
        mine = gt.nn.functional.rms_norm(to_glass(x), (4,), to_glass(w))
    assert_close(mine, torch.nn.functional.rms_norm(x, (4,), w))


@needs_torch
@pytest.mark.parametrize("call", [
    lambda F, x, lib: F.layer_norm(x, (3,)),
    lambda F, x, lib: F.layer_norm(x, (4,), lib.ones(3)),
    lambda F, x, lib: F.rms_norm(x, (2, 4)),
    lambda F, x, lib: F.layer_norm(x.long(), (4,)),
    lambda F, x, lib: F.layer_norm(x, 4),
])
def test_errors_match_torch(call):
    x = torch.randn(2, 3, 4)
    with pytest.raises(Exception) as theirs:
        call(torch.nn.functional, x, torch)
    with pytest.raises(type(theirs.value)) as mine:
        call(gt.nn.functional, to_glass(x), gt)
    assert type(mine.value).__name__ == type(theirs.value).__name__     # not a subclass
    assert str(mine.value) == str(theirs.value)


@needs_torch
def test_double_backward_matches_torch():
    x, w, b = torch.randn(3, 5, dtype=torch.float64), torch.randn(5, dtype=torch.float64), \
        torch.randn(5, dtype=torch.float64)
    results = []
    for lib, tensors in ((torch, (x, w, b)), (gt, tuple(to_glass(t) for t in (x, w, b)))):
        leaves = [t.detach().clone().requires_grad_() for t in tensors]
        y = lib.nn.functional.layer_norm(leaves[0], (5,), leaves[1], leaves[2])
        first = lib.autograd.grad((y * y.sin()).sum(), leaves, create_graph=True)
        results.append(lib.autograd.grad(sum((g * g).sum() for g in first), leaves))
    for mine, theirs in zip(results[1], results[0], strict=True):
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-9, atol=1e-10)
