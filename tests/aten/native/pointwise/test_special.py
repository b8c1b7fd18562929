"""Special functions and the clamp family beyond the OpInfo entries: values recorded from
torch 2.13 at the special points (no torch needed), named results (torch.return_types),
the bindings they need, running without SciPy, and a differential sweep when torch is
importable."""
import importlib.util
import math
import pickle
import sys
import warnings

import numpy as np
import pytest

import glasstorch as gt

INF, NAN = float("inf"), float("nan")


def _same(actual, expected, dtype=None) -> None:
    """Values equal (NaN equal, signed zeros told apart), and the dtype when given."""
    if dtype is not None:
        assert actual.dtype is dtype
    a = np.asarray(actual.tolist(), dtype=np.float64)
    b = np.asarray(expected, dtype=np.float64)
    np.testing.assert_array_equal(np.signbit(a[~np.isnan(a)]), np.signbit(b[~np.isnan(b)]))
    np.testing.assert_allclose(a, b, rtol=2e-7, atol=0, equal_nan=True)


# ----------------------------------------------------------------------------------
# Recorded from torch 2.13 (float32 unless said)
# ----------------------------------------------------------------------------------
HAVE_SCIPY = importlib.util.find_spec("scipy") is not None
scipy_only = pytest.mark.skipif(not HAVE_SCIPY, reason="SciPy is not installed")

RECORDED = [
    # (call, input, torch's result)
    ("digamma", [0.0, -0.0, -1.0, -2.0, INF, -INF, NAN, 1.0],
     [-INF, INF, NAN, NAN, INF, NAN, NAN, -0.5772159]),
    ("lgamma", [INF, -INF, NAN, -0.0, 0.0, -1.0, -2.5], [INF, INF, NAN, INF, INF, INF,
                                                         -0.05624371]),
    ("erfinv", [1.0, -1.0, 1.5, NAN, -0.0, 0.0], [INF, -INF, NAN, NAN, -0.0, 0.0]),
    ("erf", [INF, -INF, NAN, -0.0], [1.0, -1.0, NAN, -0.0]),
    ("erfc", [INF, -INF, NAN, -0.0, 30.0], [0.0, 2.0, NAN, 1.0, 0.0]),
    ("i0", [INF, -INF, NAN, -0.0, 700.0], [NAN, NAN, NAN, 1.0, INF]),
    ("sigmoid", [INF, -INF, NAN, -0.0, -200.0], [1.0, 0.0, NAN, 0.5, 0.0]),
]


@scipy_only
@pytest.mark.parametrize("name, values, expected", RECORDED, ids=[r[0] for r in RECORDED])
def test_special_points(name, values, expected):
    _same(getattr(gt, name)(gt.tensor(values)), expected, gt.float32)


@scipy_only
def test_polygamma_special_points():
    x = gt.tensor([-1.0, -2.0, 0.5, -INF, INF])
    # torch's trigamma reflects through sin(pi * x): finite, huge, at the poles
    _same(gt.polygamma(1, x), [1.2913697e+15, 3.2284242e+14, 4.934802, NAN, 0.0])
    _same(gt.polygamma(2, x), [-INF, -INF, -16.828796, -INF, NAN])      # torch's zeta at inf
    _same(gt.polygamma(1, x.double())[:2], [6.580790147320947e+32, 1.6451975368302367e+32])
    assert gt.polygamma(0, gt.tensor([1, 2])).dtype is gt.float32        # integers: float


@scipy_only
def test_incomplete_gamma_special_points():
    """torch's checks come in order: a negative argument, a = 0, x = 0, a = inf, x = inf
    (so igamma(nan, 0) is 0 and igamma(nan, inf) is 1 where SciPy says nan)."""
    a = gt.tensor([0.0, -1.0, 1.0, INF, 2.0, INF, NAN, NAN, INF, 0.0])
    x = gt.tensor([0.0, 1.0, 0.0, 1.0, INF, NAN, 0.0, INF, INF, 2.0])
    _same(gt.igamma(a, x), [NAN, NAN, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, NAN, 1.0], gt.float32)
    _same(gt.igammac(a, x), [NAN, NAN, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, NAN, 0.0], gt.float32)


@scipy_only
def test_incomplete_gamma_grid_matches_torch():
    """Every pair of special and ordinary values, in four dtypes, against torch."""
    torch = pytest.importorskip("torch")
    values = [0.0, -0.0, -1.0, 0.5, 1.0, 2.5, 30.0, 1e-30, INF, -INF, NAN, 1e10, 100.0, 3.7]
    a, x = np.meshgrid(values, values, indexing="ij")
    for dtype in ("float64", "float32", "float16", "bfloat16"):
        loose = dtype in ("float16", "bfloat16")
        for name in ("igamma", "igammac"):
            mine, theirs = (getattr(m, name)(m.tensor(a, dtype=getattr(m, dtype)),
                                             m.tensor(x, dtype=getattr(m, dtype))).float()
                            .numpy() for m in (gt, torch))
            np.testing.assert_allclose(mine, theirs, rtol=1e-2 if loose else 1.3e-6,
                                       atol=1e-3 if loose else 1e-7, equal_nan=True,
                                       err_msg=f"{name} {dtype}")


@scipy_only
def test_polygamma_method_and_in_place():
    """`polygamma(int n, Tensor self)`: the method binds self after n, as torch's does."""
    x = gt.tensor([1.0, 0.5])
    _same(x.polygamma(1), gt.polygamma(1, x).tolist())
    version = x._version
    assert x.polygamma_(2) is x and x._version == version + 1
    _same(x, [-2.4041138, -16.828796])
    with pytest.raises(RuntimeError, match=r"^polygamma\(n, x\) does not support negative n\.$"):
        x.polygamma(-1)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        gt.tensor([1, 2]).polygamma_(1)


@scipy_only
def test_mvlgamma_and_logit():
    _same(gt.mvlgamma(gt.tensor([2.5, 7.3]), 4), [3.598090171813965, 26.547161102294922])
    _same(gt.logit(gt.tensor([0.0, 0.5, 1.0, NAN, -1.0, 2.0]), eps=0.1),
          [-2.1972246, 0.0, 2.1972246, NAN, -2.1972246, 2.1972246])
    _same(gt.logit(gt.tensor([0.0, 0.5, 1.0]), eps=0.7), [0.8472978, 0.8472978, -0.8472978])
    _same(gt.logit(gt.tensor([0.0, 1.0, 2.0]), eps=-0.1), [-INF, INF, NAN])
    with pytest.raises(RuntimeError, match="^mvlgamma: result type Long can't be cast to the "
                                           "desired output type Float$"):
        gt.tensor([3, 4]).mvlgamma_(2)


# ----------------------------------------------------------------------------------
# clamp: two promotion rules, NaN and -0.0, the in-place and out= words
# ----------------------------------------------------------------------------------
CLAMP_DTYPES = [
    # (input dtype, bounds, result dtype)
    (gt.int64, (0.5, None), gt.float32),
    (gt.int64, (2, 7.5), gt.float32),
    (gt.bool, (0, 1), gt.int64),
    (gt.bool, (0.5, None), gt.float32),
    (gt.uint8, (-1, None), gt.uint8),              # -1 wraps to 255 in uint8
    (gt.float16, (1e-3, 3), gt.float16),
    (gt.int8, (gt.tensor(300), None), gt.int8),    # a 0-dim tensor bound: Tensor overload
    (gt.int64, (gt.tensor([2.5, 0, 0], dtype=gt.float64), None), gt.float64),
]


@pytest.mark.parametrize("dtype, bounds, result", CLAMP_DTYPES)
def test_clamp_result_dtype(dtype, bounds, result):
    x = gt.tensor([1, 0, 1]).to(dtype)
    assert gt.clamp(x, *bounds).dtype is result


def test_clamp_values():
    nan_row = gt.tensor([1.0, NAN, 3.0])
    _same(gt.clamp(nan_row, 2, 1), [1.0, NAN, 1.0])                     # min > max: max
    _same(gt.clamp(nan_row, NAN, 1), [NAN, NAN, NAN])
    _same(gt.clamp(gt.tensor([1.0, 2.0]), gt.tensor([NAN, 1.0])), [NAN, 2.0])
    _same(gt.clamp(gt.tensor([-0.0, 0.0]), 0.0, 0.0), [-0.0, 0.0])     # the input is kept
    _same(gt.clamp_min(gt.tensor([0.0, -0.0]), gt.tensor([-0.0, 0.0])), [0.0, -0.0])
    assert gt.clamp(gt.tensor([1, 2], dtype=gt.uint8), -1).tolist() == [255, 255]
    assert gt.relu(gt.tensor([-3, 4], dtype=gt.int8)).tolist() == [0, 4]
    _same(gt.relu(gt.tensor([-0.0, NAN, -1.0, 2.0])), [-0.0, NAN, 0.0, 2.0])   # as clamp_min
    x = gt.tensor([-0.0, NAN, -1.0, 2.0], dtype=gt.float16)
    version = x._version
    assert x.relu_() is x and x._version == version + 1
    _same(x, [-0.0, NAN, 0.0, 2.0], gt.float16)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_clamp_by_two_floats_matches_the_general_path(dtype):
    """Two nonzero Python float bounds take a shortcut; NumPy float bounds take the
    general path (bounds converted, signed zeros fixed): the results agree bit for bit."""
    values = gt.tensor([-0.0, 0.0, NAN, -INF, INF, -1.5, 0.1, 0.7, 1e-8, 3.0],
                       dtype=getattr(gt, dtype))
    width = f"u{values.element_size()}"
    for low, high in [(-0.5, 0.5), (0.1, 0.3), (0.7, -0.2), (NAN, 1.0), (-INF, 1e-8),
                      (1 / 3, INF)]:
        shortcut = gt.clamp(values, low, high).numpy()
        general = gt.clamp(values, np.float64(low), np.float64(high)).numpy()
        np.testing.assert_array_equal(shortcut.view(width), general.view(width))
        in_place = values.clone()
        in_place.clamp_(low, high)
        np.testing.assert_array_equal(in_place.numpy().view(width), general.view(width))


CLAMP_ERRORS = [
    (lambda: gt.tensor([1, 5]).clamp_(0.5), RuntimeError,
     "^result type Float can't be cast to the desired output type long int$"),
    (lambda: gt.tensor([1, 5]).clamp_(gt.tensor(0.5)), RuntimeError,
     "^result type Float can't be cast to the desired output type Long$"),
    (lambda: gt.tensor([True]).clamp_(0, 1), RuntimeError,
     "^result type Long can't be cast to the desired output type bool$"),
    (lambda: gt.clamp(gt.tensor([1.0]), 1.0, out=gt.empty(1, dtype=gt.float64)), RuntimeError,
     "^Found dtype Double but expected Float$"),
    (lambda: gt.clip(gt.tensor([1.0])), RuntimeError,
     "^torch.clamp: At least one of 'min' or 'max' must not be None$"),
    (lambda: gt.clamp(gt.tensor([1, 2], dtype=gt.uint8), -256), RuntimeError,
     "^value cannot be converted to type uint8_t without overflow$"),
    (lambda: gt.clamp(gt.tensor([True]), gt.tensor(False), True), NotImplementedError,
     "^\"clamp_scalar_cpu\" not implemented for 'Bool'$"),
    (lambda: gt.relu(gt.tensor([True])), RuntimeError,
     "^Boolean inputs not supported for relu$"),
    (lambda: gt.relu(3), TypeError,
     r"^relu\(\): argument 'input' \(position 1\) must be Tensor, not int$"),
]


@pytest.mark.parametrize("call, error, message", CLAMP_ERRORS)
def test_clamp_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_clamp_in_place_refusal_writes_nothing():
    x = gt.tensor([1, 5, 9])
    with pytest.raises(RuntimeError):
        x.clamp_(0.5, 7)
    assert x.tolist() == [1, 5, 9] and x._version == 0


# ----------------------------------------------------------------------------------
# The floating-point representation
# ----------------------------------------------------------------------------------
def test_frexp_named_results():
    result = gt.frexp(gt.tensor([3.0, 4.0]))
    assert type(result) is gt.return_types.frexp and isinstance(result, tuple)
    assert result.mantissa is result[0] and result.exponent is result[1]
    assert result.n_fields == 2 and len(result) == 2
    assert repr(result) == ("torch.return_types.frexp(\nmantissa=tensor([0.7500, 0.5000]),\n"
                            "exponent=tensor([2, 3], dtype=torch.int32))")
    again = pickle.loads(pickle.dumps(result))
    assert type(again) is gt.return_types.frexp and again.exponent.tolist() == [2, 3]
    with pytest.raises(TypeError, match="takes a 2-sequence"):
        gt.return_types.frexp((1,))


def test_frexp_values_and_out():
    x = gt.tensor([0.0, -0.0, INF, NAN, 1e-45, -5.5])
    mantissa, exponent = gt.frexp(x)
    _same(mantissa, [0.0, -0.0, INF, NAN, 0.5, -0.6875], gt.float32)
    assert exponent.dtype is gt.int32 and exponent.tolist() == [0, 0, 0, 0, -148, 3]
    half = gt.frexp(gt.tensor([65504.0, 6e-8], dtype=gt.float16))
    assert half.mantissa.dtype is gt.float16 and half.exponent.tolist() == [16, -23]
    outs = (gt.empty(0), gt.empty(0, dtype=gt.int32))
    written = gt.frexp(gt.tensor([8.0]), out=outs)
    assert type(written) is gt.return_types.frexp_out and written[0] is outs[0]
    assert outs[1].tolist() == [4]
    with pytest.warns(UserWarning, match="An output with one or more elements was resized"):
        gt.frexp(gt.tensor([8.0]), out=(gt.empty(3), gt.empty(1, dtype=gt.int32)))
    with pytest.raises(RuntimeError, match="^torch.frexp\\(\\) expects exponent to have int "
                                           "dtype but got long int$"):
        gt.frexp(gt.tensor([8.0]), out=(gt.empty(1), gt.empty(1, dtype=gt.int64)))


def test_ldexp_and_nextafter():
    # integer exponents scale exactly (as C's ldexp), wrapping to C's int
    _same(gt.ldexp(gt.tensor([0.25, 3.0, 1.5]), gt.tensor([129, -150, 2 ** 40])),
          [2.0 ** 127, 2.802596928649634e-45, 1.5])
    # float exponents: 2 ** e in the result dtype first (inf), then the product (NaN)
    _same(gt.ldexp(gt.tensor([0.0, 1.0]), gt.tensor([200.0, 0.5])), [NAN, math.sqrt(2)])
    assert gt.ldexp(gt.tensor([1], dtype=gt.int8), gt.tensor([3], dtype=gt.int8)).dtype \
        is gt.float32
    with pytest.raises(RuntimeError, match="^ldexp can't be cast to the desired output type "
                                           "Long$"):
        gt.tensor([1]).ldexp_(gt.tensor([2]))
    half = gt.nextafter(gt.tensor([0.5, 0.0], dtype=gt.float16),
                        gt.tensor([1.0, -1.0], dtype=gt.float16))
    assert half.tolist() == [0.50048828125, -5.960464477539063e-08]     # float16's own steps
    _same(gt.nan_to_num(gt.tensor([NAN, INF, -INF], dtype=gt.float16)),
          [0.0, 65504.0, -65504.0], gt.float16)


# ----------------------------------------------------------------------------------
# Without SciPy
# ----------------------------------------------------------------------------------
def test_without_scipy_only_the_special_kernels_ask_for_it(monkeypatch):
    for name in [m for m in sys.modules if m == "scipy" or m.startswith("scipy.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "scipy", None)          # `import scipy` now fails
    with pytest.raises(ImportError, match=r"^torch\.erf needs SciPy"):
        gt.erf(gt.tensor([0.5]))
    x = gt.tensor([0.5, 3.0])
    with pytest.raises(NotImplementedError, match="erf_vml_cpu"):   # refused before SciPy
        gt.erf(gt.tensor([1j]))
    assert gt.clamp(x, 1, 2).tolist() == [1.0, 2.0]                  # no SciPy needed
    assert gt.logit(gt.tensor([0.5])).tolist() == [0.0]
    assert gt.digamma(gt.tensor([1.0])).dtype is gt.float32          # float32: own series


# ----------------------------------------------------------------------------------
# Differential sweep (torch importable)
# ----------------------------------------------------------------------------------
SWEEP = ["sigmoid", "erf", "erfc", "lgamma", "digamma", "i0"]


@scipy_only
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sweep_matches_torch(dtype):
    torch = pytest.importorskip("torch")
    values = np.random.default_rng(7).standard_normal(4000) * 8
    values = np.concatenate([values, [0.0, -0.0, -1.0, -2.0, INF, -INF, NAN]])
    rtol = 2e-6 if dtype == "float32" else 1e-9
    calls = {name: (lambda m, x, n=name: getattr(m, n)(x)) for name in SWEEP}
    calls.update({f"polygamma{n}": (lambda m, x, n=n: m.polygamma(n, x)) for n in range(4)})
    calls["erfinv"] = lambda m, x: m.erfinv(x / 9)
    calls["logit"] = lambda m, x: m.logit(x / 20 + 0.5, eps=0.01)
    for name, call in calls.items():
        mine = call(gt, gt.tensor(values, dtype=getattr(gt, dtype))).numpy()
        theirs = call(torch, torch.tensor(values, dtype=getattr(torch, dtype))).numpy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=1e-5 if "poly" in name
                                       else 1e-30, equal_nan=True, err_msg=name)


# ----------------------------------------------------------------------------------
# The named derivative helpers (recorded from torch 2.13's autograd)
# ----------------------------------------------------------------------------------
@scipy_only
def test_backward_helpers():
    from glasstorch.aten.native.pointwise.clamp import clamp_backward, clamp_backward_min_max
    from glasstorch.aten.native.pointwise.special import logit_backward, mvlgamma_backward
    x, ones = gt.tensor([0.0, 0.25, 0.5, 1.5]), gt.ones(4)
    _same(logit_backward(ones, x, None), [INF, 16 / 3, 4.0, NAN])
    _same(logit_backward(ones, x, 0.3), [0.0, 0.0, 4.0, 0.0])
    np.testing.assert_allclose(mvlgamma_backward(ones, gt.tensor([2.5, 3.0, 4.0, 5.0]), 2)
                               .tolist(), [1.1259, 1.6259, 2.3593, 2.8950], atol=1e-4)
    x, ones = gt.tensor([-2.0, 0.5, 3.0]), gt.ones(3)
    assert clamp_backward(ones, x, -1, 1).tolist() == [0.0, 1.0, 0.0]
    low, high = gt.tensor([-1.0, 2.0, 0.0]), gt.tensor([1.0, 1.0, 1.0])
    assert clamp_backward(ones, x, low, high).tolist() == [0.0, 0.0, 0.0]
    grad_min, grad_max = clamp_backward_min_max(ones, x, low, high, [True, True])
    assert grad_min.tolist() == [1.0, 0.0, 0.0] and grad_max.tolist() == [0.0, 1.0, 1.0]
