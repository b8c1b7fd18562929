"""The AutocastCPU dispatch key (Note [Autocast as a dispatch key] in aten/autocast.py):
where it sits, which operators it serves, and that calls outside autocast never see it."""
import glasstorch as torch
from glasstorch.aten.autocast_policy import CPU_POLICY, FP32, LOWER, PROMOTE
from glasstorch.aten.dispatcher import FALLTHROUGH, has_operator
from glasstorch.c10.dispatch_key import DISPATCH_ORDER, DispatchKey, local_keys


def test_the_key_is_bit_128_above_the_autograd_keys():
    assert int(DispatchKey.AutocastCPU) == 128
    order = list(DISPATCH_ORDER)
    assert order.index(DispatchKey.AutocastCPU) < order.index(DispatchKey.ForwardAD) \
        < order.index(DispatchKey.Autograd)


def test_the_key_is_thread_local_and_only_inside_autocast():
    assert local_keys.plain and not local_keys.included & DispatchKey.AutocastCPU
    with torch.autocast("cpu"):
        assert local_keys.included & DispatchKey.AutocastCPU
        with torch.autocast("cpu", enabled=False):
            assert not local_keys.included & DispatchKey.AutocastCPU
        assert local_keys.included & DispatchKey.AutocastCPU
    assert local_keys.plain
    with torch.autocast("cuda", enabled=False):          # another device's flag: no key
        assert local_keys.plain


def test_listed_operators_get_their_policy_kernel_and_the_rest_fall_through():
    with torch.autocast("cpu"):
        torch.mm(torch.ones(1, 1), torch.ones(1, 1))
    for name, policy in (("mm", LOWER), ("prod", FP32), ("prod.dim_int", FP32),
                         ("cat", PROMOTE)):
        packet, _, overload = name.partition(".")
        op = getattr(getattr(torch.ops.aten, packet), overload or "default")
        assert op.kernels[DispatchKey.AutocastCPU].__qualname__ == f"autocast_{policy}"
    assert DispatchKey.AutocastCPU not in torch.ops.aten.mm.out.kernels
    assert DispatchKey.AutocastCPU not in torch.ops.aten.add.Tensor.kernels
    key, kernel = torch.ops.aten.add.Tensor._first_kernel(
        int(DispatchKey.AutocastCPU | DispatchKey.CPU))
    assert key is DispatchKey.CPU and kernel is not FALLTHROUGH


def test_a_family_loaded_later_is_served_on_declaration():
    from glasstorch.aten import autocast
    from glasstorch.aten.registry import DECLARATION_SINKS
    with torch.autocast("cpu"):
        pass
    assert autocast.install in DECLARATION_SINKS
    with torch.autocast("cpu"):
        y = torch.nn.functional.kl_div(torch.ones(2).bfloat16(), torch.ones(2).bfloat16())
    assert y.dtype is torch.float32


def test_the_table_names_torch_lists_and_serves_those_declared_here():
    policies = list(CPU_POLICY.values())
    assert (policies.count(LOWER), policies.count(FP32), policies.count(PROMOTE)) == (24, 101, 4)
    declared = [name for name in CPU_POLICY if has_operator(name.partition(".")[0])]
    assert {"mm", "bmm", "addmm", "baddbmm", "addbmm", "linear", "matmul", "cat", "stack",
            "mse_loss", "nll_loss", "prod"} <= set(declared)


def test_a_listed_composite_is_cast_once_and_its_inner_operators_not_again():
    a, w = torch.ones(2, 2), torch.ones(3, 2, requires_grad=True)
    with torch.autocast("cpu"):
        with torch.dispatch_trace() as route:
            torch.nn.functional.linear(a, w)
    text = str(route)
    assert text.count("autocast_lower_precision_fp") == 1
    inner = text[text.index("aten::matmul"):]
    assert "AutocastCPU" not in inner


def test_outside_autocast_no_call_carries_the_key():
    with torch.dispatch_trace() as route:
        torch.mm(torch.ones(2, 2), torch.ones(2, 2))
    assert "AutocastCPU" not in str(route)


def test_fused_fast_paths_still_serve_unlisted_operators_inside_autocast():
    a, x = torch.ones(10), torch.ones(3, 4)
    with torch.autocast("cpu"):
        with torch.dispatch_trace() as route:
            a.add_(a)
            x.t()
    text = str(route)
    assert text.count("AutocastCPU|ADInplaceOrView|CPU -> ") == 2 and "fast path" in text
