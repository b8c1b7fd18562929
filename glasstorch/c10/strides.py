"""Strides: the row-major strides of a shape, and torch's contiguity rules.

Strides count elements. Row-major strides are cached by shape, since a program uses a
few hundred shapes over and over and every result of a kernel needs them.
"""
from __future__ import annotations


def contiguous_strides(size: tuple) -> tuple:
    """Row-major strides of `size`, as torch computes them (size-0/1 dims count as 1).

    Example: ``contiguous_strides((2, 3, 4)) == (12, 4, 1)``.
    """
    cached = _STRIDES_CACHE.get(size)
    if cached is not None:
        return cached
    strides = []
    step = 1
    for s in reversed(size):
        strides.append(step)
        step *= s if s > 1 else 1
    strides.reverse()
    strides = tuple(strides)
    if len(_STRIDES_CACHE) < 4096:      # shapes repeat: a model uses a few hundred
        _STRIDES_CACHE[size] = strides
    return strides


_STRIDES_CACHE: dict = {}


def is_contiguous_strides(size: tuple, stride: tuple) -> bool:
    """torch's rule: dense row-major, ignoring the strides of size-1 dims; empty is contiguous."""
    if 0 in size:
        return True
    expected = 1
    for s, st in zip(reversed(size), reversed(stride)):
        if s != 1:
            if st != expected:
                return False
            expected *= s
    return True


def is_channels_last_strides(size: tuple, stride: tuple) -> bool:
    """Dense with channels (dim 1) innermost, then the spatial dims, then batch."""
    order = [1] + list(range(len(size) - 1, 1, -1)) + [0]
    expected = 1
    for d in order:
        s = size[d]
        if s == 0:
            return True
        if s != 1:
            if stride[d] != expected:
                return False
            expected *= s
    return True
