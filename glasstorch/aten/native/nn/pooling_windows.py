"""The window arithmetic every sliding pooling operator shares: argument expansion and
checks, output sizes, and the strided slices that visit one kernel offset at a time.

Note [Pooling by kernel offsets]
    A pooling window of `kernel` positions (per spatial dim) starts every `stride`
    positions, `padding` before the input's first element; its positions lie
    `dilation` apart. Rather than loop over output positions, the kernels loop over the
    few kernel offsets: for one offset ``(i, j)``, the input elements the windows read
    form a strided slice of the padded input,
    ``padded[..., i*dH :: sH, j*dW :: sW]`` cut to the output's shape. Max pooling
    keeps a running maximum over those slices (and which offset won); average pooling
    sums them; their backward kernels add the gradient back onto the same slices.
    The padded input is the input inside a border of ``-inf`` (max) or zeros (average),
    wide enough on the right for the last window `ceil_mode` allows.

Note [Pooling in blocks of planes]
    The kernels read their arrays as planes, ``(rows, *spatial)`` (a view when the
    layout allows; otherwise rows are the first dim's entries, a whole sample or
    channel each), and walk them in blocks of planes of about `BLOCK` input elements,
    each block done whole while its padded copy and temporaries stay in the cache;
    `parallel_for` shares the blocks among the pool's threads (NumPy releases the GIL).
    A block's results are those of the whole array: each element's arithmetic, and
    its order, stays the same.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ....c10.layout import channels_last, channels_last_3d
from ...parallel import GRAIN_SIZE, parallel_for
from ..creation.copy import memory_format_strides, suggest_memory_format

BLOCK = 65536        # input elements per block: its temporaries fit a core's L2 cache


def planes(arrays: list, k: int) -> list:
    """`arrays` as ``(rows, *spatial)`` views when every one allows it, else as they
    are (their first dim is then the one blocks split)."""
    try:
        return [a.reshape((-1,) + a.shape[-k:], copy=False) for a in arrays]
    except ValueError:
        return arrays


def in_blocks(rows: int, plane: int, body, block: int | None = None) -> None:
    """``body(start, stop)`` over blocks of rows of about `block` elements (`BLOCK`
    unless given), the blocks shared among the pool's threads (Note [Pooling in blocks
    of planes])."""
    per_block = max(1, (block or BLOCK) // max(plane, 1))

    def chunk(start: int, stop: int) -> None:
        for first in range(start, stop, per_block):
            body(first, min(first + per_block, stop))
    parallel_for(0, rows, max(1, GRAIN_SIZE // max(plane, 1)), chunk)


def expand(name: str, value, k: int, what: str, may_be_empty: bool = False) -> tuple:
    """A pooling argument as `k` ints: a single int repeats (torch's rule for int[k]);
    `stride` may be empty, meaning the kernel size."""
    value = tuple(value)
    if len(value) == 1:
        return value * k
    if len(value) == k or (may_be_empty and not value):
        return value
    words = {2: "two", 3: "three"}[k]
    if what == "stride":
        raise RuntimeError(f"{name}: stride must either be omitted, a single int, or a tuple "
                           f"of {words} ints")
    verb = "be either" if what == "dilation" else "either be"
    raise RuntimeError(f"{name}: {what} must {verb} a single int, or a tuple of {words} ints")


def output_size(size: int, kernel: int, pad: int, stride: int, dilation: int,
                ceil_mode: bool) -> int:
    """How many windows fit along one dim; with `ceil_mode` a last partial window
    counts when it starts inside the input or its left padding."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > ((kernel - 1) * dilation + 1) // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                           f"pad={pad}, kernel_size={kernel} and dilation={dilation}")
    span = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    count = span // stride + 1
    if ceil_mode and (count - 1) * stride >= size + pad:
        count -= 1
    return count


def check_positive(k: int, kernel, stride, dilation) -> None:
    """torch's pool{2,3}d_shape_check: kernel, stride and dilation above zero."""
    axes = ("T", "H", "W")[3 - k:]
    checks = (("kernel size", kernel, "k"), ("stride", stride, "d"), ("dilation", dilation,
                                                                       "dilation"))
    for what, values, tag in checks:
        if values is not None and min(values) <= 0:
            named = " ".join(f"{tag}{axis}: {v}" for axis, v in zip(axes, values))
            raise RuntimeError(f"{what} should be greater than zero, but got {named}")


def check_output(in_shape: tuple, out_shape: tuple) -> None:
    """Every spatial output size at least one (the message lists channels and sizes)."""
    if min(out_shape[1:]) < 1:
        given = "x".join(str(n) for n in in_shape)
        calculated = "x".join(str(n) for n in out_shape)
        raise RuntimeError(f"Given input size: ({given}). Calculated output size: "
                           f"({calculated}). Output size is too small")


def offsets(kernel: tuple):
    """Every kernel offset, as a tuple of one index per spatial dim, in row-major order."""
    return itertools.product(*(range(n) for n in kernel))


def padded(array: np.ndarray, out_spatial: tuple, kernel, stride, padding, dilation,
           fill, dtype=None) -> np.ndarray:
    """`array` inside a border of `fill` wide enough for every window
    (Note [Pooling by kernel offsets])."""
    k = len(kernel)
    spatial = array.shape[-k:]
    sizes = tuple(max(padding[a] + spatial[a],
                      (out_spatial[a] - 1) * stride[a] + (kernel[a] - 1) * dilation[a] + 1)
                  for a in range(k))
    result = np.full(array.shape[:-k] + sizes, fill, dtype=dtype or array.dtype)
    inside = tuple(slice(padding[a], padding[a] + spatial[a]) for a in range(k))
    result[(Ellipsis,) + inside] = array
    return result


def window_slice(offset: tuple, out_spatial: tuple, stride, dilation) -> tuple:
    """The index of the padded input's elements at kernel `offset` of every window."""
    return (Ellipsis,) + tuple(
        slice(i * d, i * d + (n - 1) * s + 1, s)
        for i, n, s, d in zip(offset, out_spatial, stride, dilation))


def first_positions(out_spatial: tuple, spatial: tuple, stride, padding, dilation) -> np.ndarray:
    """Each window's first position inside the input, as a flat index over the spatial
    dims: the index max pooling reports for a window with no larger value than -inf."""
    flat = np.zeros(out_spatial, np.int64)
    for axis, (n, s, p, d) in enumerate(zip(out_spatial, stride, padding, dilation)):
        start = np.arange(n) * s - p
        start = np.where(start < 0, start + (-start + d - 1) // d * d, start)
        shape = [1] * len(out_spatial)
        shape[axis] = n
        flat = flat + start.reshape(shape) * math.prod(spatial[axis + 1:])
    return flat


def window_origins(out_spatial: tuple, spatial: tuple, stride, padding) -> np.ndarray:
    """Each window's start as a flat index over the spatial dims (it may lie in the
    padding: only an offset's delta added to it names an element)."""
    flat = np.zeros(out_spatial, np.int64)
    for axis, (n, s, p) in enumerate(zip(out_spatial, stride, padding)):
        shape = [1] * len(out_spatial)
        shape[axis] = n
        start = np.arange(n) * s - p
        flat = flat + start.reshape(shape) * math.prod(spatial[axis + 1:])
    return flat


def offset_deltas(spatial: tuple, kernel, dilation) -> np.ndarray:
    """Each kernel offset's distance from its window's start, as a flat index (row-major
    over the offsets, as `offsets` visits them)."""
    deltas = np.zeros((), np.int64)
    for axis, (size, d) in enumerate(zip(kernel, dilation)):
        deltas = np.add.outer(deltas, np.arange(size) * d * math.prod(spatial[axis + 1:]))
    return deltas.reshape(-1)


def result_strides(self, shape: tuple) -> tuple | None:
    """Channels-last strides for a result of `shape` when the input is laid out
    channels-last (torch keeps the layout), else None (contiguous)."""
    layout = suggest_memory_format(self)
    if layout is channels_last or layout is channels_last_3d:
        return memory_format_strides(shape, layout)
    return None
