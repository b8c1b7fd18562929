"""normal_ on contiguous tensors of 16 or more elements: Box-Muller over blocks of 16.

ATen fills such a tensor with uniform draws first, then turns each block of 16 into
normals: the first 8 give the radii (from 1 - u), the last 8 the angles. A size that
is not a multiple of 16 gets 16 fresh uniforms for its last 16 elements, which are
recomputed (overwriting the tail of the previous block). Smaller or non-contiguous
tensors take the one-at-a-time path instead (`bits.normal_scalar_path`).

float32 blocks go through torch's AVX2 kernel on every x86 CPU with AVX2 and FMA
(AVX-512 ones included): 8-lane vector code, Cephes polynomials for log and for
sine/cosine (Julien Pommier's `avx_mathfun`), compiled with FMA contraction (Note
[Fused multiply-add] in bits.py). The functions below follow those polynomials
operation by operation in float32 so the results are bitwise torch's. float16 and
bfloat16 are computed by the same float32 blocks and rounded; float64 uses the C
library's log/cos/sin (Note [The C library's bits]).
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ... import libm
from ...parallel import parallel_for
from .bits import _fma32, fma, unit_uniform

F32 = np.float32
_LOG_POLY = tuple(F32(c) for c in (
    7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
    -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1))
_LOG_Q1, _LOG_Q2 = F32(-2.12194440e-4), F32(0.693359375)    # log(2) split in two parts
_SQRT_HALF = F32(0.707106781186547524)
_SMALLEST_NORMAL = np.array(0x00800000, np.int32).view(F32)
_PI_PARTS = tuple(F32(c) for c in (-0.78515625, -2.4187564849853515625e-4,
                                   -3.77489497744594108e-8))    # -pi/4 in three parts
_SIN_POLY = tuple(F32(c) for c in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1))
_COS_POLY = tuple(F32(c) for c in (2.443315711809948e-5, -1.388731625493765e-3,
                                   4.166664568298827e-2))
_FOUR_OVER_PI = F32(1.27323954473516)
_TWO_PI = F32(2.0 * np.pi)
_SIGN = np.int32(-2 ** 31)


def _cephes_log(x: np.ndarray) -> np.ndarray:
    """Natural log of positive float32s, as avx_mathfun's log256_ps (with FMA)."""
    invalid = x <= 0
    bits = np.maximum(x, _SMALLEST_NORMAL).view(np.int32)
    exponent = (bits >> 23) - 0x7F
    # The mantissa scaled into [0.5, 1); below sqrt(1/2) it is doubled, the exponent lowered.
    x = ((bits & ~0x7F800000) | np.array(0.5, F32).view(np.int32)).view(F32)
    low = x < _SQRT_HALF
    e = exponent.astype(F32) + F32(1) - np.where(low, F32(1), F32(0))
    x = (x - F32(1)) + np.where(low, x, F32(0))
    z = x * x
    x64, z64 = x.astype(np.float64), z.astype(np.float64)     # converted once, used often
    y = np.full_like(x, _LOG_POLY[0])
    for coefficient in _LOG_POLY[1:]:
        y = _fma32(y, x64, coefficient)
    y = _fma32(y * x, z64, e * _LOG_Q1)
    y = _fma32(-z, F32(0.5), y)
    result = _fma32(e, _LOG_Q2, x + y)
    return np.where(invalid, F32(np.nan), result)


def _cephes_sincos(x: np.ndarray) -> tuple:
    """(sin, cos) of float32s, as avx_mathfun's sincos256_ps (with FMA)."""
    sign_sin = x.view(np.int32) & _SIGN
    x = np.abs(x)
    octant = ((x * _FOUR_OVER_PI).astype(np.int32) + 1) & ~1     # truncation, then even
    y = octant.astype(F32)
    sign_sin = sign_sin ^ ((octant & 4) << 29)
    sign_cos = (~(octant - 2) & 4) << 29
    use_sine_poly = (octant & 2) == 0
    for part in _PI_PARTS:                   # x - y * pi/4, in extended precision
        x = _fma32(y, part, x)
    z = x * x
    z64 = z.astype(np.float64)
    cos_poly = _fma32(_fma32(np.full_like(z, _COS_POLY[0]), z64, _COS_POLY[1]), z64,
                      _COS_POLY[2])
    cos_poly = _fma32(cos_poly * z, z64, -(z * F32(0.5))) + F32(1)
    sin_poly = _fma32(_fma32(np.full_like(z, _SIN_POLY[0]), z64, _SIN_POLY[1]), z64,
                      _SIN_POLY[2])
    sin_poly = _fma32(sin_poly * z, x, x)
    sine = np.where(use_sine_poly, sin_poly, cos_poly)
    cosine = np.where(use_sine_poly, cos_poly, sin_poly)
    return ((sine.view(np.int32) ^ sign_sin).view(F32),
            (cosine.view(np.int32) ^ sign_cos).view(F32))


def _blocks_avx2(uniforms: np.ndarray, mean: float, std: float) -> np.ndarray:
    """Blocks of 16 float32 uniforms -> normals, as normal_fill_16_AVX2, computed a
    cache-sized slab of blocks at a time, the slabs shared over the thread pool."""
    blocks = uniforms.reshape(-1, 16)
    out = np.empty_like(blocks)

    def body(start: int, stop: int) -> None:
        for first in range(start, stop, _SLAB):
            _fill_blocks(blocks[first:min(first + _SLAB, stop)],
                         out[first:min(first + _SLAB, stop)], mean, std)
    parallel_for(0, len(blocks), _SLAB, body)
    return out.reshape(-1)


_SLAB = 2048            # blocks per step: 16K lanes, whose float64 temporaries stay in L2


def _fill_blocks(blocks: np.ndarray, out: np.ndarray, mean: float, std: float) -> None:
    radius = np.sqrt(F32(-2) * _cephes_log(F32(1) - blocks[:, :8]))
    sine, cosine = _cephes_sincos(_TWO_PI * blocks[:, 8:])
    out[:, :8] = fma(radius * cosine, F32(std), F32(mean), dtypes.float32)
    out[:, 8:] = fma(radius * sine, F32(std), F32(mean), dtypes.float32)


def _blocks_libm(uniforms: np.ndarray, mean: float, std: float) -> np.ndarray:
    """Blocks of 16 double uniforms -> normals with the C library's functions, as the
    scalar normal_fill_16: the angle is (2 pi) * u2, the last step
    ``r cos(theta) * std + mean`` fused."""
    blocks = uniforms.reshape(-1, 16)
    radius = np.sqrt(-2 * libm.log(1 - blocks[:, :8]))
    theta = 2.0 * np.pi * blocks[:, 8:]
    out = np.empty(blocks.shape, np.float64)
    out[:, :8] = fma(radius * libm.cos(theta), std, mean, dtypes.float64)
    out[:, 8:] = fma(radius * libm.sin(theta), std, mean, dtypes.float64)
    return out.reshape(-1)


def normal_fill(generator, n: int, mean: float, std: float, dtype) -> np.ndarray:
    """`n` >= 16 normals for a contiguous tensor of `dtype` (see the module docstring).

    float32 and float64 draw all n uniforms first (the tail's leftovers are drawn and
    then overwritten); float16 and bfloat16 are computed in float32 by the AVX2 blocks
    and draw 16 uniforms per block only, so they take n rounded up to 16 words.
    """
    whole = n - n % 16
    if dtype in (dtypes.float16, dtypes.bfloat16):
        uniforms = unit_uniform(generator, whole, dtypes.float32)
    else:
        uniforms = unit_uniform(generator, n, dtype)
    avx2 = dtype is not dtypes.float64
    result = np.empty(n, np.float32 if avx2 else np.float64)

    def blocks(u):
        return _blocks_avx2(u, mean, std) if avx2 else _blocks_libm(u, mean, std)
    result[:whole] = blocks(uniforms[:whole])
    if n % 16:
        result[n - 16:] = blocks(unit_uniform(generator, 16, dtypes.float32 if avx2 else dtype))
    return result
