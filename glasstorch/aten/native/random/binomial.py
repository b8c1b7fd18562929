"""torch's CPU binomial sampler (`sample_binomial` in ATen, after TensorFlow's).

A count n and probability p (folded to q = min(p, 1 - p), the draw mirrored as n - k
when p > 1/2) are sampled by inversion when n q < 10: add geometric waiting times
ceil(log U / log1p(-q)) until they pass n, one uniform each; otherwise by Hoermann's
BTRS transformed rejection, two uniforms a trial. Elements are sampled one after the
other in C order (each takes a data-dependent number of uniforms). For float tensors
the steps ATen computes in float (n q, q, the spread) are rounded to float here too.
Elements of one count and probability that BTRS samples take their trials all at once
(`_btrs_alike`, Note [Samplers in speculative runs] in stream.py).
"""
from __future__ import annotations

import math

import numpy as np

from ... import libm
from .stream import ScalarDraws

# log(k!) - (Stirling's approximation of it), for k = 0 .. 9
_STIRLING_TAILS = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                   0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                   0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                   0.00833056343336287)


def _stirling_tail(k: float) -> float:
    if k < len(_STIRLING_TAILS):
        return _STIRLING_TAILS[int(k)]
    square = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / square) / square) / (k + 1)


def _log1p(x, scalar) -> float:
    """C's log1p of a double, or log1pf of a float (as ATen calls it on scalar_t)."""
    if scalar is float:
        return math.log1p(x)
    return float(libm.log1p(np.array([x], np.float32))[0])


def _inversion(count, prob, draws: ScalarDraws, scalar) -> float:
    log_q = _log1p(-prob, scalar)
    total, successes = 0.0, 0.0
    while True:
        total += math.ceil(math.log(draws.uniform()) / log_q)
        if total > count:
            return successes
        successes += 1


def _btrs_constants(count, prob, scalar) -> tuple:
    """BTRS's constants for one (count, prob): (a, b, c, v_r, r, alpha, m, n)."""
    # sqrtf is the double square root rounded to float (it is correctly rounded)
    spread = float(scalar(math.sqrt(count * prob * (scalar(1.0) - prob))))
    b = 1.15 + 2.53 * spread
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(prob / (scalar(1.0) - prob))
    alpha = (2.83 + 5.1 / b) * spread
    m = math.floor(float((count + scalar(1.0)) * prob))
    return a, b, c, v_r, r, alpha, m, float(count)


def _bound(k, m, n, r, log, tail):
    """The log-density bound a trial's k is accepted under (`log` and `tail` for
    numbers or for arrays of k)."""
    return ((m + 0.5) * log((m + 1) / (r * (n - m + 1)))
            + (n + 1) * log((n - m + 1) / (n - k + 1))
            + (k + 0.5) * log(r * (n - k + 1) / (k + 1))
            + _stirling_tail(m) + _stirling_tail(n - m)
            - tail(k) - tail(n - k))


def _btrs(count, prob, draws: ScalarDraws, scalar) -> float:
    a, b, c, v_r, r, alpha, m, n = _btrs_constants(count, prob, scalar)
    while True:
        u = draws.uniform() - 0.5
        v = draws.uniform()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        if v <= _bound(k, m, n, r, math.log, _stirling_tail):
            return k


def _btrs_alike(count, prob, size: int, generator, scalar) -> np.ndarray:
    """`size` BTRS draws of one (count, prob), every trial computed at once: a trial
    takes the two uniforms at 2t and 2t + 1 whichever element it serves, so the
    accepted trials in order are the serial sampler's draws (Note [Samplers in
    speculative runs], stream.py)."""
    a, b, c, v_r, r, alpha, m, n = _btrs_constants(count, prob, scalar)
    wanted = 2 * size + size // 4 + 64
    draws = ScalarDraws(generator, wanted, listed=False)
    while True:
        uniforms = draws.ahead(wanted)
        trials = len(uniforms) // 2
        u, v = uniforms[0:2 * trials:2] - 0.5, uniforms[1:2 * trials:2]
        us = 0.5 - np.abs(u)
        k = np.floor((2 * a / us + b) * u + c)
        inside = (k >= 0) & (k <= n)
        taken = inside & (us >= 0.07) & (v <= v_r)
        tested = inside & ~taken
        with np.errstate(all="ignore"):
            logged = libm.log(v[tested] * alpha / (a / (us[tested] * us[tested]) + b))
            taken[tested] = logged <= _bound(k[tested], m, n, r, libm.log, _stirling_tails)
        accepted = np.flatnonzero(taken)
        if len(accepted) >= size:
            break
        wanted = len(uniforms) + 2 * (size - len(accepted)) + 64
    draws.move_to(2 * int(accepted[size - 1]) + 2, draws.state[1])   # no normals drawn
    draws.close()
    return k[accepted[:size]]


def _stirling_tails(k: np.ndarray) -> np.ndarray:
    """`_stirling_tail` of each element of `k` (whole numbers as floats)."""
    square = (k + 1) * (k + 1)
    formula = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / square) / square) / (k + 1)
    table = np.array(_STIRLING_TAILS)[np.minimum(k, len(_STIRLING_TAILS) - 1).astype(np.int64)]
    return np.where(k < len(_STIRLING_TAILS), table, formula)


def _binomial_one(count, prob, draws: ScalarDraws, scalar) -> float:
    if count <= 0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return float(count)
    if prob != prob:
        return math.nan
    mirrored = prob > 0.5
    q = scalar(scalar(1.0) - prob) if mirrored else prob
    if count * q >= 10:
        k = _btrs(count, q, draws, scalar)
    else:
        k = _inversion(count, q, draws, scalar)
    return float(count) - k if mirrored else float(k)


def sample_binomial(generator, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """One Binomial(count, prob) draw per element (arrays of one shape and dtype,
    float32 or float64), in C order."""
    scalar = np.float32 if count.dtype == np.float32 else float   # Python floats: faster
    flat_counts = np.ascontiguousarray(count).reshape(-1)
    flat_probs = np.ascontiguousarray(prob).reshape(-1)
    if flat_counts.size > 1 and np.all(flat_counts == flat_counts[0]) and \
            np.all(flat_probs == flat_probs[0]):
        alike = _alike(scalar(flat_counts[0]), scalar(flat_probs[0]), flat_counts.size,
                       generator)
        if alike is not None:
            return alike.astype(count.dtype).reshape(count.shape)
    counts = [scalar(n) for n in flat_counts.tolist()]
    probs = [scalar(p) for p in flat_probs.tolist()]
    draws = ScalarDraws(generator, 2 * len(counts) + 1)
    samples = [_binomial_one(n, p, draws, scalar) for n, p in zip(counts, probs)]
    draws.close()
    return np.array(samples, dtype=count.dtype).reshape(count.shape)


def _alike(count, prob, size: int, generator):
    """The draws of `size` elements of one (count, prob) that BTRS samples, or None
    (another path: `_binomial_one` decides as here)."""
    if not (count > 0 and 0 < prob < 1):
        return None
    mirrored = prob > 0.5
    q = type(count)(type(count)(1.0) - prob) if mirrored else prob
    if not count * q >= 10:
        return None
    k = _btrs_alike(count, q, size, generator, type(count))
    return float(count) - k if mirrored else k
