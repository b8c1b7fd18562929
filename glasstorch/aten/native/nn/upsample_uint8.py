"""uint8 resampling in fixed point: the bilinear, bicubic and antialiased modes of
``upsample.py`` on uint8 images, with torch's integer arithmetic.

Note [uint8 resampling]
    uint8 images are resampled as Pillow resamples them, one dim at a time (the width
    first, then the height; a dim whose size does not change is skipped), each pass
    rounding back to uint8:
    - each output position reads a run of consecutive inputs, from ``start`` on, with
      float64 weights: the antialiasing filters' (Note [Upsampling source positions]),
      or, without antialiasing, the linear or Keys cubic (A = -0.75) kernel at the
      four (two) taps around the source position, the weights of taps that fall off an
      edge added into the edge's tap;
    - the weights become integers ``round(w * 2**p)`` (halves away from zero), with the
      precision ``p`` the largest below 22 at which twice the largest weight (or partial
      sum of weights) still rounds below 2**15, so each fits an int16;
    - a pass sums ``x * w`` in integers from ``2**(p - 1)`` (rounding to nearest), then
      shifts right by ``p`` and clamps to [0, 255].
    The arithmetic is exact, so the results are torch's bit for bit.
"""
from __future__ import annotations

import math

import numpy as np

_TAPS = {"linear": 2, "cubic": 4, "lanczos": 6}
_PRECISION_LIMIT = 22


def _keys_cubic(x: float, a: float) -> float:
    """Keys' cubic convolution kernel at ``|x|``, in the order torch evaluates it."""
    if x < 1.0:
        return ((a + 2) * x - (a + 3)) * x * x + 1
    if x < 2.0:
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return 0.0


def _sinc(x: float) -> float:
    if x == 0.0:
        return 1.0
    x *= math.pi
    return math.sin(x) / x


def _filter(kind: str, antialias: bool):
    """The kernel of mode `kind`: antialiasing uses Keys' A = -0.5, plain cubic -0.75."""
    if kind == "linear":
        return lambda x: max(1.0 - abs(x), 0.0)
    if kind == "lanczos":
        return lambda x: _sinc(abs(x)) * _sinc(abs(x) / 3.0) if abs(x) < 3.0 else 0.0
    a = -0.5 if antialias else -0.75
    return lambda x: _keys_cubic(abs(x), a)


def _antialias_row(i: int, in_size: int, scale: float, taps: int, kernel) -> tuple:
    """The first input, the count and the normalised weights of output `i` (antialiased)."""
    support = taps * 0.5 * scale if scale >= 1.0 else taps * 0.5
    width = math.ceil(support) * 2 + 1
    center = scale * (i + 0.5)
    stretch = 1.0 / scale if scale >= 1.0 else 1.0
    start = max(int(center - support + 0.5), 0)
    count = min(max(min(int(center + support + 0.5), in_size) - start, 0), width)
    weights = [kernel((j + start - center + 0.5) * stretch) for j in range(count)]
    total = 0.0
    for weight in weights:          # in order, uncompensated: torch's rounding
        total += weight
    if total == 0.0:
        return start, weights + [0.0] * (width - count), 0.0
    weights = [weight / total for weight in weights]
    return start, weights + [0.0] * (width - count), max(weights)


def _plain_row(i: int, in_size: int, scale: float, align_corners: bool, taps: int,
               kernel, sources) -> tuple:
    """The first input, the weights and the largest running weight of output `i` without
    antialiasing: the taps around the source position, those off an edge folded into
    the edge's tap."""
    source = sources[i]
    index = min(math.floor(np.float32(source)), in_size - 1)
    fraction = min(max(source - index, 0.0), 1.0)
    half = taps // 2
    lowest = index - half + 1
    start = max(lowest, 0)
    count = min(max(min(index + half + 1, in_size) - start, 0), taps)
    weights, largest, slot = [0.0] * taps, 0.0, 0
    for j in range(taps):
        if lowest + j <= 0:
            slot = 0
        elif lowest + j >= in_size - 1:
            slot = count - 1
        weights[slot] += kernel(float(j + 1 - half) - fraction)
        largest = max(largest, weights[slot])
        slot += 1
    return start, weights, largest


def _precision(largest: float) -> int:
    """The most fractional bits that keep twice the largest weight inside an int16."""
    for bits in range(_PRECISION_LIMIT):
        if int(0.5 + largest * (1 << (bits + 1))) >= 1 << 15:
            return bits
    return _PRECISION_LIMIT


def _fixed_point(weights: np.ndarray, bits: int) -> np.ndarray:
    """``round(w * 2**bits)``, halves away from zero, as integers."""
    scaled = weights * float(1 << bits)
    return np.trunc(scaled + np.where(scaled < 0, -0.5, 0.5)).astype(np.int64)


def pass_weights(in_size: int, out_size: int, scale: float, kind: str, antialias: bool,
                 align_corners: bool, sources) -> tuple:
    """One dim's fixed-point weights: (starts, integer weights [out, taps], precision).
    `sources` are the float64 source positions (used without antialiasing)."""
    kernel, taps = _filter(kind, antialias), _TAPS[kind]
    rows = [_antialias_row(i, in_size, scale, taps, kernel) if antialias
            else _plain_row(i, in_size, scale, align_corners, taps, kernel, sources)
            for i in range(out_size)]
    starts = np.array([row[0] for row in rows], dtype=np.int64)
    weights = np.array([row[1] for row in rows], dtype=np.float64)
    bits = _precision(max(row[2] for row in rows))
    return starts, _fixed_point(weights, bits), bits


def resample_pass(image: np.ndarray, axis: int, starts, weights, bits: int) -> np.ndarray:
    """Resample `image` (uint8) along `axis` with fixed-point weights, rounding to uint8."""
    in_size = image.shape[axis]
    total = np.full(image.shape[:axis] + (len(starts),) + image.shape[axis + 1:],
                    1 << (bits - 1), dtype=np.int64)
    trailing = (1,) * (image.ndim - 1 - axis)
    for j in range(weights.shape[1]):
        taken = np.take(image, np.minimum(starts + j, in_size - 1), axis=axis)
        total += taken.astype(np.int64) * weights[:, j].reshape((-1,) + trailing)
    return np.clip(total >> bits, 0, 255).astype(np.uint8)
