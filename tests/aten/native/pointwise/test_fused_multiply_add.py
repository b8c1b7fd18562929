"""``add(alpha=)`` on float32 rounds ``self + alpha * other`` once, as a fused multiply-add
(Note [Fused multiply-add in float32]): the float64 detour with its ties mended, and
BLAS's saxpy where it applies, both held to the exactly rounded value."""
from fractions import Fraction

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native.pointwise import fused_multiply_add as fused

F32 = np.float32
# 1 + 2**-23 (an odd last bit) plus a product just under 2**-24: the float64 sum is a
# float32 tie that rounds up, the exact value rounds down
TIE_SELF, TIE_OTHER, TIE_ALPHA = 1 + 2.0 ** -23, 1 + 2.0 ** -18, 2.0 ** -24 * (1 - 2.0 ** -18)


def _exact(self, other, alpha) -> np.ndarray:
    """``self + alpha * other`` rounded once to float32 (ties to even), from fractions."""
    self, other = np.broadcast_arrays(np.asarray(self, F32), np.asarray(other, F32))
    result = np.empty(self.shape, F32)
    for index in np.ndindex(self.shape):
        value = Fraction(float(self[index])) + Fraction(float(F32(alpha))) * Fraction(
            float(other[index]))
        near = F32(float(value))
        candidates = (np.nextafter(near, F32(-np.inf)), near, np.nextafter(near, F32(np.inf)))
        result[index] = min(candidates, key=lambda c: (abs(Fraction(float(c)) - value),
                                                       int(c.view(np.uint32)) & 1))
    return result


def _inputs(shape, seed: int) -> tuple:
    """Random operands, every third element replaced by the tie above (scaled by a
    power of two, so ties appear at several exponents and in the subnormal range)."""
    rng = np.random.default_rng(seed)
    self = rng.standard_normal(shape).astype(F32)
    other = rng.standard_normal(shape).astype(F32)
    scale = np.ldexp(F32(1), rng.integers(-140, 20, shape)).astype(F32)
    self.reshape(-1)[::3] = (F32(TIE_SELF) * scale).reshape(-1)[::3]
    other.reshape(-1)[::3] = F32(TIE_OTHER)
    alpha_scaled = F32(TIE_ALPHA)
    return self, other, alpha_scaled, scale


@pytest.mark.parametrize("shape", [(37,), (5, 7)])
def test_the_detour_rounds_once_on_ties(shape):
    self, other, _, scale = _inputs(shape, 0)
    other = other * scale                          # the tie's product at self's exponent
    out = np.empty(shape, F32)
    fused.fma_float32(F32(TIE_ALPHA), other, self, out)
    np.testing.assert_array_equal(out.view(np.uint32),
                                  _exact(self, other, TIE_ALPHA).view(np.uint32))


def test_the_detour_mends_ties_in_the_subnormal_range():
    self = np.array([3 * 2.0 ** -149, 2.0 ** -149, -(2.0 ** -148), 2.0 ** -126], F32)
    other = np.array([1 + 2.0 ** -18] * 4, F32)
    alpha = 2.0 ** -150 * (1 - 2.0 ** -18)
    out = np.empty(4, F32)
    fused.fma_float32(F32(alpha), other, self, out)
    np.testing.assert_array_equal(out.view(np.uint32), _exact(self, other, alpha).view(np.uint32))


def test_many_ties_are_mended_without_gathers_alike():
    self = np.full(64, TIE_SELF, F32)
    other = np.full(64, TIE_OTHER, F32)
    out = np.empty(64, F32)
    fused.fma_float32(F32(TIE_ALPHA), other, self, out)
    assert np.all(out == F32(TIE_SELF))


@pytest.mark.parametrize("in_place", [True, False])
def test_add_alpha_in_place_and_not_rounds_once(in_place):
    self, other, _, scale = _inputs((4, 9), 1)
    other = other * scale
    a, b = gt.from_numpy(self.copy()), gt.from_numpy(other)
    result = a.add_(b, alpha=TIE_ALPHA) if in_place else gt.add(a, b, alpha=TIE_ALPHA)
    np.testing.assert_array_equal(result.numpy().view(np.uint32),
                                  _exact(self, other, TIE_ALPHA).view(np.uint32))


def test_blas_and_the_detour_agree_bit_for_bit():
    rng = np.random.default_rng(2)
    self = (rng.standard_normal(4099) * np.ldexp(1.0, rng.integers(-30, 30, 4099))).astype(F32)
    other = rng.standard_normal(4099).astype(F32)
    by_blas, by_detour = self.copy(), np.empty(4099, F32)
    done = fused.axpy(F32(-0.01), other, by_blas, by_blas)
    assert done == (fused._saxpy() is not None)
    fused.fma_float32(F32(-0.01), other, self, by_detour)
    if done:
        np.testing.assert_array_equal(by_blas.view(np.uint32), by_detour.view(np.uint32))


def test_alpha_zero_still_multiplies_infinity():
    a = gt.tensor([1.0, 2.0])
    a.add_(gt.tensor([float("inf"), 1.0]), alpha=0.0)
    assert np.isnan(a[0].item()) and a[1].item() == 2.0


def test_self_as_other_and_out_as_other():
    a = gt.tensor([1.0, 3.0])
    a.add_(a, alpha=0.5)
    assert a.tolist() == [1.5, 4.5]
    a, b = gt.tensor([1.0, 3.0]), gt.tensor([2.0, 4.0])
    gt.add(a, b, alpha=0.5, out=b)
    assert b.tolist() == [2.0, 5.0]
    c = gt.tensor([[1.0, 3.0]])
    result = gt.add(c, gt.tensor([[2.0, 4.0], [6.0, 8.0]]), alpha=0.5)   # broadcast self
    assert result.tolist() == [[2.0, 5.0], [4.0, 7.0]]


@pytest.mark.parametrize("in_place", [True, False])
def test_matches_torch_fused_kernels(in_place):
    torch = pytest.importorskip("torch")
    if torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"):
        pytest.skip("torch's kernels fuse the multiply-add on AVX2 / AVX-512 only")
    self, other, _, scale = _inputs((3, 41), 3)
    other = other * np.minimum(scale, F32(2.0 ** 10))
    results = []
    for library in (torch, gt):
        a, b = library.from_numpy(self.copy()), library.from_numpy(other)
        result = a.add_(b, alpha=TIE_ALPHA) if in_place else library.sub(a, b, alpha=-TIE_ALPHA)
        results.append(result.numpy().view(np.uint32))
    np.testing.assert_array_equal(results[1], results[0])


def test_blas_declines_overlapping_operands_and_reads_read_only_ones():
    if fused._saxpy() is None:
        pytest.skip("no fusing BLAS here")
    buffer = np.arange(8, dtype=F32)
    assert not fused.axpy(F32(2), buffer[:6], buffer[2:], buffer[2:])     # overlap: declined
    assert not fused.axpy(F32(2), buffer[2:], buffer[:6].copy(), buffer[2:])
    source = np.arange(4, dtype=F32)
    source.flags.writeable = False
    target = np.ones(4, F32)
    assert fused.axpy(F32(2), source, target, target)
    assert target.tolist() == [1.0, 3.0, 5.0, 7.0]
    out = np.empty(4, F32)
    assert fused.axpy(F32(2), source, np.full(4, 2, F32), out)
    assert out.tolist() == [2.0, 4.0, 6.0, 8.0]


def _few_bits(rng, n, bits, dtype):
    """Numbers of `bits` significant bits at spread exponents: their products and sums
    often land exactly halfway between two numbers of the dtype."""
    mantissa = rng.integers(1 << (bits - 1), 1 << bits, n) * rng.choice([-1, 1], n)
    return np.ldexp(mantissa.astype(np.float64), rng.integers(-bits - 30, -bits + 5, n)).astype(dtype)


_FUSED = {
    "add": lambda m, a, b, c, w: m.add(a, b, alpha=0.37),
    "lerp small weight": lambda m, a, b, c, w: m.lerp(a, b, 0.3),
    "lerp large weight": lambda m, a, b, c, w: m.lerp(a, b, 0.7),
    "lerp tensor weight": lambda m, a, b, c, w: m.lerp(a, b, w),
    "addcmul": lambda m, a, b, c, w: m.addcmul(a, b, c, value=0.37),
    "addcmul_": lambda m, a, b, c, w: a.clone().addcmul_(b, c),
}


@pytest.mark.parametrize("name", sorted(_FUSED))
def test_fused_float32_operators_match_torch(name):
    torch = pytest.importorskip("torch")
    if torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"):
        pytest.skip("torch's kernels fuse the multiply-add on AVX2 / AVX-512 only")
    rng = np.random.default_rng(5)
    operands = [_few_bits(rng, 4099, 12, F32) for _ in range(3)]
    operands.append(rng.random(4099).astype(F32))
    # addcmul_'s tie: self + tensor1 * tensor2 rounds down (twice rounded, it rounds up)
    for operand, tie in zip(operands, (TIE_SELF, TIE_OTHER, TIE_ALPHA)):
        operand[::7] = tie
    results = [_FUSED[name](m, *(m.from_numpy(v.copy()) for v in operands)).numpy()
               for m in (torch, gt)]
    np.testing.assert_array_equal(results[1], results[0])
