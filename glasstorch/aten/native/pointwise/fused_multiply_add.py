"""``a * b + c`` rounded once to float32, as torch's vectorized CPU kernels compute it.

Note [Fused multiply-add in float32]
    torch's CPU kernels for ``add(alpha=)``, ``lerp`` and ``addcmul`` compute
    ``a * b + c`` with one fused multiply-add (its AVX2 and AVX512 kernels): a single
    rounding. NumPy has no fused multiply-add, but the product of two float32 numbers
    is exact in float64 (24 + 24 significant bits fit in 53), so the sum computed in
    float64 is the exact value rounded once, and rounding it to float32 is a second
    rounding. The two agree except where the float64 sum lands exactly halfway between
    two float32 numbers while the exact value did not (1 + 2**-23 plus a product just
    under 2**-24 rounds up instead of down): those ties are found from the float64 bits
    and recomputed exactly (`_mend_ties`, a rounding to odd).

    The common case, ``p.add_(g, alpha=a)`` on dense float32 tensors of one shape, is
    BLAS's ``saxpy``, whose kernels use the processor's fused multiply-add where it has
    one: one pass over memory where the detour makes five. It is NumPy's own OpenBLAS,
    called through ctypes, and used only when a probe of the tie above shows that it
    does fuse (`_fuses`).
"""
from __future__ import annotations

import ctypes
import functools

import numpy as np

F32 = np.float32
_LOW_BITS = np.uint64((1 << 29) - 1)     # the float64 bits below a float32's last place
_HALF_PLACE = np.uint64(1 << 28)         # exactly half a float32 last place: a tie
# float64 bits of the smallest normal float32: below it float32's ties lie elsewhere
_TINY_BITS = np.uint64(np.float64(2.0 ** -126).view(np.uint64))
_MAGNITUDE = np.uint64((1 << 63) - 1)


def fma_float32(a, b: np.ndarray, c, out: np.ndarray) -> np.ndarray:
    """``out = a * b + c`` rounded once to float32 (Note [Fused multiply-add in float32]).

    Args:
        a: a float32 number or array; b: a float32 array; c: a float32 number or array
            (broadcast together to `out`'s shape).
        out: the float32 result; it may be `b` or `c`.

    Returns:
        ndarray: `out`.
    """
    total = np.multiply(b, np.asarray(a, np.float64), out=np.empty(out.shape))
    np.add(total, c, out=total)
    mended = _mend_ties(total, a, b, c)
    np.copyto(out, total, casting="unsafe")
    if mended is not None:
        out[mended[0]] = mended[1]
    return out


def fused_multiply_add(a, b, c, out: np.ndarray) -> np.ndarray:
    """``out = a * b + c``, rounded once for float32 as torch's kernels fuse it; other
    dtypes round the product and the sum (`b` an array, `a` and `c` numbers or arrays of
    the result's dtype; a 0-dim `out` is written through a 1-element view)."""
    if out.dtype == F32:
        fma_float32(a, b, c, out.reshape(out.shape or (1,)))
    else:
        np.add(np.multiply(a, b), c, out=out, casting="unsafe")
    return out


def _mend_ties(total: np.ndarray, a, b, c):
    """Where rounding the float64 `total` to float32 may round the exact sum wrongly
    (float32 ties, and the float32 subnormal range, nonzero): ``(mask, exact values)``,
    or None when there are none. Read before `out` (maybe `b` or `c`) is written."""
    bits = total.view(np.uint64)
    magnitude = bits & _MAGNITUDE
    suspect = (bits & _LOW_BITS) == _HALF_PLACE
    suspect |= (magnitude < _TINY_BITS) & (magnitude != 0)
    count = np.count_nonzero(suspect)
    if count == 0:
        return None
    if 8 * count > total.size:          # many ties (operands with few bits): no gathers
        suspect = Ellipsis
    shape = total.shape
    product = (np.broadcast_to(b, shape)[suspect].astype(np.float64)
               * np.broadcast_to(np.asarray(a, np.float64), shape)[suspect])
    addend = np.broadcast_to(c, shape)[suspect].astype(np.float64)
    return suspect, _sum_rounded_to_odd(product, addend).astype(F32)


def _sum_rounded_to_odd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x + y`` in float64 rounded to odd: an inexact sum takes the neighbour with an
    odd last bit, so the one rounding to float32 that follows is the exact sum's."""
    total = x + y
    x_part = total - y                                  # Knuth's two-sum: the error
    error = (x - x_part) + (y - (total - x_part))
    even = (total.view(np.uint64) & np.uint64(1)) == 0
    nudge = (error != 0) & even & np.isfinite(total)
    total[nudge] = np.nextafter(total[nudge], np.copysign(np.inf, error[nudge]))
    return total


def axpy(alpha, x: np.ndarray, c, out: np.ndarray) -> bool:
    """``out = alpha * x + c`` fused, by BLAS, when it can: `x` and `out` dense float32
    arrays of one shape; `c` is `out` (then `x` may be `out` too) or is copied into
    `out` first (then `x` must not overlap `out`); a nonzero `alpha` (BLAS skips the
    work for 0, where torch makes ``0 * inf`` NaN); a BLAS that fuses. Returns whether
    it was done."""
    if not (alpha != 0 and isinstance(x, np.ndarray) and out.dtype == x.dtype == F32
            and x.shape == out.shape
            and x.flags.c_contiguous and out.flags.c_contiguous and out.size):
        return False
    saxpy = _saxpy()
    if saxpy is None:
        return False
    target, source = _address(out), _address(x)
    # both dense and of one size: they overlap exactly when their byte ranges meet
    overlap = source != target and abs(source - target) < out.nbytes
    if _alike(c, out, target):                   # in place: `x` may be `out` itself
        if overlap:
            return False
    else:
        if overlap or source == target:
            return False
        np.copyto(out, c)
    saxpy(out.size, alpha, source, 1, target, 1)
    return True


def _address(array: np.ndarray) -> int:
    """The address of a dense array's first element. A ctypes view of its buffer costs a
    fraction of ``array.ctypes.data``, which small calls feel; a read-only buffer has
    none."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except TypeError:
        return array.ctypes.data


def _alike(a, b: np.ndarray, address: int) -> bool:
    """Whether `a` is array `b` (at `address`) or a view of exactly its elements."""
    return a is b or (isinstance(a, np.ndarray) and a.shape == b.shape
                      and a.strides == b.strides and a.flags.c_contiguous
                      and _address(a) == address)


# cblas_saxpy under the names OpenBLAS builds give it, with the width of their integers
_SAXPY_NAMES = (("scipy_cblas_saxpy64_", ctypes.c_int64), ("cblas_saxpy64_", ctypes.c_int64),
                ("scipy_cblas_saxpy", ctypes.c_int), ("cblas_saxpy", ctypes.c_int))


@functools.cache
def _saxpy():
    """``cblas_saxpy(n, alpha, x, incx, y, incy)`` of the OpenBLAS NumPy loaded (the one
    held to glasstorch's threads, Note [One owner for the cores]; ctypes releases the
    GIL during the call), when it rounds once; else None."""
    from ..linalg.blas_threads import OPENBLAS
    for name, integer in _SAXPY_NAMES:
        function = getattr(OPENBLAS, name, None)
        if function is not None:
            function.restype = None
            function.argtypes = (integer, ctypes.c_float, ctypes.c_void_p, integer,
                                 ctypes.c_void_p, integer)
            return function if _fuses(function) else None
    return None


def _fuses(saxpy) -> bool:
    """Whether `saxpy` rounds once: 1 + 2**-23 plus a product just under 2**-24 must
    round down, in the vectorized body and in the tail."""
    y = np.full(37, 1 + 2.0 ** -23, F32)
    x = np.full(37, 1 + 2.0 ** -18, F32)
    saxpy(37, F32(2.0 ** -24 * (1 - 2.0 ** -18)), x.ctypes.data, 1, y.ctypes.data, 1)
    return bool(np.all(y == F32(1 + 2.0 ** -23)))
