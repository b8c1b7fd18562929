"""The strong-Wolfe line search `LBFGS` uses with ``line_search_fn="strong_wolfe"``.

Along a direction `d` from the current point, it looks for a step `t` whose loss has
decreased enough (the Armijo condition, ``f(t) <= f(0) + c1 * t * f'(0)``) and whose
slope has flattened enough (the curvature condition, ``|f'(t)| <= -c2 * f'(0)``). It
first moves outwards until an interval is known to hold such a step (extrapolating
with cubic fits), then shrinks that interval (the "zoom"), as in Nocedal and Wright's
Algorithm 3.5. Each trial point is ``(t, loss, flat gradient, slope)``.

The losses are Python floats and the slopes 0-dim tensors of the parameters' dtype;
the arithmetic mixes them in the same order as torch's, so that the trial steps (and
so the number of closure calls) are torch's.
"""
from __future__ import annotations

from typing import Any, Callable

Point = tuple  # (t, loss, flat gradient, slope along d)


def cubic_interpolate(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any,
                      bounds: tuple | None = None) -> Any:
    """The minimizer of the cubic through values `f1`, `f2` and slopes `g1`, `g2` at
    `x1`, `x2`, clamped to `bounds` (default: the interval between the points); the
    middle of the bounds when the cubic has no minimum."""
    low, high = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = d2_square.sqrt()
    if x1 <= x2:
        minimum = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        minimum = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(minimum, low), high)


def strong_wolfe(evaluate: Callable, t: Any, d: Any, f: float, g: Any, gtd: Any,
                 c1: float = 1e-4, c2: float = 0.9, tolerance_change: float = 1e-9,
                 max_ls: int = 25) -> tuple:
    """Search a step along `d` meeting the strong Wolfe conditions.

    Args:
        evaluate (callable): ``evaluate(t)`` returns the loss and flat gradient at
            step `t` (the parameters left unchanged).
        t: the first step tried.
        d: the direction (a flat tensor).
        f, g, gtd: the loss, flat gradient and slope ``g . d`` at step 0.
        max_ls (int): the most evaluations after the first.

    Returns:
        (loss, flat gradient, step, number of evaluations) of the chosen step.
    """
    f_new, g_new = evaluate(t)
    evaluations, ls_iter = 1, 0
    gtd_new = g_new.dot(d)
    prev: Point = (0, f, g, gtd)
    bracket, done = None, False
    while ls_iter < max_ls:
        new: Point = (t, f_new, g_new, gtd_new)
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= prev[1]):
            bracket = [prev, new]       # the loss went up: a minimum lies between
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, done = [new], True
            break
        if gtd_new >= 0:
            bracket = [prev, new]       # the slope turned: a minimum lies between
            break
        # still descending: extrapolate, at least a little and at most tenfold further
        t = cubic_interpolate(prev[0], prev[1], prev[3], t, f_new, gtd_new,
                              bounds=(t + 0.01 * (t - prev[0]), t * 10))
        prev = new
        f_new, g_new = evaluate(t)
        evaluations += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = [(0, f, g, gtd), (t, f_new, g_new, gtd_new)]
    best, zoom_evaluations = _zoom(evaluate, bracket, done, ls_iter, d,
                                   (f, gtd, c1, c2, tolerance_change, max_ls))
    return best[1], best[2], best[0], evaluations + zoom_evaluations


def _zoom(evaluate: Callable, bracket: list, done: bool, ls_iter: int, d: Any,
          options: tuple) -> tuple[Point, int]:
    """Shrink `bracket` (two points around a step meeting the conditions) until a
    point meets them, the interval is too small or the evaluations run out; the best
    point seen, and the evaluations made."""
    f, gtd, c1, c2, tolerance_change, max_ls = options
    d_norm = d.abs().max()
    evaluations, insufficient = 0, False
    low, high = (0, 1) if bracket[0][1] <= bracket[-1][1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1][0] - bracket[0][0]) * d_norm < tolerance_change:
            break
        t = cubic_interpolate(bracket[0][0], bracket[0][1], bracket[0][3],
                              bracket[1][0], bracket[1][1], bracket[1][3])
        t, insufficient = _keep_inside(t, bracket[0][0], bracket[1][0], insufficient)
        f_new, g_new = evaluate(t)
        evaluations += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        new: Point = (t, f_new, g_new, gtd_new)
        if f_new > (f + c1 * t * gtd) or f_new >= bracket[low][1]:
            bracket[high] = new
            low, high = (0, 1) if bracket[0][1] <= bracket[1][1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high][0] - bracket[low][0]) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = new
    return bracket[low], evaluations


def _keep_inside(t: Any, a: Any, b: Any, insufficient: bool) -> tuple[Any, bool]:
    """Keep a zoom step `t` away from the ends of the interval [a, b] (at least a tenth
    of its length inside), unless the previous step was the first one too close: then
    ``(t, True)``, and a second time it is moved."""
    top, bottom = max(a, b), min(a, b)
    eps = 0.1 * (top - bottom)
    if not min(top - t, t - bottom) < eps:
        return t, False
    if insufficient or t >= top or t <= bottom:
        return (top - eps if abs(t - top) < abs(t - bottom) else bottom + eps), False
    return t, True
