"""The activations' chains of NumPy passes (Note [Chained passes in blocks]): numbers
taken as 0-d arrays, passes skipped for a factor of 1, `np.sign` done by bits and the
reciprocal as a division change no bit of a result, which each test holds against the
same formula written with plain NumPy numbers; and `tanh_backward`, torch's fused
multiply-add, bit for bit."""
import math

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.pointwise.blocks import constant

F = gt.nn.functional
ops = gt.ops.aten
_P = 0.3275911 * math.sqrt(0.5)
_A = (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)


def _specials(size: int, dtype, seed: int) -> np.ndarray:
    values = (np.random.default_rng(seed).standard_normal(size) * 4).astype(dtype)
    values[:10] = [np.inf, -np.inf, 0.0, -0.0, 3.0, -3.0, 25.0, -25.0, 1e-30, -100.0]
    return values


def _tail(x: np.ndarray) -> tuple:
    """Abramowitz-Stegun's erfc(|x| / sqrt 2) and exp(-x^2 / 2), Python numbers."""
    f = np.float32
    t = f(1) / (np.abs(x) * f(_P) + f(1))
    q = t * f(_A[0])
    for a in _A[1:]:
        q = (q + f(a)) * t
    e = np.exp(x * x * f(-0.5))
    return q * e, e


def _gelu(x: np.ndarray) -> np.ndarray:
    q, _ = _tail(x)
    return ((np.float32(1) - q) * np.abs(x) + x) * np.float32(0.5)


def _gelu_backward(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    f = np.float32
    q, e = _tail(x)
    cdf = ((f(1) - q) * np.sign(x) + f(1)) * f(0.5)
    return (cdf + e * f(1 / math.sqrt(2 * math.pi)) * x) * g


def _elu(x: np.ndarray, alpha, scale, input_scale) -> np.ndarray:
    curve = np.expm1(x * input_scale) * (alpha * scale)
    return np.where(x <= 0, curve, x * scale)


def _softplus(x: np.ndarray, beta, threshold) -> np.ndarray:
    scaled = x * beta
    return np.where(scaled > threshold, x, np.log1p(np.exp(scaled)) / beta)


_CHAINS = [
    ("gelu", lambda x, g: F.gelu(x), lambda x, g: _gelu(x)),
    ("gelu_backward", lambda x, g: ops.gelu_backward(g, x),
     lambda x, g: _gelu_backward(g, x)),
    ("sigmoid", lambda x, g: gt.sigmoid(x), lambda x, g: 1 / (1 + np.exp(-x))),
    ("elu", lambda x, g: F.elu(x), lambda x, g: _elu(x, 1, 1, 1)),
    ("elu_scaled", lambda x, g: ops.elu(x, 0.7, 1.1, 0.9), lambda x, g: _elu(x, 0.7, 1.1, 0.9)),
    ("softplus", lambda x, g: F.softplus(x), lambda x, g: _softplus(x, 1, 20)),
    ("softplus_scaled", lambda x, g: F.softplus(x, 2.0, 5.0),
     lambda x, g: _softplus(x, 2.0, 5.0)),
    ("hardswish", lambda x, g: F.hardswish(x), lambda x, g: np.clip(x + 3, 0, 6) * x / 6),
]


@pytest.mark.parametrize("size", [9000, 200_000])
@pytest.mark.parametrize("name, ours, formula", _CHAINS, ids=[c[0] for c in _CHAINS])
def test_chain_is_its_formula_bit_for_bit(name, ours, formula, size):
    """Every non-NaN element as the formula computes it with NumPy numbers (200_000
    elements: several blocks, over the pool)."""
    x, g = _specials(size, np.float32, 0), _specials(size, np.float32, 1)
    with np.errstate(all="ignore"):
        expected = formula(x, g)
    got = ours(gt.from_numpy(x), gt.from_numpy(g)).numpy()
    assert got.dtype == np.float32
    assert got.view(np.uint32).tobytes() == expected.view(np.uint32).tobytes()


def test_gelu_backward_keeps_the_sign_of_a_nan_as_torch():
    """The sign comes from x's sign bit: a negative NaN gives a negative NaN, as torch."""
    x = np.float32([np.nan, -np.nan, 1.0])
    got = ops.gelu_backward(gt.ones(3), gt.from_numpy(x)).numpy()
    assert np.signbit(got[:2]).tolist() == [False, True]


def test_constant_is_made_once_and_read_only():
    one = constant(1, np.dtype(np.float32))
    assert one is constant(1.0, np.dtype(np.float32)) and one.dtype == np.float32
    assert one.ndim == 0 and not one.flags.writeable
    assert constant(1, np.dtype(np.float64)).dtype == np.float64


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64"])
@pytest.mark.parametrize("size, specials", [(20, True), (70_000, True), (70_000, False)])
def test_tanh_backward_bit_for_bit_as_torch(dtype, size, specials):
    """torch fuses ``1 - y * y`` into one multiply-add (float32 and float64): the same
    bits here, also where y is beyond [-1, 1] or not finite (complex: the same values,
    NumPy's complex products rounding as they do)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    y = np.tanh(rng.standard_normal(size) * 2)
    if specials:                            # float64: the general two-sum, else Fast2Sum
        y[:6] = [np.inf, -np.inf, np.nan, -0.0, 1e200, 7.5]
    if dtype == "complex64":
        y = y + 1j * rng.standard_normal(size) * 0.1
    g = rng.standard_normal(size)
    results = []
    for lib in (gt, torch):
        kind = getattr(lib, dtype)
        result = lib.ops.aten.tanh_backward(lib.tensor(g, dtype=kind), lib.tensor(y, dtype=kind))
        wide = lib.complex128 if dtype == "complex64" else lib.float64
        results.append(result.to(wide).numpy())
    if dtype == "complex64":
        np.testing.assert_allclose(results[0], results[1], rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_array_equal(results[0], results[1])


def test_tanh_derivative_is_tanh_backward_as_torch():
    """tanh's gradient is the operator, and its own derivatives as torch's."""
    torch = pytest.importorskip("torch")
    results = []
    for lib in (gt, torch):
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        first, = lib.autograd.grad(x.tanh().sum(), x, create_graph=True)
        second, = lib.autograd.grad(first.sum(), x)
        results.append((first.grad_fn.name(), first.detach().numpy(), second.numpy()))
    assert results[0][0] == results[1][0] == "TanhBackwardBackward0"
    for mine, theirs in zip(results[0][1:], results[1][1:]):     # tanh's own last bits
        np.testing.assert_allclose(mine, theirs, rtol=1e-6)          # may differ (Sleef)


def test_one_minus_square_float32_is_rounded_once_for_every_small_y():
    """float32's ``1 - y * y`` goes through float64, which rounds it only for |y| < 1/8:
    for every float32 y in [2**-13, 1/8) the float64 value is no float32 tie (so
    rounding it again to float32 is the single rounding); below 2**-13 both give 1."""
    low_tie_bits = np.uint64((1 << 29) - 1)
    start = int(np.float32(2.0 ** -13).view(np.uint32))
    stop = int(np.float32(0.125).view(np.uint32))
    for begin in range(start, stop, 1 << 22):
        y = np.arange(begin, min(begin + (1 << 22), stop), dtype=np.uint32).view(np.float32)
        wide = y.astype(np.float64)
        wide = 1 - wide * wide
        assert not ((wide.view(np.uint64) & low_tie_bits) == np.uint64(1 << 28)).any()
    tiny = np.float32([2.0 ** -13, 1e-20, 0.0]) * np.float32(0.9999)
    assert (ops.tanh_backward(gt.ones(3), gt.from_numpy(tiny)).numpy() == 1).all()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype, size", [("float32", 20), ("float32", 100), ("float64", 100),
                                         ("float16", 200), ("float32", 100_003),
                                         ("float32", 300_007), ("bfloat16", 300_007)])
def test_hardswish_backward_at_nan_as_torch(dtype, size, threads):
    """NaN where torch's vectorized loop computes, the gradient in its scalar tails (the
    ends of its chunks, on one thread or two), also for a broadcast gradient."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(size)
    x = rng.standard_normal(size) * 4
    x[rng.random(size) < 0.3] = np.nan
    x[-40:] = x[size // 2 - 40:size // 2 + 40] = np.nan
    g = rng.standard_normal(size)
    results = []
    for lib in (gt, torch):
        before = lib.get_num_threads()
        lib.set_num_threads(threads)
        kind = getattr(lib, dtype)
        try:
            for grad in (lib.tensor(g, dtype=kind), lib.ones(1, dtype=kind).expand(size)):
                result = lib.ops.aten.hardswish_backward(grad, lib.tensor(x, dtype=kind))
                results.append(result.double().numpy())
        finally:
            lib.set_num_threads(before)
    for mine, theirs in zip(results[:2], results[2:]):
        np.testing.assert_array_equal(mine, theirs)


def test_hardswish_backward_scalar_loop_for_other_layouts():
    """Operands laid out differently go through torch's scalar loop: the gradient at
    NaN."""
    x = gt.full((100, 10), float("nan")).t()
    assert (ops.hardswish_backward(gt.ones(10, 100), x) == 1).all()


def test_scalar_tail_positions():
    """The last length % (128 / itemsize) elements of each of ATen's chunks."""
    from glasstorch.aten.native.pointwise.vector_loops import scalar_tail_positions
    before = gt.get_num_threads()
    try:
        gt.set_num_threads(1)
        assert scalar_tail_positions(100, 4).tolist() == [96, 97, 98, 99]
        assert scalar_tail_positions(20, 8).tolist() == [16, 17, 18, 19]
        assert scalar_tail_positions(0, 4).size == 0
        gt.set_num_threads(2)
        assert scalar_tail_positions(20, 2).tolist() == list(range(20))
        assert scalar_tail_positions(100_000, 4).tolist() == (list(range(49_984, 50_000))
                                                              + list(range(99_984, 100_000)))
    finally:
        gt.set_num_threads(before)
