"""Cache-sized blocks for kernels that chain several NumPy passes, and the logistic
function written as such a chain.

Note [Chained passes in blocks]
    A kernel written as NumPy calls (``exp``, then ``+ 1``, then ``1 / x``) walks its
    whole operand once per call; over a 4M-element tensor every pass after the first
    re-reads memory the last one evicted. `in_blocks` runs the chain a `BLOCK` of
    elements at a time instead, so the later passes read L2. Blocks of 64K elements
    rather than 16K: with two pool threads each NumPy call hands the GIL over, and on a
    virtual machine waking the waiting thread costs tens of microseconds, so fewer,
    longer calls let the threads overlap (on one thread too the larger blocks measured
    a little faster). Within a block, a number a pass adds or multiplies by goes in as
    a 0-d array of the block's dtype (`constant`): NumPy converts a Python number anew
    on every call (~0.8 us), which over a chain of twenty passes on a 64K block costs as
    much as four of the passes themselves; the 0-d array rounds to the same value, so
    the bits are the same.
"""
from __future__ import annotations

import numpy as np

BLOCK = 65536
_CONSTANTS: dict = {}
_CONSTANTS_KEPT = 256


def constant(value: float, dtype: np.dtype) -> np.ndarray:
    """`value` rounded to `dtype` as a read-only 0-d array, made once (Note [Chained
    passes in blocks]): as a ufunc's operand it gives the result of the Python number
    (dtype and bits), in about half the call's time."""
    key = (value, dtype)
    found = _CONSTANTS.get(key)
    if found is None:
        if len(_CONSTANTS) >= _CONSTANTS_KEPT:     # callers' own parameters vary freely
            _CONSTANTS.clear()
        found = _CONSTANTS[key] = np.array(value, dtype)
        found.flags.writeable = False
    return found


def in_blocks(function, inputs: tuple, out: np.ndarray) -> None:
    """``function(*inputs, out=out)`` a `BLOCK` of elements at a time when every array
    is row-major of `out`'s shape, else in one go, each input read at `out`'s shape (a
    block function may make its temporaries like an input: a gradient batched under
    vmap broadcasts beyond the input it goes with)."""
    dense = out.flags.c_contiguous and all(
        x.shape == out.shape and x.flags.c_contiguous for x in inputs)
    if not dense:
        function(*[np.broadcast_to(x, out.shape) for x in inputs], out=out)
        return
    if out.size <= BLOCK:
        function(*inputs, out=out)
        return
    flat = [x.reshape(-1) for x in inputs]
    target = out.reshape(-1)
    for start in range(0, target.size, BLOCK):
        part = slice(start, start + BLOCK)
        function(*[x[part] for x in flat], out=target[part])


def _logistic_chain(x: np.ndarray, *, out: np.ndarray) -> None:
    one = constant(1, out.dtype)
    np.negative(x, out=out)            # reads x only here: `out` may be x itself
    np.exp(out, out=out)
    np.add(out, one, out=out)
    np.divide(one, out, out=out)       # as np.reciprocal (one rounding), at half its cost


def logistic(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The sigmoid ``1 / (1 + exp(-x))`` of real floating `x`, into `out` (a new array
    when None; `out` may be `x`).

    Computed as torch's vectorized CPU kernel does, in `x`'s precision; at ``x < -88``
    (float32) ``exp(-x)`` overflows to inf and the result is 0, as torch's. One
    exponential and three cheap passes, blocked (Note [Chained passes in blocks]): on
    4M float32 elements a third of SciPy's ``expit``, and NumPy alone suffices.
    ``exp(-x)`` overflows to inf on purpose: callers run muted (aten/quiet.py), as every
    kernel does.
    """
    if out is None:
        out = np.empty(x.shape, x.dtype)
    in_blocks(_logistic_chain, (x,), out)
    return out


def select(mask: np.ndarray, chosen: np.ndarray, other: np.ndarray, out: np.ndarray) -> None:
    """``out = chosen where mask, else other``, bit for bit (NaN payloads and -0.0 kept);
    `chosen` and `other` broadcast to `out`, which may be either of them.

    Large selections are bitwise: ``other ^ ((chosen ^ other) & keep)`` with `keep` a
    word of all ones where `mask` holds. NumPy's masked copy (``copyto(where=)``,
    ``np.where``) branches per element, which a mixed mask mispredicts: 5 to 40 times
    the cost of a bitwise pass. Small ones keep `np.where`: fewer NumPy calls; a mask
    all True or all False copies one side.
    """
    unsigned = _UNSIGNED.get(out.dtype.itemsize)
    if (unsigned is None or out.size <= _SELECT_BY_WHERE_UP_TO
            or chosen.dtype != out.dtype or other.dtype != out.dtype):
        np.copyto(out, np.where(mask, chosen, other))
        return
    if not mask.any() or mask.all():           # one side only (softplus's linear part)
        source = chosen if mask.flat[0] else other
        if source is not out:
            np.copyto(out, source)
        return
    keep = mask.astype(unsigned)
    np.negative(keep, out=keep)                 # True -> all ones, False -> 0
    bits = other.view(unsigned)
    difference = np.bitwise_xor(chosen.view(unsigned), bits, out=np.empty(out.shape, unsigned))
    np.bitwise_and(difference, keep, out=difference)
    np.bitwise_xor(bits, difference, out=out.view(unsigned))


_UNSIGNED = {2: np.uint16, 4: np.uint32, 8: np.uint64}
_SELECT_BY_WHERE_UP_TO = 1024
