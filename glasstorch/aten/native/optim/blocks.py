"""The arithmetic of the optimizer steps: torch's float32 roundings, and one pass over a
parameter group in blocks that stay in the cache.

The fused multiply-adds take the float64 detour of Note [Fused multiply-add in float32]
(aten/native/pointwise/fused_multiply_add.py) without its mending of float32 ties, which
the float64 sum of an update almost never lands on.

Note [One pass over a group]
A step reads and writes every parameter and its state a dozen times (one NumPy call
per operation), with float64 temporaries for the fused multiply-adds. Done a whole
parameter at a time, every pass goes to memory and every temporary is a fresh
allocation of twice the parameter's bytes. So a group's step is cut into blocks of
`BLOCK` elements (dense parameters are seen flat; one whose arrays do not share a
dense layout is one block of its own shape), and the whole update runs block after
block on temporaries allocated once (`Scratch`): a block's arrays and temporaries
together stay in the 2 MiB L2 cache between the operations, and nothing is allocated
per block. Every operation is elementwise, so the cut does not change a result. A
large group is shared between the thread pool's threads by elements, each block going
to the thread whose share it starts in; a group listing one tensor twice is updated
on one thread, in order, as torch's for-loop does.
"""
from __future__ import annotations

import bisect

import numpy as np

from ...parallel import GRAIN_SIZE, SPLIT_SIZE, parallel_for

F32 = np.float32
# elements per block: a float64 temporary of 512 KiB and float32 arrays of 256 KiB, a
# block's working set about the size of the L2 caches (smaller blocks pay NumPy's
# per-call cost more often, larger ones go to memory between the operations)
BLOCK = 65536


def fma(a, b: np.ndarray, c, out: np.ndarray, wide: np.ndarray) -> np.ndarray:
    """``out = a * b + c`` as a fused multiply-add, ties aside (Note [Fused multiply-add
    in float32]).

    `b` is an array, `a` a float32 number or array; `wide` is float64 scratch of `b`'s
    shape. Converting `b` first, working in place and rounding in a last copy is faster
    than NumPy's mixed-dtype loops with a float32 result.
    """
    np.copyto(wide, b)
    np.multiply(wide, a, out=wide)
    np.add(wide, c, out=wide)
    np.copyto(out, wide, casting="unsafe")
    return out


def add_scaled(a: np.ndarray, b: np.ndarray, alpha: float, out: np.ndarray,
               wide: np.ndarray) -> np.ndarray:
    """``out = a + alpha * b`` as torch's ``add(a, b, alpha=alpha)`` on float32."""
    if alpha == 1:
        return np.add(a, b, out=out)
    return fma(F32(alpha), b, a, out, wide)


def lerp(start: np.ndarray, end: np.ndarray, weight: float, out: np.ndarray,
         spare: np.ndarray, wide: np.ndarray) -> np.ndarray:
    """torch's ``lerp(start, end, weight)``: from `end`'s side when ``|weight| >= 0.5``.
    `spare` is float32 scratch for the difference."""
    weight = F32(weight)
    difference = np.subtract(end, start, out=spare)
    if abs(weight) < 0.5:
        return fma(weight, difference, start, out, wide)
    return fma(weight - F32(1), difference, end, out, wide)


def addcmul(a: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float, out: np.ndarray,
            spare: np.ndarray, wide: np.ndarray) -> np.ndarray:
    """torch's ``addcmul(a, t1, t2, value=value)``: ``(value * t1) * t2 + a``, fused."""
    return fma(np.multiply(t1, F32(value), out=spare), t2, a, out, wide)


class Scratch:
    """The temporaries of one thread's blocks: a float64 array (the fused multiply-adds'
    detour) and two float32 ones, allocated once and sliced to each block."""

    def __init__(self) -> None:
        self.wide = np.empty(BLOCK, np.float64)
        self.narrow = (np.empty(BLOCK, F32), np.empty(BLOCK, F32))

    def for_block(self, block: np.ndarray) -> tuple:
        """``(wide, narrow, narrow)`` temporaries of `block`'s shape."""
        if block.ndim == 1 and block.size <= BLOCK:
            size = block.size
            return self.wide[:size], self.narrow[0][:size], self.narrow[1][:size]
        return (np.empty(block.shape, np.float64), np.empty(block.shape, F32),
                np.empty(block.shape, F32))


def blocks(arrays: list) -> list:
    """One parameter's arrays (parameter, gradient, state) cut into blocks: lists of
    equal-shaped pieces, flat slices when all are dense alike, else the arrays whole."""
    first = arrays[0]
    for array in arrays:
        if not array.flags.c_contiguous or array.shape != first.shape:
            return [arrays]
    flat = [a.reshape(-1) for a in arrays]
    if first.size <= BLOCK:
        return [flat]
    return [[a[start:start + BLOCK] for a in flat] for start in range(0, first.size, BLOCK)]


def run_group(kernel, shared: tuple, own: list, arrays: list) -> None:
    """``kernel(shared, own[i], scratch, *pieces)`` over every block of every parameter
    (Note [One pass over a group]).

    Args:
        kernel: the update of one block, in place.
        shared: the group's numbers.
        own: each parameter's own numbers (its step count's corrections), or None.
        arrays: each parameter's arrays, the parameter first.
    """
    work, starts, total = [], [], 0
    for index, one in enumerate(arrays):
        numbers = None if own is None else own[index]
        for pieces in blocks(one):
            work.append((numbers, pieces))
            starts.append(total)
            total += pieces[0].size

    def body(begin: int, end: int) -> None:
        scratch = Scratch()
        for numbers, pieces in work[bisect.bisect_left(starts, begin):
                                    bisect.bisect_left(starts, end)]:
            kernel(shared, numbers, scratch.for_block(pieces[0]), *pieces)

    distinct = len({id(one[0]) for one in arrays}) == len(arrays)
    if total < SPLIT_SIZE or not distinct:
        body(0, total + 1)
    else:
        parallel_for(0, total + 1, GRAIN_SIZE, body)
