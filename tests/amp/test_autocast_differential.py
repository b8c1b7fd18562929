"""CPU autocast against torch: the dtype of each listed operator's result, nesting, the
weight cache, backward through the casts, and the state functions."""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from tests.devices.outcome import outcome

torch = pytest.importorskip("torch")

# name -> (expression over the inputs below, the inputs' names)
OPS = {
    "mm": "torch.mm(a, b)", "matmul": "a @ b", "bmm": "torch.bmm(a3, b3)",
    "addmm": "torch.addmm(c, a, b)", "baddbmm": "torch.baddbmm(c3, a3, b3)",
    "addbmm": "torch.addbmm(c, a3, b3)", "linear": "torch.nn.functional.linear(a, b.t(), v)",
    "prelu": "torch.nn.functional.prelu(a, torch.full((1,), 0.25))",
    "sdpa": "torch.nn.functional.scaled_dot_product_attention(a3, a3, a3)",
    "prod": "torch.prod(h)", "prod.dim_int": "torch.prod(h, 1)", "trace": "torch.trace(h)",
    "cdist": "torch.cdist(h, h)", "quantile": "torch.quantile(h, 0.5)",
    "mse_loss": "torch.nn.functional.mse_loss(h, h * 2)",
    "l1_loss": "torch.nn.functional.l1_loss(h, h * 2)",
    "smooth_l1_loss": "torch.nn.functional.smooth_l1_loss(h, h * 2)",
    "huber_loss": "torch.nn.functional.huber_loss(h, h * 2)",
    "soft_margin_loss": "torch.nn.functional.soft_margin_loss(h, h)",
    "kl_div": "torch.nn.functional.kl_div(h, h * 2)",
    "bce": "torch.nn.functional.binary_cross_entropy(h.sigmoid(), h.sigmoid())",
    "bce_logits": "torch.nn.functional.binary_cross_entropy_with_logits(h, h.sigmoid())",
    "cross_entropy": "torch.nn.functional.cross_entropy(h, torch.tensor([0, 1, 2]))",
    "nll_loss": "torch.nn.functional.nll_loss(h, torch.tensor([0, 1, 2]))",
    "reflection_pad1d": "torch.nn.functional.pad(h.unsqueeze(0), (1, 1), mode='reflect')",
    "cat": "torch.cat([h, a[:, :3]])", "cat_all_low": "torch.cat([h, h])",
    "stack": "torch.stack([h, a[:, :3]])",
    "index_copy": "torch.index_copy(a, 0, torch.tensor([0]), h[:1, :].repeat(1, 2)[:, :4])",
    "add (not listed)": "h + a[:, :3]", "relu (not listed)": "torch.relu(h)",
    "softmax (not listed)": "torch.softmax(a, 1)", "float64 mm": "torch.mm(a.double(), b.double())",
    "int mm": "torch.mm(a.long(), b.long())",
}


def _inputs(lib):
    """Float32 inputs, and a lower precision one (`h`), made from the same numbers."""
    rng = np.random.default_rng(0)
    made = {name: lib.tensor(rng.standard_normal(shape).astype(np.float32))
            for name, shape in (("a", (3, 4)), ("b", (4, 5)), ("c", (3, 5)), ("v", (5,)),
                                ("a3", (2, 3, 4)), ("b3", (2, 4, 5)), ("c3", (2, 3, 5)))}
    made["h"] = lib.tensor(rng.standard_normal((3, 3)).astype(np.float32)).bfloat16()
    return made


def _run(lib, expression, dtype):
    scope = {"torch": lib, **_inputs(lib)}
    with lib.autocast("cpu", dtype=dtype):
        try:
            return eval(expression, scope)
        except RuntimeError as error:       # a refusal is compared as an outcome
            return str(error)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("name", list(OPS))
def test_result_dtype_and_values_as_torch(name, dtype):
    mine = _run(gt, OPS[name], getattr(gt, dtype))
    theirs = _run(torch, OPS[name], getattr(torch, dtype))
    if isinstance(theirs, str):
        assert mine == theirs
        return
    assert str(mine.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(mine.float().numpy(), theirs.float().numpy(), rtol=2e-2, atol=2e-2)


def _nested(lib):
    a = lib.ones(2, 2)
    with lib.autocast("cpu"):
        outer = lib.mm(a, a).dtype
        with lib.autocast("cpu", dtype=lib.float16):
            inner = lib.mm(a, a).dtype
            with lib.autocast("cpu", enabled=False):
                off = lib.mm(a, a).dtype
                states = (lib.is_autocast_enabled("cpu"), lib.get_autocast_dtype("cpu"))
            back = lib.mm(a, a).dtype
        again = lib.mm(a, a).dtype
    return [str(x) for x in (outer, inner, off, *states, back, again, lib.mm(a, a).dtype,
                             lib.is_autocast_enabled("cpu"), lib.get_autocast_dtype("cpu"))]


def test_nested_regions_as_torch():
    assert _nested(gt) == _nested(torch)


def _backward(lib):
    rng = np.random.default_rng(1)
    x = lib.tensor(rng.standard_normal((3, 4)).astype(np.float32))
    w = lib.tensor(rng.standard_normal((5, 4)).astype(np.float32), requires_grad=True)
    bias = lib.tensor(rng.standard_normal(5).astype(np.float32), requires_grad=True)
    with lib.autocast("cpu"):
        y = lib.nn.functional.linear(x, w, bias)
        loss = lib.nn.functional.mse_loss(y, lib.zeros(3, 5))
    loss.backward()
    return y.dtype, loss.dtype, w.grad, bias.grad


def test_backward_through_autocast_as_torch():
    mine, theirs = _backward(gt), _backward(torch)
    assert [str(d) for d in mine[:2]] == [str(d) for d in theirs[:2]]
    for m, t in zip(mine[2:], theirs[2:]):
        assert str(m.dtype) == str(t.dtype) == "torch.float32"
        np.testing.assert_allclose(m.numpy(), t.numpy(), rtol=2e-2, atol=2e-2)


def _cache(lib, **kwargs):
    """Whether two uses of a weight in one region share one cast (the cast's node), and
    whether a later region casts afresh."""
    x, w = lib.ones(2, 3), lib.ones(3, 3, requires_grad=True)
    with lib.autocast("cpu", **kwargs):
        first = lib.mm(x, w).grad_fn.next_functions[1][0]
        second = lib.mm(x, w).grad_fn.next_functions[1][0]
        view = lib.mm(x, w[:, :2]).grad_fn.next_functions[1][0]
    with lib.autocast("cpu", **kwargs):
        later = lib.mm(x, w).grad_fn.next_functions[1][0]
    return (first is second, first is later, type(first).__name__, type(view).__name__,
            lib.is_autocast_cache_enabled())


@pytest.mark.parametrize("kwargs", [{}, {"cache_enabled": False}])
def test_weight_cache_as_torch(kwargs):
    assert _cache(gt, **kwargs) == _cache(torch, **kwargs)


STATE_CALLS = [
    "torch.is_autocast_enabled()", "torch.is_autocast_enabled('cpu')",
    "torch.is_autocast_enabled('cuda')", "torch.is_autocast_enabled('meta')",
    "torch.is_autocast_enabled('foo')", "torch.is_autocast_enabled(1)",
    "torch.get_autocast_dtype('cpu')", "torch.get_autocast_dtype('cuda')",
    "torch.get_autocast_dtype('xpu')", "torch.get_autocast_dtype('hpu')",
    "torch.get_autocast_dtype('hip')", "torch.get_autocast_dtype('meta')",
    "torch.get_autocast_cpu_dtype()", "torch.get_autocast_gpu_dtype()",
    "torch.get_autocast_ipu_dtype()", "torch.get_autocast_xla_dtype()",
    "torch.is_autocast_cpu_enabled()", "torch.is_autocast_ipu_enabled()",
    "torch.is_autocast_xla_enabled()", "torch.is_autocast_cache_enabled()",
    "torch.set_autocast_enabled('cpu', 1)", "torch.set_autocast_enabled('meta', True)",
    "torch.set_autocast_dtype('cpu', 1)", "torch.set_autocast_cache_enabled(1)",
    "torch.clear_autocast_cache()", "torch.amp.is_autocast_available('cpu')",
    "torch.amp.is_autocast_available('cuda')", "torch.amp.is_autocast_available('meta')",
    "torch.amp.is_autocast_available('foo')", "torch.autocast('meta')", "torch.autocast(1)",
    "torch.autocast('cpu').fast_dtype", "torch.autocast('cpu', dtype=torch.float16).fast_dtype",
    "torch.autocast('cpu', dtype=torch.float32)._enabled", "torch.autocast('cuda')._enabled",
    "torch.autocast('cuda', enabled=False)._enabled", "torch.autocast('xpu')._enabled",
    "torch.cuda.amp.autocast()._enabled", "torch.cpu.amp.autocast()._enabled",
    "torch.cpu.amp.autocast().fast_dtype",
]


@pytest.mark.parametrize("call", STATE_CALLS)
def test_state_functions_as_torch(call):
    assert outcome(call, gt) == outcome(call, torch)


def _nesting_and_setters(lib):
    seen = [lib.autocast_increment_nesting(), lib.autocast_increment_nesting(),
            lib.autocast_decrement_nesting(), lib.autocast_decrement_nesting()]
    lib.set_autocast_dtype("cpu", lib.float16)
    lib.set_autocast_enabled("cpu", True)
    seen += [lib.get_autocast_dtype("cpu"), lib.is_autocast_enabled("cpu"),
             lib.mm(lib.ones(2, 2), lib.ones(2, 2)).dtype]
    lib.set_autocast_enabled("cpu", False)
    lib.set_autocast_dtype("cpu", lib.bfloat16)
    lib.set_autocast_enabled(True)              # the device-less form is CUDA's
    seen += [lib.is_autocast_enabled(), lib.is_autocast_enabled("cpu")]
    lib.set_autocast_enabled(False)
    return [str(x) for x in seen]


def test_nesting_counter_and_setters_as_torch():
    assert _nesting_and_setters(gt) == _nesting_and_setters(torch)


@pytest.mark.parametrize("call, category, words", [
    ("torch.autocast('cpu', dtype=torch.float32)", UserWarning,
     "In CPU autocast, but the target dtype is not supported. Disabling autocast.\nCPU Autocast "
     "only supports dtypes of torch.bfloat16, torch.float16 currently."),
    ("torch.autocast('cuda')", UserWarning,
     "CUDA is not available or torch_xla is imported. Disabling autocast."),
    ("torch.cpu.amp.autocast()", FutureWarning, "`torch.cpu.amp.autocast(args...)` is deprecated."
     " Please use `torch.amp.autocast('cpu', args...)` instead."),
    ("torch.cuda.amp.autocast()", FutureWarning, "`torch.cuda.amp.autocast(args...)` is "
     "deprecated. Please use `torch.amp.autocast('cuda', args...)` instead."),
    ("torch.get_autocast_cpu_dtype()", DeprecationWarning,
     "torch.get_autocast_cpu_dtype() is deprecated. Please use torch.get_autocast_dtype('cpu') "
     "instead."),
    ("torch.set_autocast_gpu_dtype(torch.float16)", DeprecationWarning,
     "torch.set_autocast_gpu_dtype(dtype) is deprecated. Please use "
     "torch.set_autocast_dtype('cuda', dtype) instead."),
])
def test_warnings_as_torch(call, category, words):
    for lib in (gt, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            eval(call, {"torch": lib})
        messages = [str(w.message) for w in caught if w.category is category]
        assert any(m.startswith(words) for m in messages), (lib.__name__, messages)


@pytest.mark.parametrize("lib", [gt, torch])
def test_decorator_form(lib):
    @lib.autocast("cpu")
    def product(a, b):
        return lib.mm(a, b)

    assert str(product(lib.ones(2, 2), lib.ones(2, 2)).dtype) == "torch.bfloat16"
    assert lib.is_autocast_enabled("cpu") is False


@pytest.mark.parametrize("module", ["cuda.amp.common", "cuda.amp.autocast_mode",
                                    "cuda.amp.grad_scaler", "cpu.amp.autocast_mode",
                                    "cpu.amp.grad_scaler", "amp.autocast_mode", "amp.grad_scaler"])
def test_amp_submodules_have_torch_names(module):
    import importlib
    theirs = importlib.import_module(f"torch.{module}")
    mine = importlib.import_module(f"glasstorch.{module}")
    names = getattr(theirs, "__all__", None) or [n for n in dir(theirs) if not n.startswith("_")]
    assert [n for n in names if not hasattr(mine, n) and callable(getattr(theirs, n))
            and getattr(getattr(theirs, n), "__module__", "").startswith("torch")] == []


def test_every_top_level_autocast_name_exists():
    names = [n for n in dir(torch) if "autocast" in n.lower()]
    assert len(names) >= 20 and [n for n in names if not hasattr(gt, n)] == []
