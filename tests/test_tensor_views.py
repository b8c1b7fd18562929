"""`Tensor.view` / `Tensor.reshape` (glasstorch/_tensor_views.py), `flatten`, `movedim`, basic
indexing with ints, slices, None and Ellipsis: every call form against torch's
results (sizes, strides, offset, whether a view) and refusals (type and message)."""
import contextlib

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

CALLS = [
    "x.view(-1)", "x.view(4, 3)", "x.view((2, 6))", "x.view(x.shape)", "x.view(size=(4, 3))",
    "x.view(dtype=lib.int32)", "x.view(lib.int16)", "x.view()", "x.view(True)", "x.view(1.0)",
    "x.view(3, -1, foo=1)", "x.view(5)", "x.view(-1, -1)",
    "x.t().view(-1)", "x.t().view(4, 3)", "x[1].view(2, 2)",
    "x.reshape(-1)", "x.reshape(2, -1)", "x.reshape((4, 3))", "x.reshape(shape=(4, 3))",
    "x.reshape()", "x.reshape(2.0)", "x.reshape(5)", "x.reshape(3, -1, foo=1)",
    "x.t().reshape(-1)", "x.t().reshape(4, 3)", "x[:, 1:].reshape(-1)", "x[1:].reshape(-1)",
    "x.unsqueeze(1).reshape(3, 4)",
    "x.flatten()", "x.flatten(1)", "x.flatten(0, 0)", "x.flatten(1, 0)", "x.flatten(3)",
    "lib.zeros(()).flatten()", "x.t().flatten()",
    "x.movedim(0, 1)", "x.movedim((0, 1), (1,))", "x.movedim(0, 5)", "x.movedim((0, 0), (1, 0))",
    "lib.zeros(()).movedim(0, 0)", "x.movedim([0], [-1])", "lib.movedim(x, 1, 0)",
    "x.moveaxis(-1, 0)",
    "x[1, 2:]", "x[:, 1]", "x[..., None]", "x[None, 1]", "x[-1, ::2]", "x[1, -5]",
    "x[3, 1]", "x[1, 2, 3]", "x[1:, 1:3]", "x[:, :]", "x[..., 1, None]", "x[1, ..., 2]",
    "x[0:0, 1]", "x[5:, 1:]", "x[1, ::0]", "x[:, 1.0]", "x[True, 1]", "x[1, True]",
]


def _run(lib, call):
    x = lib.arange(12.).reshape(3, 4)
    try:
        result = eval(call, {"x": x, "lib": lib})
    except Exception as error:                          # noqa: BLE001 - compared below
        return type(error).__name__, str(error).split("\n")[0]
    return (tuple(result.shape), result.stride(), result.storage_offset(),
            result._base is not None, str(result.dtype).split(".")[-1], result.tolist())


@pytest.mark.parametrize("call", CALLS)
def test_views_and_basic_indexing_as_torch(call):
    assert _run(gt, call) == _run(torch, call)


@pytest.mark.parametrize("call", ["x.view(-1)", "x.view(4, 3)", "x.reshape(-1)", "x[1, 2:]",
                                  "x[..., None]", "x.flatten()"])
def test_a_view_shares_base_version_and_records_under_grad(call):
    x = gt.arange(12.).reshape(3, 4)
    view = eval(call, {"x": x})
    assert view._base is x._base and view._vc is x._vc
    grads = []
    for route in (contextlib.nullcontext(), gt.dispatch_trace(fast_paths=False)):
        leaf = gt.arange(12., requires_grad=True)
        y = leaf.view(3, 4)
        with route:
            got = eval(call, {"x": y})
        assert got._base is y._base and got._vc is leaf._vc
        (got * gt.arange(float(got.numel())).view(got.shape)).sum().backward()
        grads.append((got.grad_fn.name(), leaf.grad.tolist()))
    assert grads[0] == grads[1]


def test_internal_callers_may_give_reshape_a_list():
    x = gt.arange(12.).reshape(3, 4)
    assert gt.ops.aten.reshape.default.call(x.t(), [2, 6]).tolist() == \
        x.t().reshape(2, 6).tolist()
