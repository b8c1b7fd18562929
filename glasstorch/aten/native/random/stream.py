"""Draws handed out one at a time, for samplers whose draw count depends on the draws.

ATen's rejection samplers (Poisson, gamma, binomial) take uniform doubles, and
normal doubles, one at a time while they run, element after element. Here the words
are drawn ahead in blocks, handed out in order, and the generator is then rewound and
moved forward by exactly the number consumed (`settle`), so that it ends where
torch's does.

Note [Samplers in speculative runs]
    A rejection sampler's element takes trials until one is accepted. Where every
    trial draws alike whichever element it serves (a fixed number of uniforms, tested
    against the same constants: a Gamma of one alpha, a Binomial of one count and
    probability), trial t's draws lie at a position that follows from t alone. Then
    every trial is computed at once from the uniforms by position
    (`ScalarDraws.ahead`), and the accepted trials, in order, are the elements' draws;
    the generator moves past the last one used (`ScalarDraws.move_to`). A trial that
    leaves the common path ends the run: its element is sampled alone, and a new run
    starts after it. The draws are the serial sampler's, bit for bit.
"""
from __future__ import annotations

import math

import numpy as np

from .bits import uniform_double


class UniformStream:
    """Uniform doubles handed out in order from blocks drawn ahead of time: `values`, a
    list (read one at a time), or an array when ``listed=False`` (read by position)."""

    def __init__(self, generator, expected: int, listed: bool = True) -> None:
        self.generator = generator
        self.snapshot = generator.snapshot()
        self.block = max(expected, 64)
        self.listed = listed
        values = uniform_double(generator, self.block)
        self.values = values.tolist() if listed else values

    def more(self):
        values = uniform_double(self.generator, self.block)
        if self.listed:
            self.values += values.tolist()
        else:
            self.values = np.concatenate((self.values, values))
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

    def __init__(self, generator, expected: int, listed: bool = True) -> None:
        self._stream = UniformStream(generator, expected, listed)
        self._values = self._stream.values
        self._used = 0
        self._cached_normal = generator.next_double_normal_sample

    @property
    def state(self) -> tuple:
        """``(uniforms used, cached normal or None)``: where the next draw starts."""
        return self._used, self._cached_normal

    def move_to(self, used: int, cached_normal) -> None:
        """Continue from a `state` found without drawing one value at a time."""
        self._used, self._cached_normal = used, cached_normal

    def ahead(self, count: int) -> np.ndarray:
        """Every uniform drawn so far as an array, at least `count` past those used:
        the vectorized samplers read their draws by position (``listed=False``)."""
        while len(self._values) < self._used + count:
            self._values = self._stream.more()
        return self._values

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
        cached = self._cached_normal
        self._stream.generator.next_double_normal_sample = \
            None if cached is None else float(cached)

