"""torch.quasirandom: SobolEngine, a low-discrepancy sequence of points in [0, 1)^d.

Point i of a Sobol sequence is the XOR of direction numbers chosen by the bits of i (in
Gray-code order: each new point XORs one direction number into the last, the one indexed
by the lowest zero bit of the count so far). Each dimension's direction numbers come from
a primitive polynomial and a few initial numbers (Joe and Kuo's, as torch's; read from
``sobol_directions.txt``) by a recurrence. Scrambling (Owen's linear matrix scrambling
with a random digital shift) multiplies each direction number by a random lower
triangular bit matrix and starts from a random point, drawn with torch's generator calls
so that a seed gives torch's points.
"""
from __future__ import annotations

import functools
import pathlib
from typing import Optional

import numpy as np

from .c10.promotion import get_default_dtype
from ._tensor_new import tensor as _tensor

MAXBIT = 30
_FILE = pathlib.Path(__file__).with_name("sobol_directions.txt")


@functools.lru_cache(None)
def _initial_numbers() -> tuple:
    """(polynomial, initial direction numbers) of each dimension after the first."""
    rows = [line.split() for line in _FILE.read_text(encoding="utf-8").splitlines()
            if not line.startswith("#")]
    return tuple((int(row[0]), [int(n) for n in row[1:]]) for row in rows)


def _direction_numbers(poly: int, initial: list) -> list:
    """m_1 .. m_MAXBIT of one dimension: m_j = m_{j-s} XOR the (a_k 2^k m_{j-k}) the
    polynomial's coefficients select (k = 1 .. s, a_s = 1)."""
    s = poly.bit_length() - 1
    m = list(initial)
    for j in range(s, MAXBIT):
        value = m[j - s]
        for k in range(1, s + 1):
            if (poly >> (s - k)) & 1:
                value ^= m[j - k] << k
        m.append(value)
    return m


def _initial_state(dimension: int) -> np.ndarray:
    """The direction numbers as (dimension, MAXBIT) integers, v_j = m_j << (MAXBIT-1-j)."""
    table = _initial_numbers()
    if dimension - 1 > len(table):
        raise NotImplementedError(
            f"glasstorch does not implement torch.quasirandom.SobolEngine for more than "
            f"{len(table) + 1} dimensions yet (its direction numbers stop there)")
    rows = [[1] * MAXBIT] + [_direction_numbers(*table[d]) for d in range(dimension - 1)]
    shifts = np.arange(MAXBIT - 1, -1, -1, dtype=np.int64)
    return np.asarray(rows, dtype=np.int64) << shifts


def _lowest_zero_bits(start: int, n: int) -> np.ndarray:
    """For counts start .. start+n-1, the index of each one's lowest zero bit."""
    counts = np.arange(start, start + n, dtype=np.int64)
    lowest = ~counts & (counts + 1)                 # the lowest zero bit, as a power of 2
    return np.log2(lowest).astype(np.int64)


def _scramble_state(state: np.ndarray, ltm: np.ndarray) -> np.ndarray:
    """Multiply each direction number (a column of bits, most significant first) by its
    dimension's lower triangular bit matrix, the diagonal forced to ones."""
    ltm = ltm.copy()
    ltm[:, np.arange(MAXBIT), np.arange(MAXBIT)] = 1
    bit_of = np.int64(1) << np.arange(MAXBIT - 1, -1, -1, dtype=np.int64)
    rows = (ltm * bit_of).sum(-1)                   # row p as an integer, column 0 on top
    bits = (state[:, :, None] >> np.arange(MAXBIT)) & 1          # (d, j, bit k)
    row_bits = (rows[:, :, None] >> np.arange(MAXBIT)) & 1       # (d, p, bit k)
    parity = np.einsum("djk,dpk->djp", bits, row_bits) % 2
    return (parity * bit_of[None, None, :]).sum(-1)


class SobolEngine:
    """A generator of Sobol sequences, optionally scrambled.

    Args:
        dimension: the points' dimension.
        scramble: scramble the sequence (randomized quasi-Monte Carlo).
        seed: the seed of the scrambling's random draws.

    Example::

        >>> engine = torch.quasirandom.SobolEngine(dimension=2)
        >>> engine.draw(3)
        tensor([[0.0000, 0.0000],
                [0.5000, 0.5000],
                [0.7500, 0.2500]])
    """

    MAXBIT = MAXBIT
    MAXDIM = 21201

    def __init__(self, dimension: int, scramble: bool = False, seed: Optional[int] = None) -> None:
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError("Supported range of dimensionality for SobolEngine is "
                             f"[1, {self.MAXDIM}]")
        self.seed, self.scramble, self.dimension = seed, scramble, dimension
        state = _initial_state(dimension)
        shift = np.zeros(dimension, dtype=np.int64)
        if scramble:
            state, shift = self._scrambled(state)
        self.sobolstate = _tensor(state)
        self.shift = _tensor(shift)
        self.quasi = self.shift.clone()
        self._first_point = (self.quasi / 2 ** MAXBIT).reshape(1, -1)
        self.num_generated = 0

    def _scrambled(self, state: np.ndarray) -> tuple:
        """The scrambled state and the random shift, drawn as torch draws them."""
        from . import Generator, randint
        generator = None
        if self.seed is not None:
            generator = Generator()
            generator.manual_seed(self.seed)
        shift_bits = randint(2, (self.dimension, MAXBIT), generator=generator).numpy()
        shift = shift_bits @ (np.int64(1) << np.arange(MAXBIT, dtype=np.int64))
        ltm = np.tril(randint(2, (self.dimension, MAXBIT, MAXBIT), generator=generator).numpy())
        return _scramble_state(state, ltm), shift

    def _advance(self, n: int, start: int) -> np.ndarray:
        """The next `n` points as integers (counting from `start`); moves `quasi` on."""
        columns = self.sobolstate.numpy()[:, _lowest_zero_bits(start, n)].T
        points = np.bitwise_xor.accumulate(columns, axis=0) ^ self.quasi.numpy()
        if n:
            self.quasi = _tensor(points[-1])
        return points

    def draw(self, n: int = 1, out=None, dtype=None):
        """The next `n` points, an (n, dimension) tensor (the default dtype unless `dtype`)."""
        dtype = dtype or get_default_dtype()
        if self.num_generated == 0:
            rest = self._advance(n - 1, 0)
            points = np.concatenate([self._first_point.numpy().astype(np.float64),
                                     rest / 2.0 ** MAXBIT])
        else:
            points = self._advance(n, self.num_generated - 1) / 2.0 ** MAXBIT
        self.num_generated += n
        result = _tensor(points, dtype=dtype)
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m: int, out=None, dtype=None):
        """The next 2**m points; the total drawn must stay a power of 2."""
        n = 2 ** m
        total = self.num_generated + n
        if total & (total - 1):
            raise ValueError("The balance properties of Sobol' points require n to be a "
                             f"power of 2. {self.num_generated} points have been previously "
                             f"generated, then: n={self.num_generated}+2**{m}={total}. If you "
                             "still want to do this, please use 'SobolEngine.draw()' instead.")
        return self.draw(n=n, out=out, dtype=dtype)

    def reset(self) -> "SobolEngine":
        """Start the sequence again from its first point."""
        self.quasi = self.shift.clone()
        self.num_generated = 0
        return self

    def fast_forward(self, n: int) -> "SobolEngine":
        """Skip the next `n` points."""
        if self.num_generated == 0:
            self._advance(n - 1, 0)
        else:
            self._advance(n, self.num_generated - 1)
        self.num_generated += n
        return self

    def __repr__(self) -> str:
        fields = [f"dimension={self.dimension}"]
        if self.scramble:
            fields.append("scramble=True")
        if self.seed is not None:
            fields.append(f"seed={self.seed}")
        return f"{type(self).__name__}({', '.join(fields)})"
