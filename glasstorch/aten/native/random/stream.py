"""Draws handed out one at a time, for samplers whose draw count depends on the draws.

ATen's rejection samplers (Poisson, gamma, binomial) take uniform doubles, and
normal doubles, one at a time while they run, element after element. Here the words
are drawn ahead in blocks, handed out in order, and the generator is then rewound and
moved forward by exactly the number consumed (`settle`), so that it ends where
torch's does.
"""
from __future__ import annotations

import math

from .bits import uniform_double


class UniformStream:
    """Uniform doubles handed out in order from blocks drawn ahead of time."""

    def __init__(self, generator, expected: int) -> None:
        self.generator = generator
        self.snapshot = generator.snapshot()
        self.block = max(expected, 64)
        self.values = uniform_double(generator, self.block).tolist()

    def more(self) -> list:
        self.values += uniform_double(self.generator, self.block).tolist()
        return self.values

    def settle(self, used: int) -> None:
        """Leave the generator as if exactly `used` uniforms had been drawn."""
        self.generator.restore(self.snapshot)
        self.generator.random(2 * used)


class ScalarDraws:
    """``uniform_real_distribution<double>(0, 1)`` and ``normal_distribution<double>(0, 1)``
    called one value at a time, as ATen's scalar samplers call them.

    A normal takes two uniforms u1, u2 and returns r cos(2 pi u1), r = sqrt(-2 log1p(-u2)),
    keeping r sin(2 pi u1) on the generator for the next normal (which draws nothing):
    the cache is read at the start and written back by `close`.
    """

    def __init__(self, generator, expected: int) -> None:
        self._stream = UniformStream(generator, expected)
        self._values = self._stream.values
        self._used = 0
        self._cached_normal = generator.next_double_normal_sample

    def uniform(self) -> float:
        if self._used == len(self._values):
            self._values = self._stream.more()
        self._used += 1
        return self._values[self._used - 1]

    def normal(self) -> float:
        if self._cached_normal is not None:
            value, self._cached_normal = self._cached_normal, None
            return value
        u1 = self.uniform()
        u2 = self.uniform()
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self._cached_normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def close(self) -> None:
        """Leave the generator where torch's stands after the same draws."""
        self._stream.settle(self._used)
        self._stream.generator.next_double_normal_sample = self._cached_normal
