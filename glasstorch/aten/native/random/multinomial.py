"""torch's CPU multinomial: how `torch.multinomial` draws, and what it refuses.

Without replacement (or for a single sample) torch uses the exponential trick: with
q ~ Exp(1) drawn for every weight (`exponential_` on a tensor like the weights), the
indices of the largest p / q are a weighted sample without replacement; one sample
is their argmax. With replacement, each row's weights are accumulated (in float for
float16/bfloat16, else in their dtype), normalised, and each sample is a binary
search of one uniform double in that cumulative distribution.
"""
from __future__ import annotations

import numpy as np

from .bits import exponential, fill_in_memory_order, uniform_double


def check_probabilities(weights: np.ndarray, num_samples: int, replacement: bool) -> None:
    """Refuse weights torch refuses, with its messages (before anything is drawn)."""
    if weights.size == 0:
        return
    weights = weights.astype(np.float64)
    if not replacement or num_samples == 1:
        if not (np.all(weights < np.inf) and np.all(weights >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    else:
        flat = weights.reshape(-1)
        bad = ~(flat >= 0) | ~np.isfinite(flat)
        if bad.any():
            first = flat[np.argmax(bad)]
            what = "< 0" if not first >= 0 else "= infinity or NaN"
            raise RuntimeError(f"invalid multinomial distribution (encountering probability "
                               f"entry {what})")
    if np.any(weights.reshape(-1, weights.shape[-1]).sum(axis=-1) == 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


def draw_multinomial(self, num_samples: int, replacement: bool, generator, out) -> None:
    """Fill `out` (int64, rows x num_samples) with torch's draws from the weights `self`."""
    if out.size == 0:
        return
    rows = self.reshape(-1, self.shape[-1])
    picks = out.reshape(-1, num_samples)
    if replacement and num_samples > 1:
        _with_replacement(rows, num_samples, generator, picks)
    else:
        _without_replacement(self, num_samples, generator, picks)


def _without_replacement(weights: np.ndarray, num_samples: int, generator, picks) -> None:
    q = np.empty_like(weights)                      # the layout empty_like(self) takes
    fill_in_memory_order(q, exponential(generator, q.size, 1.0))
    compute = np.float32 if weights.dtype.itemsize < 4 else weights.dtype
    keys = (weights.astype(compute) / q.astype(compute)).astype(weights.dtype)
    keys = keys.reshape(-1, weights.shape[-1])
    if num_samples == 1:
        picks[:, 0] = np.argmax(keys, axis=-1)
    else:
        # torch's topk orders equal keys as libstdc++'s nth_element/partial_sort leave
        # them; ties happen only between zero weights (drawn when num_samples exceeds
        # the non-zero ones), which glasstorch returns in index order instead.
        order = np.argsort(-keys.astype(np.float64), axis=-1, kind="stable")
        picks[...] = order[:, :num_samples]


def _with_replacement(rows: np.ndarray, num_samples: int, generator, picks) -> None:
    accumulate = np.float32 if rows.dtype.itemsize < 4 else rows.dtype
    cumulative = np.cumsum(rows.astype(accumulate), axis=-1)
    cumulative = cumulative / cumulative[:, -1:]
    cumulative[:, -1] = 1
    draws = uniform_double(generator, rows.shape[0] * num_samples).reshape(-1, num_samples)
    for row in range(rows.shape[0]):                 # a loop over rows, not elements
        picks[row] = np.searchsorted(cumulative[row].astype(np.float64), draws[row], "left")
