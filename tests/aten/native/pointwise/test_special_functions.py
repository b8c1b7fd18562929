"""torch.special beyond the OpInfo entries: every one of torch's names, values held to
torch along whole lines (the Bessel functions' own approximations, the polynomials' ends,
high degrees and overflow), the Scalar overloads of the aliases, which results are
differentiable, and the derivatives torch defines. Differential: each test skips
without torch (values recorded from torch 2.13 are checked without it)."""
import itertools

import numpy as np
import pytest

import glasstorch as gt

INF, NAN = float("inf"), float("nan")
POLYNOMIALS = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
               "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
               "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p")
UNARY = ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
         "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
         "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0",
         "i0e", "i1", "i1e", "log_ndtr", "ndtr", "entr", "airy_ai")
TOLERANCE = {"float32": dict(rtol=1.3e-6, atol=1e-5), "float64": dict(rtol=1e-7, atol=1e-7)}


def _close(actual, expected, dtype: str) -> None:
    np.testing.assert_allclose(np.asarray(actual.tolist(), dtype=np.float64),
                               np.asarray(expected.tolist(), dtype=np.float64),
                               equal_nan=True, **TOLERANCE[dtype])


def test_every_torch_special_name():
    """torch.special's 56 functions (the module's own imports left aside)."""
    from glasstorch.aten import torch_names
    names = torch_names.torch_names("torch.special") - {"Tensor", "torch", "common_args",
                                                         "multi_dim_common"}
    assert len(names) == 56
    assert [name for name in sorted(names) if not hasattr(gt.special, name)] == []


RECORDED = [
    # (function, arguments, torch 2.13's float32 result)
    ("bessel_j0", ([0.0, 2.5, 5.0, 5.5, -6.0],), [1.0, -0.04838378, -0.17759676,
                                                  -0.0068439785, 0.15064524]),
    ("bessel_y0", ([0.0, -1.0, 2.5, INF],), [-INF, NAN, 0.49807039, NAN]),
    ("spherical_bessel_j0", ([0.0, INF, -INF, 3.0],), [1.0, 0.0, 0.0, 0.047040003]),
    ("chebyshev_polynomial_t", ([NAN, NAN, 1.0, 1.0, 2.0], [0.0, 1.0, NAN, -0.5, 2.9]),
     [1.0, NAN, 0.0, 1.0, 7.0]),
    ("hermite_polynomial_h", ([0.75, 0.75], [49.0, 50.0]), [2.409547421376474e+38, -INF]),
    ("legendre_polynomial_p", ([-1.0, -1.0, 1.0], [1.0, 2.0, 3.0]), [-1.0, 1.0, 1.0]),
    ("zeta", ([1.0, 0.5, 2.0, 2.0, 2.0], [1.0, 1.0, 0.0, -1.5, INF]),
     [INF, NAN, INF, 9.3792467, NAN]),
    ("xlog1py", ([0.0, 0.0, 1.0], [-1.0, NAN, -1.0]), [0.0, NAN, -INF]),
]


@pytest.mark.parametrize("name, arguments, expected", RECORDED, ids=lambda v: str(v)[:30])
def test_recorded_values(name, arguments, expected):
    result = getattr(gt.special, name)(*(gt.tensor(a) for a in arguments))
    np.testing.assert_allclose(np.asarray(result.tolist()), expected, rtol=2e-6,
                               equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
                                  "airy_ai"])
def test_bessel_follows_torch_along_the_line(name, dtype):
    """torch's J, Y and Ai (Note [torch's Bessel functions J and Y]) at 4001 points of
    [-20, 20], where SciPy's differ from them by up to ~1e-6."""
    torch = pytest.importorskip("torch")
    x = np.concatenate([np.linspace(-20, 20, 4001), [0.0, -0.0, 1e-6, NAN, INF, -INF, 1e10]])
    x = x.astype(dtype)
    _close(getattr(gt.special, name)(gt.from_numpy(x)),
           getattr(torch.special, name)(torch.from_numpy(x)), dtype)


@pytest.mark.parametrize("name", UNARY)
def test_unary_at_special_points(name):
    torch = pytest.importorskip("torch")
    x = np.array([NAN, INF, -INF, 0.0, -0.0, 1e-30, 0.5, -0.5, 1.0, -2.0, 30.0, -30.0, 700.0,
                  -700.0, 3e38], np.float32)
    for dtype in ("float32", "float64"):
        values = x.astype(dtype)
        _close(getattr(gt.special, name)(gt.from_numpy(values)),
               getattr(torch.special, name)(torch.from_numpy(values)), dtype)


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomials_follow_torch(name):
    """The interval's ends, NaN, inf and out-of-range degrees, the trigonometric forms of
    high degree and the overflow of the recurrence (Note [Polynomial evaluation])."""
    torch = pytest.importorskip("torch")
    points = [NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.3, 0.99, 2.0, -3.0, 0.25,
              0.75, 1e-3, 7.5, -8.2]
    degrees = [NAN, INF, -INF, -1.0, -0.5, 0.0, 0.7, 1.0, 2.0, 3.0, 5.0, 6.0, 7.0, 8.0, 9.0,
               10.0, 12.0, 20.0, 50.0]
    x, n = map(np.array, zip(*itertools.product(points, degrees)))
    for dtype in ("float32", "float64"):
        ours = getattr(gt.special, name)(gt.from_numpy(x.astype(dtype)),
                                         gt.from_numpy(n.astype(dtype)))
        theirs = getattr(torch.special, name)(torch.from_numpy(x.astype(dtype)),
                                              torch.from_numpy(n.astype(dtype)))
        _close(ours, theirs, dtype)


def test_polynomial_numbers_and_promotion():
    t = gt.special.chebyshev_polynomial_t
    assert t(gt.tensor([1, 2]), gt.tensor([2, 3])).dtype is gt.float32
    assert t(gt.tensor([0.5], dtype=gt.float64), gt.tensor(3.0)).dtype is gt.float64
    assert t(2, gt.tensor([1, 2])).tolist() == [2.0, 7.0]
    with pytest.raises(NotImplementedError, match="chebyshev_polynomial_t_cpu"):
        t(gt.tensor([0.5], dtype=gt.float16), 2)
    with pytest.raises(TypeError, match=r"\(Number x, Tensor n, \*, Tensor out = None\)"):
        t(2, 3)


def test_alias_scalar_overloads():
    """torch.special.xlogy's Scalar overloads (and their out= forms)."""
    x = gt.tensor([1.0, 3.0])
    assert gt.special.xlogy(2.0, x).tolist() == pytest.approx([0.0, 2 * np.log(3.0)])
    assert gt.special.xlogy(x, 2).tolist() == pytest.approx([np.log(2.0), 3 * np.log(2.0)])
    out = gt.empty(2)
    assert gt.special.xlogy(2.0, x, out=out) is out
    assert gt.ops.aten.special_xlogy.self_scalar(2.0, x).tolist() == out.tolist()


def test_aliases_record_the_named_operator():
    x = gt.tensor([0.5, 1.5], requires_grad=True)
    assert type(gt.special.expit(x).grad_fn).__name__ == "SigmoidBackward0"
    assert type(gt.special.gammaln(x).grad_fn).__name__ == "LgammaBackward0"
    assert type(gt.special.psi(x).grad_fn).__name__ == "DigammaBackward0"


@pytest.mark.parametrize("name", ["bessel_j0", "airy_ai", "modified_bessel_k1",
                                  "spherical_bessel_j0", "scaled_modified_bessel_k0"])
def test_no_gradient_where_torch_records_none(name):
    x = gt.tensor([1.0, 2.0], requires_grad=True)
    result = getattr(gt.special, name)(x)
    assert result.grad_fn is None and not result.requires_grad
    y = gt.special.chebyshev_polynomial_t(x, 3)
    assert y.grad_fn is None


@pytest.mark.parametrize("name", ["i0e", "i1", "i1e", "ndtri", "log_ndtr", "erfcx", "ndtr"])
def test_unary_gradients_match_torch(name):
    """First and second derivatives, 0 included (i1 and i1e take their limit 1/2)."""
    torch = pytest.importorskip("torch")
    values = [0.0, 0.2, 0.5, 0.9] if name == "ndtri" else [0.0, -1.5, 0.5, 3.0, 1e-20]
    ours = gt.tensor(values, dtype=gt.float64, requires_grad=True)
    theirs = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    (g_ours,) = gt.autograd.grad(getattr(gt.special, name)(ours).sum(), ours,
                                 create_graph=True)
    (g_theirs,) = torch.autograd.grad(getattr(torch.special, name)(theirs).sum(), theirs,
                                      create_graph=True)
    _close(g_ours, g_theirs.detach(), "float64")
    _close(gt.autograd.grad(g_ours.sum(), ours)[0],
           torch.autograd.grad(g_theirs.sum(), theirs)[0], "float64")


def test_binary_gradients_match_torch():
    torch = pytest.importorskip("torch")
    for name in ("xlog1py", "zeta"):
        a, b = [0.0, 2.0, 3.0], [-1.0, 1.0, 2.5]
        wanted = (True, True) if name == "xlog1py" else (False, True)   # zeta: x has none
        ours = [gt.tensor(v, dtype=gt.float64, requires_grad=w) for v, w in zip((a, b), wanted)]
        theirs = [torch.tensor(v, dtype=torch.float64, requires_grad=w)
                  for v, w in zip((a, b), wanted)]
        inputs = slice(0, 2) if name == "xlog1py" else slice(1, 2)
        found = gt.autograd.grad(getattr(gt.special, name)(*ours).sum(), ours[inputs])
        wanted = torch.autograd.grad(getattr(torch.special, name)(*theirs).sum(),
                                     theirs[inputs])
        for one, other in zip(found, wanted):
            _close(one, other, "float64")
    x = gt.tensor([2.0], requires_grad=True)
    with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not "):
        gt.special.zeta(x, gt.tensor([1.0])).backward()
