"""From raw mt19937 words to numbers: ATen's CPU transformations, vectorized.

ATen's CPU samplers draw one element at a time, in the order a TensorIterator
visits the result (memory order, see `fill_in_memory_order`), each element taking a
fixed number of words from the generator. Drawing all the words at once and
transforming them with NumPy gives the same numbers, provided every arithmetic step
rounds where ATen's does. The rules, per transformation (ATen's
`core/TransformationHelper.h` and `core/DistributionsHelper.h`):

* uniform real: the low 24 bits of one 32-bit word (float, and half and bfloat16,
  which are drawn as floats) or the low 53 of one 64-bit draw (double), times
  2**-bits, then ``x * (to - from) + from`` fused; a value rounding up to `to` in the
  result's dtype becomes `from`.
* uniform int in [base, base + range): ``word % range + base``; the word is 64-bit
  when range >= 2**28, else 32-bit.
* normal (one at a time): Box-Muller on two uniform doubles, the sine kept for the
  next call (`next_double_normal_sample`); see `normal_scalar_path`.
* exponential, cauchy, geometric, log-normal: one uniform double each, through
  the C library's log1p / log / tan / exp.

ATen calls those double-precision functions one element at a time; `libm` gives
their bits on any CPU (Note [The C library's bits]).

Note [Fused multiply-add]
    torch's AVX2 kernels are compiled with FMA enabled and GCC's default contraction,
    so ``a * b + c`` in its C++ becomes one fused operation, rounded once. Where that
    changes results (a scale and shift by arbitrary numbers), `fma` reproduces it:
    exact for float32 operands (their product fits a double; the one double-rounding
    case is corrected) and for float64 (an error-free product and sums, the tails
    rounded to odd before the final rounding: Boldo and Melquiond's emulation).
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ... import libm

TWO_PI = 2.0 * np.pi
# numeric_limits<T>::digits: a unit uniform's random bits (float32 and float64), and
# the integers a floating dtype holds exactly (random_'s ranges)
MANTISSA_DIGITS = {dtypes.float16: 11, dtypes.bfloat16: 8, dtypes.float32: 24,
                   dtypes.float64: 53}


# ----------------------------------------------------------------------------------
# Fused multiply-add (Note [Fused multiply-add])
# ----------------------------------------------------------------------------------
_BEYOND_FLOAT = np.uint64((1 << 29) - 1)      # the 29 mantissa bits a double has beyond a float's
_HALFWAY = np.uint64(1 << 28)


def _fma32(a, b, c) -> np.ndarray:
    """Round a*b + c once to float32 (a an array; b, c arrays or scalars of float32).

    The product of two floats is exact in double, so the double sum is rounded once;
    rounding it again to float32 is then right unless it landed exactly halfway
    between two floats (its 29 extra bits are 100...0). Those rare elements are
    recomputed exactly, from the part of the sum the double lost.
    """
    total = np.multiply(a, b, dtype=np.float64)
    total += c
    rounded = total.astype(np.float32)
    bits = total.view(np.uint64)                    # total is not needed any more
    np.bitwise_and(bits, _BEYOND_FLOAT, out=bits)
    halfway = bits == _HALFWAY
    if halfway.any():
        at = np.nonzero(halfway)
        parts = [np.broadcast_to(np.asarray(v, np.float32), total.shape)[at] for v in (a, b, c)]
        rounded[at] = _fma32_exact(*parts)
    return rounded


def _fma32_exact(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a*b + c rounded once to float32, whatever the double sum's rounding did."""
    product = a.astype(np.float64) * b.astype(np.float64)
    c64 = c.astype(np.float64)
    total = product + c64
    lost = _two_sum_error(product, c64, total)
    rounded = total.astype(np.float32)
    gap = total - rounded.astype(np.float64)
    neighbour = np.nextafter(rounded, np.where(gap > 0, np.float32(np.inf), np.float32(-np.inf)))
    halfway = (gap != 0) & (neighbour.astype(np.float64) - total == -gap)
    nudge = halfway & (lost != 0) & ((lost > 0) == (gap > 0))
    return np.where(nudge, neighbour, rounded)


def _two_sum_error(a: np.ndarray, b: np.ndarray, total: np.ndarray) -> np.ndarray:
    """The exact rounding error of ``total = a + b`` (Knuth's TwoSum)."""
    b_part = total - a
    return (a - (total - b_part)) + (b - b_part)


def _split(a: np.ndarray) -> tuple:
    """Veltkamp's split of doubles into two halves of 26 bits each."""
    scaled = a * 134217729.0            # 2**27 + 1
    high = scaled - (scaled - a)
    return high, a - high


def _fma64(a, b, c) -> np.ndarray:
    """a*b + c rounded once, by Boldo and Melquiond's emulation: the exact product
    (Dekker) and two TwoSums split the value into a head and two tails, whose sum is
    rounded to odd before the last, nearest, rounding. A tail added with a plain
    rounding could land exactly halfway and round the wrong way: ``(1 + 2**-30) *
    (1 - 2**-30) + (2**53 + 2)`` is 2**53 + 2, not 2**53 + 4."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    product = a * b
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    product_error = ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    middle = c + product_error
    middle_error = _two_sum_error(c, product_error, middle)
    head = product + middle
    head_error = _two_sum_error(product, middle, head)
    result = head + _sum_rounded_to_odd(middle_error, head_error)
    plain = product + c
    return np.where(np.isfinite(plain), result, plain)       # infinities, NaN: as they are


def _sum_rounded_to_odd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x + y rounded to odd: when inexact, the neighbour whose last bit is 1."""
    total = x + y
    error = _two_sum_error(x, y, total)
    even = (total.view(np.int64) & 1) == 0
    toward = np.where(error > 0, np.inf, -np.inf)
    return np.where((error != 0) & even, np.nextafter(total, toward), total)


def fma(a, b, c, dtype) -> np.ndarray:
    """``a * b + c`` rounded once to `dtype` (float32 or float64), as FMA does."""
    if np.ndim(b) == 0 and np.ndim(c) == 0 and b == 1 and c == 0:
        return np.asarray(a, dtype._np) + dtype._np.type(0)    # a * 1 + 0 (-0 becomes +0)
    return _fma32(a, b, c) if dtype is dtypes.float32 else _fma64(a, b, c)


# ----------------------------------------------------------------------------------
# Uniform reals and integers
# ----------------------------------------------------------------------------------
def accumulate_type(dtype):
    """ATen's `dist_acctype`: float for float/half/bfloat16, double for double."""
    return dtypes.float64 if dtype is dtypes.float64 else dtypes.float32


def unit_uniform(generator, n: int, dtype) -> np.ndarray:
    """`n` draws of ``uniform_real_distribution<dtype>(0, 1)``, in the accumulate type."""
    # In place where possible: every fresh array of a million elements costs page faults.
    digits = MANTISSA_DIGITS[dtype]
    if dtype is dtypes.float64:
        words = generator.random64(n)
        np.bitwise_and(words, np.uint64((1 << 53) - 1), out=words)
        result = words.view(np.int64).astype(np.float64)
        result *= 2.0 ** -53
        return result
    words = generator.random(n)
    np.bitwise_and(words, np.uint32((1 << digits) - 1), out=words)
    result = words.view(np.int32).astype(np.float32)
    result *= np.float32(2.0 ** -digits)
    return result


def uniform_real(generator, n: int, dtype, low: float, high: float) -> np.ndarray:
    """`n` draws from [low, high) as torch's uniform_ makes them, as an array of `dtype`.

    The draw is computed in the accumulate type (float for half and bfloat16, whose
    draws thus have 24 random bits too) with the bounds in that type, as one fused
    ``x * (high - low) + low``, then rounded to `dtype`; a value that rounds up to
    `high` becomes `low`, so the interval stays half-open.
    """
    acc = accumulate_type(dtype)._np.type
    low_acc, high_acc = acc(low), acc(high)
    x = unit_uniform(generator, n, accumulate_type(dtype))
    if not (low_acc == 0 and high_acc == 1):
        x = fma(x, acc(high_acc - low_acc), low_acc, accumulate_type(dtype))
    elif dtype is accumulate_type(dtype):
        return x                                    # below 1 already: nothing rounds up
    values = x.astype(dtype._np, copy=False)
    top = values == dtype._np.type(high)
    if top.any():
        values[top] = dtype._np.type(low)
    return values


def uniform_double_below(generator, n: int, p: float) -> np.ndarray:
    """Whether each of `n` uniform doubles (as `uniform_double` draws them) is below `p`,
    as bools. A draw is ``m * 2**-53`` for the low 53 bits `m` of a 64-bit word, so it
    is below `p` exactly when ``m < ceil(p * 2**53)``: one integer comparison, no
    conversion to double."""
    words = generator.random64(n)
    np.bitwise_and(words, np.uint64((1 << 53) - 1), out=words)
    return words < np.uint64(math.ceil(p * 2.0 ** 53))


def uniform_double(generator, n: int) -> np.ndarray:
    """`n` uniform doubles in [0, 1): what every double-based sampler starts from."""
    return unit_uniform(generator, n, dtypes.float64)


# From this range on, torch 2.13 draws 64 bits per integer (whatever the dtype), so that
# the modulo's bias stays negligible; below it, one 32-bit word.
_WIDE_RANGE = 1 << 28


def uniform_int_from_to(generator, n: int, range_: int, base: int) -> np.ndarray:
    """`n` integers ``word % range + base`` as int64 (ATen's uniform_int_from_to)."""
    if range_ >= _WIDE_RANGE:
        offsets = generator.random64(n) % np.uint64(range_)
    else:
        words = generator.random(n)
        if range_ < (1 << 32):                      # else word % range is the word
            np.remainder(words, np.uint32(range_), out=words)
        offsets = words.astype(np.uint64)
    offsets += np.uint64(base & 0xFFFFFFFFFFFFFFFF)   # wraps around as C's unsigned sum
    return offsets.view(np.int64)


def uniform_int_full_range(generator, n: int) -> np.ndarray:
    """`n` 64-bit draws read as int64: random_ over all of int64."""
    return generator.random64(n).view(np.int64)


def uniform_int(generator, n: int, dtype) -> np.ndarray:
    """`n` draws of plain ``random_()``: [0, max] for integers, [0, 2**digits] for floats."""
    wide = dtype in (dtypes.float64, dtypes.int64)
    words = generator.random64(n) if wide else generator.random(n)
    if dtype is dtypes.bool:
        return (words & np.uint64(1)).astype(np.int64)
    if dtype.is_floating_point:
        modulus = (1 << MANTISSA_DIGITS[dtype]) + 1
    else:
        modulus = int(np.iinfo(dtype._np).max) + 1
    return (words % np.uint64(modulus)).astype(np.int64)


# ----------------------------------------------------------------------------------
# Normal, one element at a time (with the cached second sample)
# ----------------------------------------------------------------------------------
def normal_scalar_path(generator, n: int, mean: float, std: float) -> np.ndarray:
    """`n` draws of ``normal_distribution<double>(mean, std)``, as doubles.

    Each fresh pair takes two uniform doubles u1, u2: r = sqrt(-2 log1p(-u2)),
    theta = 2 pi u1; r cos(theta) is returned and r sin(theta) cached on the
    generator for the next call, which uses it without drawing.
    """
    standard = np.empty(n, np.float64)
    start = 0
    cached = generator.next_double_normal_sample
    if n and cached is not None:
        standard[0] = cached
        generator.next_double_normal_sample = None
        start = 1
    pairs = (n - start + 1) // 2
    if pairs:
        u = uniform_double(generator, 2 * pairs)
        radius = np.sqrt(-2.0 * libm.log1p(-u[1::2]))
        theta = TWO_PI * u[0::2]
        both = np.empty(2 * pairs, np.float64)
        both[0::2] = radius * libm.cos(theta)
        both[1::2] = radius * libm.sin(theta)
        standard[start:] = both[:n - start]
        if (n - start) % 2:
            generator.next_double_normal_sample = float(both[-1])
    return fma(standard, std, mean, dtypes.float64)


# ----------------------------------------------------------------------------------
# Other distributions from one uniform double each
# ----------------------------------------------------------------------------------
def exponential(generator, n: int, lambd: float) -> np.ndarray:
    """-1/lambda * log1p(-u), as ATen's CPU exponential transformation."""
    u = uniform_double(generator, n)
    return (-1.0 / lambd) * libm.log1p(-u)


def cauchy(generator, n: int, median: float, sigma: float) -> np.ndarray:
    """median + sigma * tan(pi * (u - 0.5)), the last step fused."""
    u = uniform_double(generator, n)
    return fma(libm.tan(np.pi * (u - 0.5)), sigma, median, dtypes.float64)


def geometric(generator, n: int, p: float) -> np.ndarray:
    """ceil(log(u) / log(1 - p)): the number of trials up to the first success."""
    u = uniform_double(generator, n)
    with np.errstate(divide="ignore"):
        return np.ceil(libm.log(u) / math.log(1.0 - p))


def log_normal(generator, n: int, mean: float, std: float) -> np.ndarray:
    """exp of a normal(mean, std) draw (the scalar normal path, cache included)."""
    return libm.exp(normal_scalar_path(generator, n, mean, std))


# ----------------------------------------------------------------------------------
# Where the draws land
# ----------------------------------------------------------------------------------
def memory_order_with_axes(out: np.ndarray) -> tuple:
    """(view, axes): a view of `out` whose C order is `out`'s memory order, and the
    axes permutation that made it.

    ATen fills a result through a TensorIterator, which visits dims by increasing
    stride: a transposed tensor gets its draws in memory order, not index order.
    """
    axes = sorted(range(out.ndim), key=lambda d: (out.shape[d] != 1, out.strides[d]),
                  reverse=True)
    return out.transpose(axes), axes


def fill_in_memory_order(out: np.ndarray, values: np.ndarray) -> None:
    """Write `values` (one per element, in draw order) into `out` in memory order."""
    view = out.reshape(-1) if out.flags.c_contiguous else memory_order_with_axes(out)[0]
    with np.errstate(over="ignore", invalid="ignore"):     # out of range: inf, as C's cast
        view[...] = narrowed(values, out.dtype).reshape(view.shape)


def narrowed(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`values` ready to be stored as `dtype`. c10's Half and BFloat16 are built from a
    float, so a double or an integer reaches them rounded twice, through float32."""
    if dtype.itemsize == 2 and dtype.kind != "i" and dtype.kind != "u" \
            and values.dtype != np.float32 and values.dtype.kind in "fiu":
        with np.errstate(over="ignore"):
            return values.astype(np.float32)
    return values
