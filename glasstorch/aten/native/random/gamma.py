"""torch's CPU gamma and Dirichlet samplers (`_standard_gamma`, `_sample_dirichlet`).

A Gamma(alpha, 1) draw is Marsaglia and Tsang's rejection method: with
d = alpha - 1/3 and c = 1/sqrt(9d), draw normals x until y = 1 + c x > 0, then one
uniform u; accept d y**3 when u passes the squeeze or the log test. An alpha below 1
is first boosted to alpha + 1 and the draw scaled by U**(1/alpha) (one uniform drawn
before the others). Elements are sampled one after the other, as ATen's serial kernel
does, since each takes a data-dependent number of draws.

Note [Single-precision steps of the gamma sampler]: for a float tensor ATen keeps
alpha in float while it boosts it and subtracts 1/3 (a float constant, also when
alpha is a double), and computes the rest in double; `_FloatSteps` reproduces that.
"""
from __future__ import annotations

import math

import numpy as np

from .stream import ScalarDraws

_ONE_THIRD = float(np.float32(1.0) / np.float32(3.0))    # C's 1.0f / 3.0f
_SQUEEZE = float(np.float32(0.0331))                      # C's 0.0331f


def _gamma_one(alpha, draws: ScalarDraws, scalar) -> float:
    """One Gamma(alpha, 1) draw, alpha given in `scalar` (np.float32 or float)."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        scale *= math.pow(1.0 - draws.uniform(), float(scalar(1.0) / alpha))
        alpha = scalar(alpha + scalar(1.0))
    d = float(alpha - scalar(_ONE_THIRD))
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = draws.normal()
        y = 1.0 + c * x
        while y <= 0:
            x = draws.normal()
            y = 1.0 + c * x
        v = y * y * y
        u = 1.0 - draws.uniform()
        xx = x * x
        if u < 1.0 - _SQUEEZE * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def sample_gamma(generator, alpha: np.ndarray) -> np.ndarray:
    """One Gamma(alpha, 1) draw per element of `alpha` (float32 or float64, read in
    C order), at least the dtype's smallest normal number. A NaN alpha gives NaN
    (torch's kernel never returns for it)."""
    scalar = np.float32 if alpha.dtype == np.float32 else float
    values = [scalar(a) for a in np.ascontiguousarray(alpha).reshape(-1).tolist()]
    draws = ScalarDraws(generator, 3 * len(values) + 1)
    samples = [math.nan if a != a else _gamma_one(a, draws, scalar) for a in values]
    draws.close()
    result = np.array(samples, dtype=alpha.dtype).reshape(alpha.shape)
    return np.maximum(result, np.finfo(alpha.dtype).tiny)


def sample_dirichlet(generator, alpha: np.ndarray) -> np.ndarray:
    """One Dirichlet draw per row (last dimension) of `alpha`: gamma draws made in double
    whatever alpha's dtype, normalised by their row's sum, then kept within
    [smallest normal, largest number below 1] of alpha's dtype."""
    gammas = sample_gamma(generator, alpha.astype(np.float64))
    ratios = (gammas / gammas.sum(axis=-1, keepdims=True)).astype(alpha.dtype)
    below_one = np.nextafter(alpha.dtype.type(1), alpha.dtype.type(0))
    return np.clip(ratios, np.finfo(alpha.dtype).tiny, below_one)
