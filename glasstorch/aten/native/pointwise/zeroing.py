"""``out = 0 where condition(source) else values`` over cache-sized bands of large dense
arrays, the bands shared by the pool's threads: relu and its backward
(`threshold_backward`) on a convnet's activations.

`zero_where` makes its zeros with four NumPy passes (a comparison, its mask widened to
words, a decrement, a bitwise and); done on a whole activation of megabytes, each pass
goes back to memory. Cut into bands of `BAND` elements, the passes after the first
read the band from the cache, and the bands spread over the threads. Every element is
computed as `zero_where` computes it, so the results are the same bits.
"""
from __future__ import annotations

import numpy as np

from ...parallel import GRAIN_SIZE, SPLIT_SIZE, parallel_for
from ...pointwise import zero_where

BAND = 65536        # elements per band: a band's mask and words fit a core's L2 cache


def zero_where_in_bands(condition, source: np.ndarray, values: np.ndarray,
                        out: np.ndarray) -> None:
    """``zero_where(condition(source), values, out)``, in bands over the pool when the
    arrays are large, C-contiguous and of one shape (otherwise in one call)."""
    arrays = (source, values, out)
    if out.size < SPLIT_SIZE or any(a.shape != out.shape or not a.flags.c_contiguous
                                    for a in arrays):
        zero_where(condition(source), values, out)
        return
    flat = [a.reshape(-1) for a in arrays]

    def bands(start: int, stop: int) -> None:
        for first in range(start, stop, BAND):
            part_source, part_values, part_out = (a[first:min(first + BAND, stop)]
                                                  for a in flat)
            zero_where(condition(part_source), part_values, part_out)
    parallel_for(0, out.size, GRAIN_SIZE, bands)
