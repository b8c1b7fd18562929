"""Max pooling's kernels: each window's maximum and the flat index of the element
holding it, and the backward scatter of the gradient onto those elements.

Note [Max pooling in blocks]
    Both kernels walk the planes in cache-sized blocks shared by the pool's threads
    (Note [Pooling in blocks of planes]): a block's padded copy, running maximum and
    winner counts stay in the cache while the block is done. Within a block the
    forward visits one kernel offset at a time (Note [Pooling by kernel offsets]): a
    running `np.maximum` (which keeps NaN) gives the maxima, then the winner of a
    window, its first offset holding the maximum, is counted rather than assigned: the
    number of leading offsets that do not hold it, a sum of running ``and``s of ``!=``
    masks, one byte per window (masked copies branch per element).
    A window holding a NaN takes its last NaN, as torch's ``val > max || isnan(val)``
    does; a window with nothing above -inf (or the integer minimum) reports its first
    position inside the input, where torch's search starts. The backward adds each
    output's gradient at its index with `np.bincount` in float64 per block, each input
    element's contributions summed in output order and rounded once (torch adds them to
    zeros, so -0.0 lands as 0.0). Disjoint windows would let each gradient be put rather
    than added, but the backward operator takes any indices, not only its forward's, and
    telling that they do not repeat costs what putting saves.
"""
from __future__ import annotations

import math

import numpy as np

from .pooling_windows import (first_positions, in_blocks, offset_deltas, offsets, padded,
                              planes, window_origins, window_slice)


def lowest(dtype: np.dtype):
    """What no window's maximum is below: -inf, or the integer dtype's minimum."""
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def max_forward(self: np.ndarray, kernel, stride, padding, dilation, values,
                indices) -> None:
    """Write the windows' maxima into `values` and their flat input indices into
    `indices` (Note [Max pooling in blocks])."""
    k = len(kernel)
    if values.size == 0:
        return
    source, best, where = planes([self, values, indices], k)
    geometry = (kernel, stride, padding, dilation)
    spatial = self.shape[-k:]
    origins = window_origins(values.shape[-k:], spatial, stride, padding)
    deltas = offset_deltas(spatial, kernel, dilation)

    def block(start: int, stop: int) -> None:
        _max_block(source[start:stop], geometry, best[start:stop], where[start:stop],
                   origins, deltas)
    in_blocks(source.shape[0], math.prod(source.shape[1:]), block)


def _max_block(self, geometry, values, indices, origins, deltas) -> None:
    """`max_forward` on one block of planes."""
    kernel, stride, padding, dilation = geometry
    k = len(kernel)
    out_spatial = values.shape[-k:]
    compute = np.float32 if self.dtype.itemsize == 2 and self.dtype.kind != "i" else None
    least = lowest(np.dtype(compute or self.dtype))
    source = self
    reach = [(n - 1) * s + (kk - 1) * d + 1 for n, s, kk, d in
             zip(out_spatial, stride, kernel, dilation)]
    if compute or any(padding) or any(r > n for r, n in zip(reach, self.shape[-k:])):
        source = padded(self, out_spatial, kernel, stride, padding, dilation, least, compute)
    views = [source[window_slice(offset, out_spatial, stride, dilation)]
             for offset in offsets(kernel)]
    best = values if values.dtype == source.dtype else np.empty(values.shape, source.dtype)
    np.copyto(best, views[0])
    for view in views[1:]:
        np.maximum(best, view, out=best)
    winner = _first_winners(views, best)
    smallest = np.min(best)
    if smallest != smallest:                       # a NaN: the window's last NaN wins
        for j, view in enumerate(views):
            np.copyto(winner, j, where=np.isnan(view))
    if best is not values:
        np.copyto(values, best, casting="unsafe")
    np.add(np.take(deltas, winner), origins, out=indices)
    if not smallest > least:                       # windows with nothing above -inf
        spatial = self.shape[-k:]
        first = first_positions(out_spatial, spatial, stride, padding, dilation)
        np.copyto(indices, np.broadcast_to(first, indices.shape), where=best == least)


def _first_winners(views: list, best: np.ndarray) -> np.ndarray:
    """Per window, the first offset whose view holds `best`: the count of leading
    offsets that do not (the last offset when none does, as for a NaN maximum)."""
    count = np.uint8 if len(views) < 256 else np.intp
    if len(views) == 1:
        return np.zeros(best.shape, count)
    ahead = np.not_equal(views[0], best)
    winner = ahead.astype(count)
    differs = np.empty(best.shape, np.bool_)
    for view in views[1:-1]:
        np.not_equal(view, best, out=differs)
        np.logical_and(ahead, differs, out=ahead)
        np.add(winner, ahead, out=winner, casting="unsafe")
    return winner


def scatter_to_indices(grad: np.ndarray, indices: np.ndarray, k: int, out: np.ndarray) -> None:
    """Each input element's sum of the gradients of the outputs whose index names it
    (Note [Max pooling in blocks])."""
    if out.size == 0:
        return
    grad, indices, out = planes([grad, indices, out], k)
    spatial = math.prod(out.shape[-k:])
    pooled = math.prod(grad.shape[-k:])

    def block(start: int, stop: int) -> None:
        target = out[start:stop]
        chosen, values = (a[start:stop].reshape(-1, pooled) for a in (indices, grad))
        flat = chosen + (np.arange(len(chosen)) * spatial)[:, None]
        total = np.bincount(flat.ravel(), weights=values.astype(np.float64).ravel(),
                            minlength=target.size)
        np.copyto(target, total.reshape(target.shape), casting="unsafe")
    in_blocks(out.shape[0], math.prod(out.shape[1:]), block)
