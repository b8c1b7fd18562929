"""The C library's math functions over float arrays, with the same bits on every CPU.

Note [The C library's bits]
    Where torch's CPU code computes one element at a time (Box-Muller for a few
    normals, the samplers' transformations, logspace's powers, an elementwise loop
    over a short, strided or broadcast input) it calls the C library's `log`, `log1p`,
    `cosh`, `pow`, ... (glibc's libm, which Python's `math` calls too). NumPy calls
    the same functions on most CPUs, but on one with AVX-512 (NumPy's AVX512_SKX
    target) it computes float64 exp and log, and through Intel's SVML float32 and
    float64 log1p, expm1, exp2, log2, log10, tan, sinh, cosh, power, arctan2 and the
    inverse trigonometric and hyperbolic functions, with vector code whose results
    differ from the C library's in the last bit for some inputs (NumPy 1.24 did the
    same for float64 sin and cos, NumPy 1.25 and later for float16 as well). So
    torch's bits cannot come from a plain NumPy call there.

    NumPy takes those vector loops only when the output's memory does not partly
    overlap an input's; otherwise its loop calls the C library element by element.
    The functions here copy the argument into ``buffer[1:]`` and write the result to
    ``buffer[:-1]``, a shift in place: an overlap that NumPy's ufunc machinery
    computes element by element without a copy, and that its vector loops refuse. The
    result is the C library's on every CPU, at the scalar loop's speed (a few
    nanoseconds an element). `tests/aten/test_libm.py` checks it against `math`.
"""
from __future__ import annotations

import numpy as np


def _scalar_loop(ufunc: np.ufunc, x, out: np.ndarray | None, *before) -> np.ndarray:
    """``ufunc(*before, x)`` for a real floating `x` through NumPy's scalar loop (see
    the Note), into `out` if given. Complex `x` goes to NumPy as it is: NumPy has no
    vector loops for complex functions.

    A single element's input and output cannot overlap: the buffer then holds a
    second argument, 1.
    """
    x = np.asarray(x)
    if x.dtype.kind != "f":
        return ufunc(*before, x, out=out)
    n = x.size
    buffer = np.empty(n + 1, x.dtype) if n > 1 else np.ones(3, x.dtype)
    arguments, results = buffer[1:], buffer[:-1]
    arguments[:n] = x.ravel()
    ufunc(*before, arguments, out=results)
    result = results[:n].reshape(x.shape)
    if out is None:
        return result
    out[...] = result
    return out


def log(x, out=None) -> np.ndarray:
    """The C library's ``log``, elementwise."""
    return _scalar_loop(np.log, x, out)


def log1p(x, out=None) -> np.ndarray:
    """The C library's ``log1p``, elementwise."""
    return _scalar_loop(np.log1p, x, out)


def exp(x, out=None) -> np.ndarray:
    """The C library's ``exp``, elementwise."""
    return _scalar_loop(np.exp, x, out)


def exp2(x, out=None) -> np.ndarray:
    """The C library's ``exp2``, elementwise."""
    return _scalar_loop(np.exp2, x, out)


def cos(x, out=None) -> np.ndarray:
    """The C library's ``cos``, elementwise."""
    return _scalar_loop(np.cos, x, out)


def sin(x, out=None) -> np.ndarray:
    """The C library's ``sin``, elementwise."""
    return _scalar_loop(np.sin, x, out)


def tan(x, out=None) -> np.ndarray:
    """The C library's ``tan``, elementwise."""
    return _scalar_loop(np.tan, x, out)


def cosh(x, out=None) -> np.ndarray:
    """The C library's ``cosh``, elementwise."""
    return _scalar_loop(np.cosh, x, out)


def sinh(x, out=None) -> np.ndarray:
    """The C library's ``sinh``, elementwise."""
    return _scalar_loop(np.sinh, x, out)


def pow(base: float, exponent, out=None) -> np.ndarray:
    """The C library's ``pow(base, e)`` for each `e` of the float64 `exponent`."""
    return _scalar_loop(np.power, np.asarray(exponent, np.float64), out, np.float64(base))
