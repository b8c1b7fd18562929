"""torch's CPU Poisson sampler (`sample_poisson` in ATen's Distributions.cpp).

Each element takes a data-dependent number of uniform doubles: a rate below 10
multiplies uniforms until the product falls to exp(-rate) (Knuth), a larger rate
runs Hoermann's transformed rejection with squeeze (PTRS), two uniforms per trial.
Element k's draws start where element k-1's stopped, so the elements are sampled one
after the other, in Python, from blocks of uniforms drawn ahead; the generator is
then rewound and moved forward by exactly the number of uniforms consumed. (A loop
over elements, against the house rule, because the draw count of each element
depends on the draws of all before it.)
"""
from __future__ import annotations

import math

import numpy as np

from .stream import UniformStream


def _ptrs_constants(rate: float) -> tuple:
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    return a, b, 1.1239 + 1.1328 / (b - 3.4), 0.9277 - 3.6224 / (b - 2), math.log(rate)


def _large_rate(rate: float, stream: UniformStream, used: int) -> tuple:
    """One PTRS draw: (count, uniforms used so far)."""
    a, b, inverse_alpha, v_r, log_rate = _ptrs_constants(rate)
    values = stream.values
    while True:
        if used + 2 > len(values):
            values = stream.more()
        u, v = values[used] - 0.5, values[used + 1]
        used += 2
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if us >= 0.07 and v <= v_r:
            return k, used
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (math.log(v) + math.log(inverse_alpha) - math.log(a / (us * us) + b)
                <= -rate + k * log_rate - math.lgamma(k + 1.0)):
            return k, used


def sample_poisson(generator, rates: np.ndarray) -> np.ndarray:
    """One Poisson draw per rate (rates >= 0, float64), in order, as float64 counts."""
    counts = []
    stream = UniformStream(generator, int(np.minimum(rates, 10.0).sum() + 2 * rates.size) + 1)
    values, used = stream.values, 0
    for rate in rates.tolist():
        if rate >= 10:
            count, used = _large_rate(rate, stream, used)
            values = stream.values
        elif rate == 0:
            count = 0
        else:                                        # Knuth: multiply until <= exp(-rate)
            limit, product, count = math.exp(-rate), 1.0, -1
            while product > limit:
                if used == len(values):
                    values = stream.more()
                product *= values[used]
                used += 1
                count += 1
        counts.append(count)
    stream.settle(used)
    return np.array(counts, dtype=np.float64)
