"""Write glasstorch/sobol_directions.txt: the Sobol direction numbers torch's SobolEngine
uses, for the first `DIMENSIONS` dimensions, read from torch itself.

Run with torch installed (``python tools/sobol_directions.py``). Each line is one
dimension: its primitive polynomial (as an integer, bit i the coefficient of x^i) and its
initial direction numbers m_1 .. m_s (s the polynomial's degree); the rest follow from
the recurrence in `glasstorch/quasirandom.py`. These are Joe and Kuo's numbers
(new-joe-kuo-6.21201). The script checks that the recurrence rebuilds torch's state.
"""
import pathlib

import torch

DIMENSIONS = 1111
MAXBIT = 30
OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "glasstorch" / "sobol_directions.txt"


def polymod(a: int, p: int) -> int:
    """a mod p, polynomials over GF(2) as integers."""
    degree = p.bit_length() - 1
    while a.bit_length() - 1 >= degree:
        a ^= p << (a.bit_length() - 1 - degree)
    return a


def polypow_x(exponent: int, p: int) -> int:
    """x^exponent mod p."""
    result, base = 1, 2
    while exponent:
        if exponent & 1:
            result = polymod(polymul(result, base), p)
        base = polymod(polymul(base, base), p)
        exponent >>= 1
    return result


def polymul(a: int, b: int) -> int:
    result = 0
    while b:
        if b & 1:
            result ^= a
        a <<= 1
        b >>= 1
    return result


def prime_factors(n: int) -> set:
    found, q = set(), 2
    while q * q <= n:
        while n % q == 0:
            found.add(q)
            n //= q
        q += 1
    return found | ({n} if n > 1 else set())


def primitive_polynomials():
    """Primitive polynomials over GF(2) in increasing order (x + 1 first)."""
    degree = 1
    while True:
        order = 2 ** degree - 1
        factors = prime_factors(order)
        for p in range(2 ** degree + 1, 2 ** (degree + 1), 2):
            if polypow_x(order, p) == 1 and all(polypow_x(order // q, p) != 1 for q in factors):
                yield p
        degree += 1


def rebuild(poly: int, initial: list) -> list:
    """m_1 .. m_MAXBIT from the polynomial and the initial numbers."""
    s = poly.bit_length() - 1
    m = list(initial)
    for j in range(s, MAXBIT):
        value = m[j - s]
        for k in range(s):
            if (poly >> (s - 1 - k)) & 1:
                value ^= m[j - k - 1] << (k + 1)
        m.append(value)
    return m


def main() -> None:
    state = torch.quasirandom.SobolEngine(DIMENSIONS).sobolstate.tolist()
    lines = ["# Sobol direction numbers (Joe & Kuo), as torch's SobolEngine uses them;",
             "# written by tools/sobol_directions.py: poly m_1 .. m_degree per dimension"]
    polys = primitive_polynomials()
    for d in range(1, DIMENSIONS):          # dimension 0 is the van der Corput sequence
        m = [v >> (MAXBIT - 1 - j) for j, v in enumerate(state[d])]
        poly = next(polys)
        s = poly.bit_length() - 1
        assert rebuild(poly, m[:s]) == m, f"dimension {d} does not rebuild"
        lines.append(" ".join(str(n) for n in [poly] + m[:s]))
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
