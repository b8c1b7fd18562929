"""torch's CPU gamma and Dirichlet samplers (`_standard_gamma`, `_sample_dirichlet`).

A Gamma(alpha, 1) draw is Marsaglia and Tsang's rejection method: with
d = alpha - 1/3 and c = 1/sqrt(9d), draw normals x until y = 1 + c x > 0, then one
uniform u; accept d y**3 when u passes the squeeze or the log test. An alpha below 1
is first boosted to alpha + 1 and the draw scaled by U**(1/alpha) (one uniform drawn
before the others). Elements are sampled one after the other, as ATen's serial kernel
does, since each takes a data-dependent number of draws.

Note [Trials of the gamma sampler]
    A trial draws one normal (from a fresh pair of uniforms, or the sine of the pair
    the trial before drew, which the generator caches) and one uniform; an element
    takes trials until one is accepted. When every element has one alpha of at least
    1 (no boost uniform) and y > 0 throughout, where trial t's draws lie and whether
    it is accepted do not depend on which element it serves, so every trial is
    computed at once and the accepted ones are the elements' draws in order (Note
    [Samplers in speculative runs], stream.py). A trial with y <= 0 ends the run:
    its element is sampled alone by `_gamma_one`, and a new run starts after it.
    Other inputs are sampled element by element.

Note [Single-precision steps of the gamma sampler]: for a float tensor ATen keeps
alpha in float while it boosts it and subtracts 1/3 (a float constant, also when
alpha is a double), and computes the rest in double; `_gamma_one` and `_constants` do
the same.
"""
from __future__ import annotations

import math

import numpy as np

from ... import libm
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
    d, c = _constants(alpha, scalar)
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


def _constants(alpha, scalar) -> tuple:
    """`_gamma_one`'s d and c for an alpha of at least 1, the subtraction in `scalar`
    (Note [Single-precision steps of the gamma sampler])."""
    d = float(alpha - scalar(_ONE_THIRD))
    return d, 1.0 / math.sqrt(9.0 * d)


def sample_gamma(generator, alpha: np.ndarray) -> np.ndarray:
    """One Gamma(alpha, 1) draw per element of `alpha` (float32 or float64, read in
    C order), at least the dtype's smallest normal number. A NaN alpha gives NaN
    (torch's kernel never returns for it)."""
    flat = np.ascontiguousarray(alpha).reshape(-1)
    samples = np.where(flat == 0, 0.0, np.nan)          # 0 and NaN draw nothing
    order = np.flatnonzero((flat != 0) & (flat == flat))
    scalar = np.float32 if alpha.dtype == np.float32 else float
    steps = _alike(flat[order], scalar)
    alike = steps is not None
    # a trial takes two uniforms on average
    draws = ScalarDraws(generator, int(2.1 * len(order)) + 64 if alike
                        else 3 * len(order) + 1, listed=not alike)
    done, window = 0, len(order) + len(order) // 16 + 16    # trials enough, mostly
    with np.errstate(all="ignore"):     # trials off the common path compute anything
        while done < len(order):
            settled, alone = _trials(steps, done, window, draws, samples, order) \
                if alike else (0, 1)
            if alone:
                index = order[done + settled]
                samples[index] = _gamma_one(scalar(flat[index]), draws, scalar)
            # windows of a few runs where runs end often, growing while they do not
            window = max(128, 3 * settled) if alone else 2 * window
            done += settled + alone
    draws.close()
    result = samples.astype(alpha.dtype).reshape(alpha.shape)
    return np.maximum(result, np.finfo(alpha.dtype).tiny)


def _alike(alpha: np.ndarray, scalar):
    """The constants (d, c) every trial shares when the elements have one alpha, at
    least 1 (not boosted), with finite constants (Note [Trials of the gamma sampler]);
    else None."""
    if not alpha.size or not alpha[0] >= 1 or not np.all(alpha == alpha[0]):
        return None
    d, c = _constants(scalar(alpha[0]), scalar)
    return (d, c) if math.isfinite(d) and math.isfinite(c) else None


def _trials(steps: tuple, first: int, count: int, draws: ScalarDraws, samples,
            order) -> tuple:
    """Sample the elements from `first` on through up to `count` trials on the common
    path (Note [Trials of the gamma sampler]). Returns (elements sampled, 1 if the next
    element must be sampled alone, else 0), `draws` moved to that next element."""
    n = len(order)
    used, cached = draws.state
    takes_cached = (np.arange(count + 1) & 1) == (0 if cached is not None else 1)
    at = used + np.concatenate(([0], np.cumsum(np.where(takes_cached[:-1], 1, 3))))
    d, c = steps
    trial = _Trial(d, c, at, takes_cached, draws.ahead(int(at[-1]) - used + 3), cached)
    served = np.minimum(first + np.concatenate(([0], np.cumsum(trial.accepted))), n)
    off = np.flatnonzero(trial.off_path | (served[:-1] == n))
    stop = int(off[0]) if off.size else count
    settled = int(served[stop]) - first
    accepted = np.flatnonzero(trial.accepted[:stop])
    samples[order[first:first + settled]] = d * trial.v[accepted]
    begin = int(accepted[-1]) + 1 if accepted.size else 0
    draws.move_to(int(at[begin]), trial.cache_before(begin))
    return settled, int(first + settled < n and stop < count)


class _Trial:
    """Trials on the common path, each drawing its normal at ``at[t]`` (a fresh pair)
    or taking the sine of the pair before (Note [Trials of the gamma sampler]): the
    normal, uniform, acceptance, and whether it leaves the path (`off_path`: y <= 0)."""

    def __init__(self, d: float, c: float, at, takes_cached, uniforms, cached) -> None:
        at = at[:-1]
        self.takes_cached, self.cached = takes_cached, cached
        fresh = ~takes_cached[:-1]
        self.x, self.sines = _normals(uniforms, at, fresh, cached)
        self.u = 1.0 - uniforms[np.where(fresh, at + 2, at)]
        y = 1.0 + c * self.x
        self.v = y * y * y
        xx = self.x * self.x
        accepted = self.u < 1.0 - _SQUEEZE * xx * xx
        logged = ~accepted & (y > 0)
        if logged.any():
            accepted[logged] = libm.log(self.u[logged]) < 0.5 * xx[logged] + d * (
                1.0 - self.v[logged] + libm.log(self.v[logged]))
        self.off_path = y <= 0
        self.accepted = accepted & ~self.off_path

    def cache_before(self, t: int):
        """The cached normal when trial `t` starts: the sine of trial t - 1's pair."""
        if not self.takes_cached[t]:
            return None
        return self.cached if t == 0 else float(self.sines[t - 1])


def _normals(uniforms: np.ndarray, at: np.ndarray, fresh: np.ndarray, cached) -> tuple:
    """Each trial's normal, and each fresh pair's sine (NaN elsewhere): Box-Muller from
    the uniforms at ``at``, ``at + 1`` (as `ScalarDraws.normal`), or the sine of the
    trial before (the generator's cached normal for the first)."""
    pairs = at[fresh]
    radius = np.sqrt(-2.0 * libm.log1p(-uniforms[pairs + 1]))
    theta = 2.0 * math.pi * uniforms[pairs]
    x, sines = np.empty(len(at)), np.full(len(at), np.nan)
    x[fresh] = radius * libm.cos(theta)
    sines[fresh] = radius * libm.sin(theta)
    x[1:][~fresh[1:]] = sines[:-1][~fresh[1:]]
    if not fresh[0]:
        x[0] = cached
    return x, sines


def sample_dirichlet(generator, alpha: np.ndarray) -> np.ndarray:
    """One Dirichlet draw per row (last dimension) of `alpha`: gamma draws made in double
    whatever alpha's dtype, normalised by their row's sum, then kept within
    [smallest normal, largest number below 1] of alpha's dtype."""
    gammas = sample_gamma(generator, alpha.astype(np.float64))
    ratios = (gammas / gammas.sum(axis=-1, keepdims=True)).astype(alpha.dtype)
    below_one = np.nextafter(alpha.dtype.type(1), alpha.dtype.type(0))
    return np.clip(ratios, np.finfo(alpha.dtype).tiny, below_one)
