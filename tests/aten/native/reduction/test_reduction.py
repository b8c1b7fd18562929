"""Reductions beyond what the OpInfo records cover: out= of two results (max.dim,
aminmax), `torch.norm`'s Python routing, the long-stride arg-extreme path, prod's
gradient with zeros, and the shared meta rule. Compared with torch when importable."""
import math

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.meta.reduction import reduced_shape, reduction_dims

try:
    import torch
except ImportError:                      # the differential checks skip without torch
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch is not importable")


def _pair(values, dtype="float32"):
    array = np.asarray(values, dtype=dtype)
    theirs = torch.from_numpy(array.copy()) if torch is not None else None
    return gt.from_numpy(array.copy()), theirs


# ----- the shared meta rule ----------------------------------------------------------
@pytest.mark.parametrize("dim, ndim, expected", [
    (None, 3, (0, 1, 2)), ((), 2, (0, 1)), (-1, 3, (2,)), ((0, -1), 3, (0, 2)),
    (0, 0, ()), ((-1,), 0, ())])
def test_reduction_dims(dim, ndim, expected):
    assert reduction_dims(dim, ndim) == expected


def test_reduction_dims_errors():
    with pytest.raises(IndexError, match=r"expected to be in range of \[-2, 1\], but got 2"):
        reduction_dims((0, 2), 2)
    with pytest.raises(RuntimeError, match="dim 1 appears multiple times"):
        reduction_dims((1, -1), 2)


def test_reduced_shape():
    assert reduced_shape((2, 3, 4), (0, 2), False) == (3,)
    assert reduced_shape((2, 3, 4), (0, 2), True) == (1, 3, 1)


# ----- out= of two results -------------------------------------------------------------
def test_max_dim_out_writes_both_results():
    x = gt.tensor([[1., 7.], [5., 3.]])
    values, indices = gt.empty(0), gt.empty(0, dtype=gt.int64)
    result = gt.max(x, 1, out=(values, indices))
    assert type(result).__name__ == "max_out"
    assert result.values is values and result.indices is indices
    assert values.tolist() == [7., 5.] and indices.tolist() == [1, 0]


def test_aminmax_out_and_names():
    x = gt.tensor([[1., 7.], [5., 3.]])
    low, high = gt.empty(0), gt.empty(0)
    found = gt.aminmax(x, dim=0, out=(low, high))
    assert found.min is low and found.max is high
    assert low.tolist() == [1., 3.] and high.tolist() == [5., 7.]


@needs_torch
@pytest.mark.parametrize("out_dtypes", [("float64", "int64"), ("float32", "int32")])
def test_max_dim_out_dtype_errors_match_torch(out_dtypes):
    mine, theirs = _pair([[1., 2.], [3., 0.]])
    messages = []
    for module, x in ((gt, mine), (torch, theirs)):
        outs = tuple(module.empty(0, dtype=getattr(module, d)) for d in out_dtypes)
        with pytest.raises(RuntimeError) as caught:
            module.max(x, 0, out=outs)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


# ----- torch.norm ----------------------------------------------------------------------
NORM_CALLS = [((), {}), ((1,), {}), ((float("inf"),), {}), ((0,), {}), (("fro",), {}),
              (("fro", (0, 1)), {}), (("nuc",), {}), ((2, 1, True), {}),
              ((3.5,), {"dim": (0, 1), "keepdim": True}), ((None,), {}),
              ((), {"dtype": "float64"}), ((1, 0), {}), (("nuc", (1, 0), True), {})]


@needs_torch
@pytest.mark.parametrize("args, kwargs", NORM_CALLS)
def test_norm_function_matches_torch(args, kwargs):
    mine, theirs = _pair([[3., -1., 0.5], [0., 4., -2.]])
    results = []
    for module, x in ((gt, mine), (torch, theirs)):
        options = {k: getattr(module, v) if k == "dtype" else v for k, v in kwargs.items()}
        results.append((module.norm(x, *args, **options), x.norm(*args, **options)))
    for mine_result, their_result in zip(*results):
        assert str(mine_result.dtype) == str(their_result.dtype)
        assert tuple(mine_result.shape) == tuple(their_result.shape)
        np.testing.assert_allclose(mine_result.numpy(), their_result.numpy(), rtol=1e-5)


@needs_torch
@pytest.mark.parametrize("call", [
    lambda m, x: m.norm(x, "abc"), lambda m, x: m.norm(x, "nuc", 0),
    lambda m, x: m.norm(x.long()), lambda m, x: m.norm(x, 2, 5)])
def test_norm_function_errors_match_torch(call):
    mine, theirs = _pair([[3., -1.], [0., 4.]])
    outcomes = []
    for module, x in ((gt, mine), (torch, theirs)):
        with pytest.raises(Exception) as caught:
            call(module, x)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


def test_norm_out():
    out = gt.empty(0)
    assert gt.norm(gt.tensor([[3., 0.], [0., 4.]]), 1, 1, out=out) is out
    assert out.tolist() == [3., 4.]


# ----- arg-extremes along a long stride --------------------------------------------------
@pytest.mark.parametrize("largest", [True, False])
def test_long_stride_extremes_match_numpy(largest):
    values = np.random.default_rng(0).integers(-3, 4, (300, 1024)).astype(np.float32)
    values[7, 5] = values[250, 5] = np.nan               # the first NaN wins
    x = gt.from_numpy(values)
    method = "max" if largest else "min"
    found, index = getattr(x, method)(0)
    find = np.argmax if largest else np.argmin
    np.testing.assert_array_equal(index.numpy(), find(values, axis=0))
    np.testing.assert_array_equal(found.numpy(), getattr(np, method)(values, axis=0))
    np.testing.assert_array_equal(getattr(x, f"arg{method}")(0).numpy(), find(values, axis=0))


def test_long_stride_extremes_of_a_3d_middle_dim():
    values = np.random.default_rng(1).integers(0, 5, (2, 100, 2048)).astype(np.int64)
    x = gt.from_numpy(values)
    np.testing.assert_array_equal(x.argmax(1, keepdim=True).numpy(),
                                  np.argmax(values, axis=1)[:, None])


# ----- gradients -----------------------------------------------------------------------
@needs_torch
@pytest.mark.parametrize("values", [[[2., 0., 3.], [1., 4., 5.]], [[0., 0., 3.], [1., 0., 5.]]])
@pytest.mark.parametrize("dim", [None, 1])
def test_prod_gradient_with_zeros_matches_torch(values, dim):
    grads = []
    for module in (gt, torch):
        x = module.tensor(values, requires_grad=True)
        (x.prod() if dim is None else x.prod(dim).sum()).backward()
        grads.append(np.asarray(x.grad.tolist()))
    np.testing.assert_allclose(grads[0], grads[1])


def test_mean_of_nothing_is_nan_and_sum_is_zero():
    empty = gt.empty(0, 3)
    assert math.isnan(empty.mean().item()) and empty.sum().item() == 0
    assert empty.prod().item() == 1 and empty.sum(0).tolist() == [0., 0., 0.]


def test_accumulation_dtypes():
    assert gt.ones(3, dtype=gt.int8).sum().dtype is gt.int64
    assert gt.ones(3, dtype=gt.bool).prod().dtype is gt.int64
    assert gt.ones(3, dtype=gt.uint8).sum(dtype=gt.uint8).dtype is gt.uint8
    half = gt.full((4096,), 0.1, dtype=gt.float16)
    assert abs(half.sum().item() - 409.6) < 0.5            # accumulated in float32
    assert gt.ones(2, dtype=gt.uint8).all().dtype is gt.uint8


def test_out_overloads_named_as_torch():
    """op(out_names=...): max.dim_max writes `max` / `max_values`, as torch's schema."""
    schema = gt.ops.aten.max.dim_max._schema
    assert [a.name for a in schema.arguments][-2:] == ["max", "max_values"]
    assert [r.name for r in schema.returns] == ["values", "indices"]
    values, indices = gt.empty(0), gt.empty(0, dtype=gt.int64)
    gt.ops.aten.min.dim_min(gt.tensor([[2., 1.]]), 1, min=values, min_indices=indices)
    assert values.tolist() == [1.] and indices.tolist() == [1]


def test_aten_only_out_overloads():
    """sum.out, dist.out and std_mean.correction_out: torch.ops.aten only, as in torch."""
    x = gt.tensor([[1., 2.], [3., 5.]])
    out = gt.empty(0)
    assert gt.ops.aten.sum.out(x, out=out) is out and out.item() == 11.
    spread, mean = gt.empty(0), gt.empty(0)
    gt.ops.aten.std_mean.correction_out(x, [1], correction=0, out0=spread, out1=mean)
    assert spread.tolist() == [0.5, 1.] and mean.tolist() == [1.5, 4.]
    with pytest.raises(TypeError):
        gt.dist(x, x, out=gt.empty(0))


# ----- sum's fast path (the common call skips the meta rule) -------------------------
@pytest.mark.parametrize("make", [
    lambda: gt.arange(24.0).reshape(2, 3, 4),
    lambda: gt.arange(24.0, dtype=gt.float64).reshape(4, 6).t(),       # not row-major
    lambda: gt.tensor(2.5),                                              # 0-dim
    lambda: gt.zeros(0, 3),                                              # empty
    lambda: gt.tensor([1 + 2j, 3 - 1j], dtype=gt.complex64),
    lambda: gt.full((4,), 3e38),                                         # overflows to inf
    lambda: gt.ones(3).expand(2, 3)])
def test_sum_fast_path_agrees_with_the_structured_path(make):
    """`x.sum()` (fast path) and `x.sum(dtype=x.dtype)` (meta rule, allocation, kernel)
    give the same bits, dtype and shape, silently."""
    x = make()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fast, general = x.sum(), x.sum(dtype=x.dtype)
    assert fast.dtype is general.dtype and fast.shape == general.shape == ()
    assert fast.numpy().tobytes() == general.numpy().tobytes()


def test_nuclear_norm_differentiates_through_the_svd():
    """d ||A||_* = Re tr(U^H dA V): the gradient of the nuclear norm is U V^H (for
    diag(3, -2): diag(1, -1)); with no_grad the result does not require grad."""
    x = gt.tensor([[3.0, 0.0], [0.0, -2.0]], dtype=gt.float64).requires_grad_()
    y = gt.norm(x, "nuc")
    assert y.item() == 5.0 and y.requires_grad
    (y + x.sum()).backward()
    assert x.grad.tolist() == [[2.0, 1.0], [1.0, 0.0]]
    with gt.no_grad():
        assert not gt.norm(x, "nuc").requires_grad
