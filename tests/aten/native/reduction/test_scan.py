"""Scans and integrals beyond what their OpInfo entries cover: dtype= conversions,
out= of two results (cummax/cummin), promotion of diff's prepend/append, gradient's
overload choice, and torch's exact float32 running sums. Values recorded from torch
2.13 run without torch; the differential grid at the end runs when torch is there."""
import numpy as np
import pytest

import glasstorch as gt


def _values(t):
    return np.asarray(t.numpy())


# ----- recorded from torch 2.13 ------------------------------------------------------
def test_cumsum_converts_to_dtype_first():
    x = gt.tensor([1.5, 2.5, -0.5])
    assert _values(gt.cumsum(x, 0, dtype=gt.int64)).tolist() == [1, 3, 3]
    out = gt.empty(3, dtype=gt.int64)
    assert gt.cumsum(x, 0, out=out) is out and _values(out).tolist() == [1, 3, 3]
    assert gt.cumsum(gt.tensor([True, True]), 0).dtype is gt.int64


def test_float32_cumsum_is_the_rounded_double_running_sum():
    x = np.random.default_rng(0).standard_normal(10_000).astype(np.float32)
    expected = np.cumsum(x, dtype=np.float64).astype(np.float32)
    assert np.array_equal(_values(gt.cumsum(gt.from_numpy(x), 0)), expected)
    rows = np.random.default_rng(1).standard_normal((300, 100)).astype(np.float32)
    expected = np.cumsum(rows, 0, dtype=np.float64).astype(np.float32)
    assert np.array_equal(_values(gt.cumsum(gt.from_numpy(rows), 0)), expected)


def test_in_place_dtype_must_be_selfs():
    x = gt.tensor([1, 2, 3], dtype=gt.int32)
    with pytest.raises(RuntimeError, match="^Bad in-place call: input tensor dtype int and "
                                           "output tensor dtype float should match$"):
        x.cumsum_(0, dtype=gt.float32)
    assert _values(x).tolist() == [1, 2, 3] and x._version == 0
    assert _values(x.cumprod_(0)).tolist() == [1, 2, 6] and x.dtype is gt.int32


def test_bool_results_only_refused_with_something_to_scan():
    with pytest.raises(NotImplementedError, match="cumsum_out_cpu"):
        gt.tensor([True]).cumsum_(0)
    assert gt.tensor(True).cumsum_(0).item() is True
    assert gt.tensor([], dtype=gt.bool).cumprod_(0).numel() == 0


def test_cummax_out_of_two_results():
    x = gt.tensor([1.0, 3.0, 3.0, float("nan"), 2.0])
    values, indices = gt.empty(0), gt.empty(0, dtype=gt.int64)
    result = gt.cummax(x, 0, out=(values, indices))
    assert result.values is values and result.indices is indices
    assert _values(indices).tolist() == [0, 1, 2, 3, 3]
    with pytest.raises(RuntimeError, match="^expected scalar_type Long but found Int$"):
        gt.cummin(x, 0, out=(gt.empty(5), gt.empty(5, dtype=gt.int32)))
    assert type(gt.cummin(x, 0)).__name__ == "cummin"


def test_cummax_ties_take_the_latest_index():
    result = gt.cummax(gt.tensor([True, False, True]), 0)
    assert _values(result.indices).tolist() == [0, 0, 2]
    zeros = gt.cummin(gt.tensor([0.0, -0.0]), 0)
    assert np.signbit(_values(zeros.values)).tolist() == [False, True]


def test_complex_logcumsumexp_special_values():
    inf, nan = float("inf"), float("nan")
    x = gt.tensor([complex(-inf, 2), complex(-inf, 1), 3])
    assert _values(gt.logcumsumexp(x, 0)).tolist() == [complex(-inf, 0), complex(-inf, 0), 3]
    y = _values(gt.logcumsumexp(gt.tensor([complex(1, nan), 3]), 0))
    assert np.isnan(y.real).all() and np.isnan(y.imag).all()


def test_diff_promotes_prepend_and_append():
    x = gt.tensor([1, 2, 4], dtype=gt.int8)
    result = gt.diff(x, prepend=gt.tensor([3], dtype=gt.uint8))
    assert result.dtype is gt.int16 and _values(result).tolist() == [-2, 1, 2]
    flags = gt.diff(gt.tensor([True, False]), prepend=gt.tensor([1]))
    assert flags.dtype is gt.int64 and _values(flags).tolist() == [0, -1]
    assert _values(gt.diff(gt.tensor([True, False, False, True]), n=2)).tolist() == [True, True]


def test_diff_n0_ignores_prepend_and_wants_selfs_dtype_in_out():
    x = gt.tensor([[0.0, 1.0, 2.0]])
    assert tuple(gt.diff(x, n=0, prepend=gt.zeros(1, 1)).shape) == (1, 3)
    with pytest.raises(RuntimeError, match="^expected scalar_type Float but found Double$"):
        gt.diff(x, n=0, out=gt.empty(3, dtype=gt.float64))


def test_gradient_picks_torchs_overload():
    x = gt.tensor([1.0, 4.0, 9.0, 16.0])
    assert _values(gt.gradient(x, spacing=2)[0]).tolist() == [1.5, 2.0, 3.0, 3.5]
    assert _values(gt.gradient(x, spacing=[2.0])[0]).tolist() == [1.5, 2.0, 3.0, 3.5]
    # a tuple of tensors is never a tuple of numbers, even 0-dim ones (Scalar[] refuses)
    with pytest.raises(RuntimeError, match="one dimension, but got an element with 0"):
        gt.gradient(x, spacing=(gt.tensor(2.0),))
    assert type(gt.gradient(x)) is tuple and gt.gradient(gt.tensor(1.0)) == ()


def test_integrals_of_integers_are_float():
    y = gt.arange(6).reshape(2, 3) ** 2
    assert _values(gt.trapezoid(y)).tolist() == [3.0, 33.0]
    assert gt.trapezoid(y).dtype is gt.float32
    assert _values(gt.cumulative_trapezoid(gt.tensor([1.0, 4.0, 9.0]))).tolist() == [2.5, 9.0]
    empty = gt.trapezoid(gt.zeros(2, 0, dtype=gt.int32), dim=1)
    assert empty.dtype is gt.int32 and _values(empty).tolist() == [0, 0]


# ----- differential grid (torch when importable) ---------------------------------------
CALLS = {
    "cumsum dtype": lambda lib, x: lib.cumsum(x, 1, dtype=lib.float64),
    "cumprod to int": lambda lib, x: lib.cumprod(x, 0, dtype=lib.int32),
    "diff mixed": lambda lib, x: lib.diff(x, 1, 0, x[:1].to(lib.float64), x[-1:].to(lib.int8)),
    "gradient coords": lambda lib, x: lib.gradient(
        x, spacing=(lib.tensor([0.0, 1.0, 3.0]), lib.tensor([0.0, 0.5, 0.75, 2.0])),
        edge_order=2),
    "gradient dims": lambda lib, x: lib.gradient(x, spacing=[0.5, 2], dim=[1, 0]),
    "trapezoid int x": lambda lib, x: lib.trapezoid(x, lib.tensor([1, 2, 4, 8]), dim=1),
    "cumulative 2-d x": lambda lib, x: lib.cumulative_trapezoid(x, x.abs().cumsum(0), dim=0),
}


@pytest.mark.parametrize("dtype", ["float32", "int64", "float16", "complex64"])
@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_torch(name, dtype):
    torch = pytest.importorskip("torch")
    values = np.random.default_rng(7).uniform(-4, 4, (3, 4))
    results = []
    for lib in (gt, torch):
        x = lib.tensor(values).to(getattr(lib, dtype))
        try:
            results.append(CALLS[name](lib, x))
        except Exception as error:          # noqa: BLE001 - the error is the outcome
            results.append(f"{type(error).__name__}: {error}")
    mine, theirs = results
    if isinstance(theirs, str) or isinstance(mine, str):
        assert mine == theirs
        return
    for a, b in zip(mine if isinstance(mine, tuple) else (mine,),
                    theirs if isinstance(theirs, tuple) else (theirs,)):
        assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
        # float16: torch rounds a 0-dim float32 operand to float16 first (gradient's
        # edge weights), glasstorch's elementwise machinery keeps its float32 value
        loose = dtype == "float16"
        np.testing.assert_allclose(_values(a.to(gt.complex128)), b.to(torch.complex128).numpy(),
                                   rtol=2e-2 if loose else 2e-3, atol=1e-2 if loose else 1e-3)


def test_scalar_list_reads_scalars_in_overload_errors():
    """torch words a Scalar[] parameter "tuple of Scalars" (a lone Scalar: "Number")."""
    with pytest.raises(TypeError) as caught:
        gt.gradient(gt.tensor([1.0, 2.0]), 2)
    assert "* (Tensor input, *, tuple of Scalars spacing, int dim = None, int edge_order = 1)" \
        in str(caught.value)
    assert "* (Tensor input, *, Number spacing = None, int dim = None, int edge_order = 1)" \
        in str(caught.value)
