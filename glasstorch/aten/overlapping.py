"""Writes through a tensor whose elements share memory, in torch's order.

Note [Overlapping writes]
    A view may reach one memory location from several indices: `x.unfold(0, 3, 1)`,
    `x.as_strided((2, 2), (1, 1))`. torch refuses to write such a tensor only where the
    overlap is cheap to prove (a stride 0: `expand`); otherwise its elementwise loop
    just runs, element after element in TensorIterator's order, and each element reads
    what the earlier ones wrote: ``x = torch.zeros(3)`` then
    ``x.as_strided((2, 2), (1, 1)).add_(101)`` leaves ``[101, 202, 101]``. NumPy instead
    buffers an operation whose output overlaps an input (every read before any write),
    which would leave ``[101, 101, 101]``.

    So a kernel writing an array that overlaps itself runs in waves. The elements are
    ranked, per memory location, in the order TensorIterator visits them; wave k holds
    every location's k-th writer. Within a wave each location is written once, so one
    vectorised kernel call computes it exactly as the loop would, and the waves run in
    order, each reading what the earlier ones wrote. An elementwise result depends only
    on its own location's earlier values, so this is the element-by-element result, in
    as many kernel calls as a location has writers (the unfold's window), not one per
    element. (torch's vectorised inner loop reads a vector's worth of elements before
    writing them, but only along a unit-stride dim, whose elements never share a
    location: the order of the writes to any one location is the loop's.)
"""
from __future__ import annotations

import numpy as np

from .meta.pointwise import iteration_strides


def overlaps_itself(array: np.ndarray) -> bool:
    """Whether two indices of `array` may reach one location; False is certain (the
    strides, sorted, each clear the span of the smaller ones), True may be cautious."""
    if array.flags.c_contiguous or array.flags.f_contiguous:
        return False
    reach = 0
    for stride, size in sorted((st, n) for n, st in zip(array.shape, array.strides) if n > 1):
        if stride <= reach:
            return True
        reach += (size - 1) * stride
    return False


def write_in_order(step, values: list, operands: tuple, out: np.ndarray) -> bool:
    """Run the elementwise ``step(*values, out=...)`` over `out` wave by wave (Note
    [Overlapping writes]); False, having done nothing, when no location of `out` has
    two writers.

    Args:
        step: the kernel, writing its `out` keyword from `values`.
        values: its arguments; those at `operands` may be arrays broadcasting to `out`.
        operands: the positions of the elementwise operands in `values`.
        out: the array written, which `overlaps_itself`.
    """
    shape = out.shape
    arrays = {i: np.broadcast_to(values[i], shape) for i in operands
              if isinstance(values[i], np.ndarray)}
    waves = _waves(out, [out.strides] + [a.strides for a in arrays.values()])
    if waves is None:
        return False
    for wave in waves:
        chunk = list(values)
        for i, array in arrays.items():
            chunk[i] = array[wave]              # read now: earlier waves' writes included
        result = np.empty(len(wave[0]), out.dtype)
        step(*chunk, out=result)
        out[wave] = result
    return True


def _waves(out: np.ndarray, operand_strides: list):
    """The index arrays of each wave, or None when every location has one writer."""
    shape = out.shape
    place = _dot_indices(shape, iteration_strides(operand_strides, shape)).ravel()
    location = _dot_indices(shape, out.strides).ravel()
    by_location = np.lexsort((place, location))      # per location, in visiting order
    sorted_locations = location[by_location]
    count = len(location)
    first = np.ones(count, bool)
    first[1:] = sorted_locations[1:] != sorted_locations[:-1]
    group_start = np.maximum.accumulate(np.where(first, np.arange(count), 0))
    rank = np.empty(count, np.intp)
    rank[by_location] = np.arange(count) - group_start
    last = int(rank.max()) if count else 0
    if last == 0:
        return None
    flat = np.arange(count)
    return [np.unravel_index(flat[rank == k], shape) for k in range(last + 1)]


def _dot_indices(shape: tuple, strides: tuple) -> np.ndarray:
    """Each index of `shape` dotted with `strides`, as an array of `shape`."""
    total = np.zeros(shape, np.int64)
    for dim, (size, stride) in enumerate(zip(shape, strides)):
        total += (np.arange(size, dtype=np.int64) * stride).reshape(
            (size,) + (1,) * (len(shape) - dim - 1))
    return total
