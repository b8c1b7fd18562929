"""torch.amp.custom_fwd / custom_bwd against torch: what a custom Function's forward and
backward see of autocast, with and without `cast_inputs`."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _function(lib, cast_inputs):
    seen = []

    class Product(lib.autograd.Function):
        @staticmethod
        @lib.amp.custom_fwd(device_type="cpu", cast_inputs=cast_inputs)
        def forward(ctx, a, b):
            seen.append(("forward", str(a.dtype), lib.is_autocast_enabled("cpu")))
            ctx.save_for_backward(a, b)
            return lib.mm(a, b.to(a.dtype))

        @staticmethod
        @lib.amp.custom_bwd(device_type="cpu")
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            seen.append(("backward", str(grad.dtype), lib.is_autocast_enabled("cpu")))
            return lib.mm(grad, b.t().to(grad.dtype)), lib.mm(a.t().to(grad.dtype), grad)
    return Product, seen


@pytest.mark.parametrize("cast_inputs", [None, "float32"])
@pytest.mark.parametrize("autocast_on", [True, False])
def test_custom_function_sees_autocast_as_torch(cast_inputs, autocast_on):
    results = []
    for lib in (gt, torch):
        product, seen = _function(lib, cast_inputs and getattr(lib, cast_inputs))
        a = lib.ones(2, 3, dtype=lib.bfloat16, requires_grad=True)
        b = lib.ones(3, 2, requires_grad=True)
        with lib.autocast("cpu", enabled=autocast_on):
            out = product.apply(a, b)
        out.float().sum().backward()
        results.append((seen, str(out.dtype), str(a.grad.dtype), str(b.grad.dtype)))
    assert results[0] == results[1]


@pytest.mark.parametrize("call", ["custom_fwd(device_type=1)", "custom_bwd(device_type=1)"])
def test_device_type_must_be_a_string(call):
    for lib in (gt, torch):
        with pytest.raises(ValueError, match="Expected `device_type` of type `str`, got: "
                                             "`<class 'int'>`"):
            eval(call, {"custom_fwd": lib.amp.custom_fwd, "custom_bwd": lib.amp.custom_bwd})
