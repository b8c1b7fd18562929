"""torch's CPU binomial sampler (`sample_binomial` in ATen, after TensorFlow's).

A count n and probability p (folded to q = min(p, 1 - p), the draw mirrored as n - k
when p > 1/2) are sampled by inversion when n q < 10: add geometric waiting times
ceil(log U / log1p(-q)) until they pass n, one uniform each; otherwise by Hoermann's
BTRS transformed rejection, two uniforms a trial. Elements are sampled one after the
other in C order (each takes a data-dependent number of uniforms). For float tensors
the steps ATen computes in float (n q, q, the spread) are rounded to float here too.
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


def _btrs(count, prob, draws: ScalarDraws, scalar) -> float:
    # sqrtf is the double square root rounded to float (it is correctly rounded)
    spread = float(scalar(math.sqrt(count * prob * (scalar(1.0) - prob))))
    b = 1.15 + 2.53 * spread
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(prob / (scalar(1.0) - prob))
    alpha = (2.83 + 5.1 / b) * spread
    m = math.floor(float((count + scalar(1.0)) * prob))
    n = float(count)
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
        bound = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1)))
                 + (n + 1) * math.log((n - m + 1) / (n - k + 1))
                 + (k + 0.5) * math.log(r * (n - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(n - m)
                 - _stirling_tail(k) - _stirling_tail(n - k))
        if v <= bound:
            return k


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
    counts = [scalar(n) for n in np.ascontiguousarray(count).reshape(-1).tolist()]
    probs = [scalar(p) for p in np.ascontiguousarray(prob).reshape(-1).tolist()]
    draws = ScalarDraws(generator, 2 * len(counts) + 1)
    samples = [_binomial_one(n, p, draws, scalar) for n, p in zip(counts, probs)]
    draws.close()
    return np.array(samples, dtype=count.dtype).reshape(count.shape)
