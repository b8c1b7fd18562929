"""torch's CPU Poisson sampler (`sample_poisson` in ATen's Distributions.cpp).

Each element takes a data-dependent number of uniform doubles: a rate below 10
multiplies uniforms until the product falls to exp(-rate) (Knuth), a larger rate
runs Hoermann's transformed rejection with squeeze (PTRS), two uniforms per trial.
Element k's draws start where element k-1's stopped, so the elements are sampled one
after the other in Python, from a buffer of uniforms; the generator is then moved
forward by exactly the number of uniforms consumed.
"""
from __future__ import annotations

import math

import numpy as np

from .random_bits import uniform_double


class _Uniforms:
    """Uniform doubles handed out one by one from blocks drawn ahead of time."""

    def __init__(self, generator, expected: int) -> None:
        self.generator = generator
        self.snapshot = generator.snapshot()
        self.block = max(expected, 64)
        self.values = uniform_double(generator, self.block).tolist()
        self.used = 0

    def next(self) -> float:
        if self.used == len(self.values):
            self.values += uniform_double(self.generator, self.block).tolist()
        value = self.values[self.used]
        self.used += 1
        return value

    def settle(self) -> None:
        """Leave the generator as if exactly the used uniforms had been drawn."""
        self.generator.restore(self.snapshot)
        self.generator.random(2 * self.used)


def _small_rate(rate: float, uniforms: _Uniforms) -> int:
    limit = math.exp(-rate)
    count, product = 0, 1.0
    while True:
        product *= uniforms.next()
        if product > limit:
            count += 1
        else:
            return count


def _large_rate(rate: float, uniforms: _Uniforms) -> int:
    root, log_rate = math.sqrt(rate), math.log(rate)
    b = 0.931 + 2.53 * root
    a = -0.059 + 0.02483 * b
    inverse_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = uniforms.next() - 0.5
        v = uniforms.next()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (math.log(v) + math.log(inverse_alpha) - math.log(a / (us * us) + b)
                <= -rate + k * log_rate - math.lgamma(k + 1.0)):
            return k


def sample_poisson(generator, rates: np.ndarray) -> np.ndarray:
    """One Poisson draw per rate (rates >= 0, float64), in order, as float64 counts."""
    result = np.zeros(rates.shape, np.float64)
    expected = int(np.minimum(rates, 10.0).sum() + 2 * rates.size) + 1
    uniforms = _Uniforms(generator, expected)
    for i, rate in enumerate(rates.tolist()):
        if rate >= 10:
            result[i] = _large_rate(rate, uniforms)
        elif rate != 0:
            result[i] = _small_rate(rate, uniforms)
    uniforms.settle()
    return result
