"""The implicit reparameterisation gradients of gamma and Beta/Dirichlet draws.

For a draw x of a distribution whose CDF F(x; alpha) is differentiable in alpha, the
pathwise derivative is dx/dalpha = -(dF/dalpha) / pdf(x). Neither has a closed form;
ATen approximates them region by region (Taylor series near 0, a Rice saddle-point
expansion for large parameters, fitted rational functions elsewhere), and so do these
functions, with the same expansions and coefficients, vectorized over the elements
(each region computed on the elements it holds), in double precision.
"""
from __future__ import annotations

import numpy as np


def _single(value: float) -> float:
    """A C float constant (``0.9f``) as the double it widens to."""
    return float(np.float32(value))


def _digamma(x: np.ndarray) -> np.ndarray:
    from scipy.special import digamma
    return digamma(x)


def _nan_to_zero(values: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(values), 0.0, values)


# ----------------------------------------------------------------------------------
# Gamma(alpha, 1): dx/dalpha
# ----------------------------------------------------------------------------------
def _gamma_small_x(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Taylor series of the lower incomplete gamma function in x."""
    numer, denom = np.ones_like(x), alpha.copy()
    series1, series2 = numer / denom, numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x / i)
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    pow_x_alpha = np.power(x, alpha)
    pdf = np.power(x, alpha - 1) * np.exp(-x)
    cdf_alpha = (np.log(x) - _digamma(alpha)) * pow_x_alpha * series1 - pow_x_alpha * series2
    return _nan_to_zero(-cdf_alpha / pdf)


def _gamma_large_alpha(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Rice's saddle-point expansion, with a polynomial near x = alpha."""
    near = (_single(0.9) * alpha <= x) & (x <= _single(1.1) * alpha)
    numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
    numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
               + alpha * (107 + 3600 * x))
    at_mode = numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
    denom = np.sqrt(8 * alpha)
    term2 = denom / (alpha - x)
    term3 = np.power(x - alpha - alpha * np.log(x / alpha), -1.5)
    term23 = np.where(x < alpha, term2 - term3, term2 + term3)
    term1 = (np.log(x / alpha) * term23
             - np.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x)))
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    return np.where(near, at_mode, -stirling * x * term1 / denom)


_GAMMA_RATIONAL = np.array([
    [0.16009398, -0.094634809, 0.025146376, -0.0030648343,
     1, 0.32668115, 0.10406089, 0.0014179084],
    [0.53487893, 0.1298071, 0.065735949, -0.0015649758,
     0.16639465, 0.020070113, -0.0035938915, -0.00058392623],
    [0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
     0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07]])


def _gamma_rational(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """A rational function of log(x / alpha) and log(alpha), fitted to the gradient."""
    u, v = np.log(x / alpha), np.log(alpha)
    c = [_GAMMA_RATIONAL[0, i] + u * (_GAMMA_RATIONAL[1, i] + u * _GAMMA_RATIONAL[2, i])
         for i in range(8)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    return np.exp(p / q)


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """d x / d alpha for draws `x` of Gamma(`alpha`, 1) (arrays of one shape)."""
    alpha, x = alpha.astype(np.float64), x.astype(np.float64)
    small = x < _single(0.8)
    large = ~small & (alpha > 8)
    rest = ~small & ~large
    result = np.empty_like(x)
    result[small] = _gamma_small_x(alpha[small], x[small])
    result[large] = _gamma_large_alpha(alpha[large], x[large])
    result[rest] = _gamma_rational(alpha[rest], x[rest])
    return result


# ----------------------------------------------------------------------------------
# Beta(alpha, total - alpha): dx/dalpha / (1 - x), which Dirichlet gradients build on
# ----------------------------------------------------------------------------------
def _beta_alpha_small(x, alpha, beta):
    """Taylor series for x near 0."""
    factor = _digamma(alpha) - _digamma(alpha + beta) - np.log(x)
    numer = np.ones_like(x)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer = numer * ((i - beta) * x / i)
        denom = alpha + i
        series = series + numer / denom * (factor + 1 / denom)
    return _nan_to_zero(x * np.power(1 - x, -beta) * series)


def _beta_beta_small(x, alpha, beta):
    """Taylor series of the gradient in beta, for x near 0 (used mirrored, near 1)."""
    factor = _digamma(alpha + beta) - _digamma(beta)
    numer, betas, dbetas = np.ones_like(x), np.ones_like(x), np.zeros_like(x)
    series = factor / alpha
    for i in range(1, 9):
        numer = numer * (-x / i)
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series = series + numer / (alpha + i) * (dbetas + factor * betas)
    return _nan_to_zero(-np.power(1 - x, 1 - beta) * series)


def _beta_alpha_mid(x, alpha, beta):
    """Rice's saddle-point expansion for large alpha and beta."""
    total = alpha + beta
    mean = alpha / total
    spread = np.sqrt(alpha * beta / (total + 1)) / total
    near = (mean - 0.1 * spread <= x) & (x <= mean + 0.1 * spread)
    poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
            3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                    8 * (1 - x) * (135 * beta - 11)))))
    prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
    at_mean = prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / np.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (np.sqrt(2 * alpha / beta) * np.power(total, 1.5) * axbx * axbx)
    term2 = 0.5 * np.log(alpha / (total * x))
    term3 = np.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = np.power(beta * np.log(beta / (total * (1 - x)))
                     + alpha * np.log(alpha / (total * x)), -1.5)
    term1234 = term1 + term2 * (term3 + np.where(x < mean, term4, -term4))
    return np.where(near, at_mean, stirling * prefactor * term1234)


# Coefficients of p (index 0) and q (index 1), by powers of log x, of log(alpha / x)
# and of log(total x / alpha)
_BETA_RATIONAL = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]]])


def _beta_rational(x, alpha, total):
    """A rational correction to x (psi(total) - psi(alpha)) / beta."""
    u = np.log(x)
    a = np.log(alpha) - u
    b = np.log(total) - a
    sums = []
    for coefficients in _BETA_RATIONAL:
        total_sum = np.zeros_like(x)
        for i in range(3):
            for j in range(3):
                c = coefficients[i, j]
                total_sum = total_sum + u ** i * a ** j * (
                    c[0] + b * (c[1] + b * (c[2] + b * c[3])))
        sums.append(total_sum)
    approx = x * (_digamma(total) - _digamma(alpha)) / (total - alpha)
    return sums[0] / sums[1] * approx


def dirichlet_grad(x: np.ndarray, alpha: np.ndarray, total: np.ndarray) -> np.ndarray:
    """d x / d alpha / (1 - x) for draws `x` of Beta(alpha, total - alpha) (arrays of
    one shape): the first region that holds an element computes it."""
    x, alpha, total = (a.astype(np.float64) for a in (x, alpha, total))
    beta = total - alpha
    boundary = total * x * (1 - x)
    regions = [
        ((x <= 0.5) & (boundary < 2.5), lambda s: _beta_alpha_small(x[s], alpha[s], beta[s])),
        ((x >= 0.5) & (boundary < 0.75),
         lambda s: -_beta_beta_small(1 - x[s], beta[s], alpha[s])),
        ((alpha > 6) & (beta > 6), lambda s: _beta_alpha_mid(x[s], alpha[s], beta[s])),
        (np.ones_like(x, dtype=bool), lambda s: _beta_rational(x[s], alpha[s], total[s])),
    ]
    result = np.empty_like(x)
    unassigned = np.ones_like(x, dtype=bool)
    for holds, compute in regions:
        chosen = unassigned & holds
        result[chosen] = compute(chosen)
        unassigned &= ~holds
    return result
