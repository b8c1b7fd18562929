"""Range factories: `arange`, `linspace`, `logspace`.

Note [Range values as torch computes them]
    torch's CPU range kernels compute each element from `start`, `step` and the
    element's index in an accumulation type (double for float32 / float64 arange,
    float for the 16-bit floats, int64 for integers), and the compiler fuses
    ``start + step * index`` into one fused multiply-add; `_fma` reproduces that single
    rounding. `arange` fills pairs of SIMD registers: each register starts from its
    first element rounded to the result dtype and adds ``lane * step`` to it, so its
    bits depend on the register width (`_LANES`: AVX2's, which torch's arange kernel
    keeps on AVX-512 CPUs). `linspace` counts the second half of its elements back
    from `end`, so both endpoints are exact; `logspace` does the same without fusing,
    with the C library's ``pow`` (Note [The C library's bits]). With these, `arange`,
    `linspace` and `logspace` give torch's exact bits (`_fma` can round twice only
    when the addend is below about 1e-16 of the product and the product lies on a
    rounding tie).
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ....c10.promotion import default_complex_dtype, get_default_dtype
from ... import libm
from ...binding import get_binding
from ...meta.shape import holds_data
from ...parallel import GRAIN_SIZE, get_num_threads
from ...registry import TensorMeta, composite, op
from .copy import cast_array, checked_scalar, cpp_type_name
from .factory import TENSOR_OPTIONS, check_options


# ----------------------------------------------------------------------------------
# arange
# ----------------------------------------------------------------------------------
# Dtypes torch's CPU range kernels are not compiled for (arange refuses complex too).
_NO_RANGE = (dtypes.bool, dtypes.uint16, dtypes.uint32, dtypes.uint64) + dtypes.FLOAT8_DTYPES


def _check_range_dtype(dtype, name: str) -> None:
    if dtype in _NO_RANGE or (dtype.is_complex and name in ("arange", "range")):
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{scalar_type_name(dtype)}'")


def _arange_dtype(values: tuple, dtype):
    for v in values:
        if isinstance(v, complex):
            checked_scalar(v, dtypes.float64)
    if dtype is not None:
        return dtype
    return get_default_dtype() if any(isinstance(v, float) for v in values) else dtypes.int64


def _arange_bounds(start, end, step, dtype) -> tuple:
    """`start` and `step` in the accumulation type, and the element count.

    int64 results count in integers (the bounds truncated); every other dtype counts
    ``ceil((end - start) / step)`` in float64, as torch does, even when its values
    then step by the truncated integer step (``arange(0, 3, 0.5, dtype=torch.int32)``
    gives six zeros).
    """
    start, end, step = (float(v) if isinstance(v, float) else v for v in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {_number_text(start)} -> {_number_text(end)}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is not dtypes.int64:
        count = math.ceil((float(end) - float(start)) / float(step))
    if not dtype.is_floating_point and not (type(start) is type(end) is type(step) is int):
        start, end, step = (int(checked_scalar(v, dtypes.int64)) for v in (start, end, step))
    if dtype is dtypes.int64:
        if step == 0:
            raise ValueError("step must be nonzero")
        count = _trunc_div(end - start + step - (1 if step > 0 else -1), step)
    if not 0 <= count <= 2**63 - 1:
        raise RuntimeError("invalid size, possible overflow?")
    return start, step, count


def _trunc_div(a: int, b: int) -> int:
    """C's integer division (rounds toward zero), which torch's int64 count uses."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _number_text(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _arange_meta(start, end, step=1, dtype=None, layout=None, device=None, pin_memory=None):
    dtype = _arange_dtype((start, end, step), dtype)
    check_options(layout, pin_memory, dtype)
    _check_range_dtype(dtype, "arange")
    count = _arange_bounds(start, end, step, dtype)[2]
    return TensorMeta((count,), dtype)


# Elements per SIMD register in torch's AVX2 CPU kernels (Note [Range values as torch
# computes them]); other dtypes fill one element at a time.
_LANES = {dtypes.float32: 8, dtypes.float64: 4, dtypes.float16: 16, dtypes.bfloat16: 16}


def _arange_fill(start, end, step, out: np.ndarray) -> None:
    dtype = dtypes.from_numpy_dtype(out.dtype)
    first, step, count = _arange_bounds(start, end, step, dtype)
    if not dtype.is_floating_point:
        out[...] = cast_array(np.arange(count, dtype=np.int64) * step + first, dtype)
        return
    if dtype in (dtypes.float16, dtypes.bfloat16):      # accumulated in float32
        first, step = float(np.float32(first)), float(np.float32(step))
    out[...] = _simd_range(first, step, count, dtype)


def _simd_range(first: float, step: float, count: int, dtype) -> np.ndarray:
    """``first + i * step`` as torch's vectorized loop computes it.

    torch splits a range of more than `GRAIN_SIZE` elements into one chunk per thread.
    In each chunk, pairs of registers of `lanes` elements start from ``first + step * i``
    rounded to `dtype` and add ``lane * step`` to that rounded base; the elements left
    over after the chunk's last pair are computed one by one from `first`.
    """
    lanes = _LANES[dtype]
    index = np.arange(count, dtype=np.float64)
    accumulate = _fma32 if dtype in (dtypes.float16, dtypes.bfloat16) else _fma
    values = cast_array(np.asarray(accumulate(step, index, first)), dtype)
    threads = min(get_num_threads(), -(-count // GRAIN_SIZE)) if count > GRAIN_SIZE else 1
    chunk = -(-count // threads) if count else 0
    for begin in range(0, count, chunk or 1):
        vectorized = slice(begin, begin + (min(count - begin, chunk) // (2 * lanes)) * 2 * lanes)
        block = values[vectorized]
        if block.size:
            lane = (index[vectorized] - begin) % lanes
            base = cast_array(np.repeat(block[::lanes], lanes), dtypes.float64)
            values[vectorized] = cast_array(np.asarray(accumulate(lane, step, base)), dtype)
    return values


@op(f"arange(Scalar end, *, {TENSOR_OPTIONS}) -> Tensor", out=True,
    meta=lambda end, *options: _arange_meta(0, end, 1, *options))
def arange(end, dtype, layout, device, pin_memory, *, out):
    """Values from 0 up to (not including) `end`, one apart; see `arange.start_step`."""
    _arange_fill(0, end, 1, out)


@op(f"arange.start(Scalar start, Scalar end, *, {TENSOR_OPTIONS}) -> Tensor",
    meta=lambda start, end, *options: _arange_meta(start, end, 1, *options))
def arange_start(start, end, dtype, layout, device, pin_memory, *, out):
    """Values from `start` up to (not including) `end`, one apart."""
    _arange_fill(start, end, 1, out)


@op(f"arange.start_step(Scalar start, Scalar end, Scalar step=1, *, {TENSOR_OPTIONS}) -> Tensor",
    meta=_arange_meta, out=True, out_overload="start_out")
def arange_start_step(start, end, step, dtype, layout, device, pin_memory, *, out):
    """A 1-D tensor of the values ``start + i * step`` that lie in ``[start, end)``.

    Args:
        start: the first value (default 0).
        end: the bound, not included.
        step: the gap between values (default 1), of either sign but not 0.
        dtype: default: int64 when `start`, `end` and `step` are all integers (or
            bools), else `torch.get_default_dtype()`.

    Returns:
        Tensor: ``ceil((end - start) / step)`` elements.

    Example::

        >>> torch.arange(5)
        tensor([0, 1, 2, 3, 4])
        >>> torch.arange(1, 2.5, 0.5)
        tensor([1.0000, 1.5000, 2.0000])
    """
    _arange_fill(start, end, step, out)


# ----------------------------------------------------------------------------------
# range (deprecated): arange with `end` included
# ----------------------------------------------------------------------------------
_RANGE_DEPRECATED = (
    "torch.range is deprecated and will be removed in a future release because its behavior "
    "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
    "values in [start, end).")


def _range_bounds(start, end, step, dtype) -> tuple:
    """`start` and `step` as the kernel uses them, and ``floor((end - start) / step) + 1``,
    the element count. Integer dtypes truncate the bounds first, as torch does."""
    if not dtype.is_floating_point:
        start, end, step = (int(v) for v in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {_number_text(start)} -> {_number_text(end)}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    return start, step, math.floor((float(end) - float(start)) / float(step)) + 1


def _range_meta(start, end, step=1, dtype=None, layout=None, device=None, pin_memory=None):
    for v in (start, end, step):
        if isinstance(v, complex):
            checked_scalar(v, dtypes.float64)
    dtype = dtype or get_default_dtype()       # floats even for integer bounds
    check_options(layout, pin_memory, dtype)
    _check_range_dtype(dtype, "range")
    return TensorMeta((_range_bounds(start, end, step, dtype)[2],), dtype)


def _range_fill(start, end, step, out: np.ndarray) -> None:
    """Each element ``start + i * step``, computed as torch's serial range kernel does:
    in float64 (float32 for the 16-bit floats) with one rounding, or in int64."""
    dtype = dtypes.from_numpy_dtype(out.dtype)
    start, step, count = _range_bounds(start, end, step, dtype)
    index = np.arange(count, dtype=np.float64)
    if not dtype.is_floating_point:
        out[...] = cast_array(index.astype(np.int64) * step + start, dtype)
    elif dtype in (dtypes.float16, dtypes.bfloat16):
        out[...] = cast_array(_fma32(float(np.float32(step)), index, float(np.float32(start))),
                              dtype)
    else:
        out[...] = cast_array(np.asarray(_fma(float(step), index, float(start))), dtype)


@op(f"range(Scalar start, Scalar end, *, {TENSOR_OPTIONS}) -> Tensor", function=False,
    meta=lambda start, end, *options: _range_meta(start, end, 1, *options))
def range_(start, end, dtype, layout, device, pin_memory, *, out):
    """Values from `start` to `end` included, one apart; see `range.step`."""
    _range_fill(start, end, 1, out)


@op(f"range.step(Scalar start, Scalar end, Scalar step=1, *, {TENSOR_OPTIONS}) -> Tensor",
    meta=_range_meta, out=True, out_overload="out")
def range_step(start, end, step, dtype, layout, device, pin_memory, *, out):
    """Deprecated: the values ``start + i * step`` from `start` to `end` *included*; use
    `torch.arange`, whose `end` is excluded.

    Args:
        start (Number): the first value.
        end (Number): the last value (included when reached).
        step (Number): the gap between values (default 1).
        dtype: default `torch.get_default_dtype()`, even for integer bounds.

    Returns:
        Tensor: ``floor((end - start) / step) + 1`` elements.

    Example::

        >>> torch.range(1, 4)
        tensor([1., 2., 3., 4.])
    """
    _range_fill(start, end, step, out)


def range_function(*args, **kwargs):
    """``torch.range``: warns that it is deprecated, as torch's argument parser does."""
    warnings.warn(_RANGE_DEPRECATED, UserWarning, stacklevel=2)
    return get_binding("function", "range")(*args, **kwargs)


# ----------------------------------------------------------------------------------
# linspace / logspace
# ----------------------------------------------------------------------------------
def _fma(a, b, c):
    """``a * b + c`` rounded once, in float64 (Note [Range values as torch computes them]).

    The product's rounding error is recovered exactly by Dekker's splitting and the
    sum's by Knuth's two-sum, then both are added back before the final rounding.
    """
    product = a * b
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    product_error = ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    total = product + c
    back = total - product
    sum_error = (product - (total - back)) + (c - back)
    return total + (product_error + sum_error)


def _split(x):
    """`x` as a high part of 26 bits plus the rest, both exact in float64."""
    scaled = 134217729.0 * x
    high = scaled - (scaled - x)
    return high, x - high


def _fma32(a, b, c) -> np.ndarray:
    """A float32 fused multiply-add: the float64 result of float32 inputs is exact enough."""
    return (np.float64(a) * np.asarray(b, np.float64) + np.float64(c)).astype(np.float32)


def _space_dtype(start, end, dtype, name: str):
    inferred = default_complex_dtype() if isinstance(start, complex) or \
        isinstance(end, complex) else get_default_dtype()
    if dtype is None:
        return inferred
    if inferred.is_complex and not dtype.is_complex:
        raise RuntimeError(f"torch.{name}(): inferred dtype {cpp_type_name(inferred)} can't "
                           f"be safely cast to passed dtype {scalar_type_name(dtype)}")
    return dtype


def _space_meta(start, end, steps, dtype, layout, pin_memory, name: str) -> TensorMeta:
    dtype = _space_dtype(start, end, dtype, name)
    check_options(layout, pin_memory, dtype)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    _check_range_dtype(dtype, name)
    return TensorMeta((steps,), dtype)


def _linspace_meta(start, end, steps, dtype=None, layout=None, device=None, pin_memory=None):
    return _space_meta(start, end, steps, dtype, layout, pin_memory, "linspace")


def _linspace_real(start: float, end: float, steps: int, dtype) -> np.ndarray:
    """The real linspace values in the type torch computes them in (float64 for ints)."""
    index = np.arange(steps, dtype=np.float64)
    back = steps - 1 - index
    half = np.arange(steps) < steps // 2
    if dtype is dtypes.float32:
        start32, end32 = np.float32(start), np.float32(end)
        step = (end32 - start32) / np.float32(steps - 1)
        return np.where(half, _fma32(step, index, start32), _fma32(-step, back, end32))
    if dtype in (dtypes.float16, dtypes.bfloat16):      # every operation rounds to 16 bits
        narrow = dtype._np.type
        start16, end16 = narrow(start), narrow(end)
        step = narrow(narrow(np.float32(end16) - np.float32(start16)) /
                      np.float32(narrow(steps - 1)))
        low = start16.astype(np.float32) + (np.float32(step) *
                                            index.astype(narrow).astype(np.float32)).astype(narrow)
        high = end16.astype(np.float32) - (np.float32(step) *
                                           back.astype(narrow).astype(np.float32)).astype(narrow)
        return np.where(half, low, high).astype(narrow)
    step = (end - start) / (steps - 1)
    return np.where(half, _fma(step, index, start), _fma(-step, back, end))


@op(f"linspace(Scalar start, Scalar end, int steps, *, {TENSOR_OPTIONS}) -> Tensor",
    meta=_linspace_meta, out=True)
def linspace(start, end, steps, dtype, layout, device, pin_memory, *, out):
    """`steps` evenly spaced values from `start` to `end`, both included.

    Args:
        start, end: the first and last values (numbers or 0-dim tensors).
        steps: how many values.
        dtype: default: `torch.get_default_dtype()` (its complex twin when `start`
            or `end` is complex). Integer dtypes truncate the exact values.

    Example::

        >>> torch.linspace(0, 10, 5)
        tensor([ 0.0000,  2.5000,  5.0000,  7.5000, 10.0000])
    """
    dtype = dtypes.from_numpy_dtype(out.dtype)
    first = checked_scalar(start, dtype)
    if steps == 1:
        out[...] = first
    elif steps > 1:
        last = checked_scalar(end, dtype)
        out[...] = _space_parts(first, last, steps, dtype, _linspace_real)


def _space_parts(first: np.ndarray, last: np.ndarray, steps: int, dtype, real_part):
    """Apply a real spacing rule to a range, part by part when it is complex."""
    if not dtype.is_complex:
        compute = dtype if dtype.is_floating_point else dtypes.float64
        values = real_part(float(first), float(last), steps, compute)
        return cast_array(values, dtype)
    real = dtype.to_real()
    return (real_part(float(first.real), float(last.real), steps, real)
            + 1j * real_part(float(first.imag), float(last.imag), steps, real))


def _logspace_meta(start, end, steps, base=10.0, dtype=None, layout=None, device=None,
                   pin_memory=None):
    return _space_meta(start, end, steps, dtype, layout, pin_memory, "logspace")


@op(f"logspace(Scalar start, Scalar end, int steps, float base=10.0, *, {TENSOR_OPTIONS}) "
    "-> Tensor", meta=_logspace_meta, out=True)
def logspace(start, end, steps, base, dtype, layout, device, pin_memory, *, out):
    """`steps` values from ``base ** start`` to ``base ** end``, evenly spaced in log.

    Example::

        >>> torch.logspace(0, 2, 3)
        tensor([  1.,  10., 100.])
    """
    dtype = dtypes.from_numpy_dtype(out.dtype)
    if steps == 1:
        with np.errstate(invalid="ignore", over="ignore"):
            if dtype.is_complex:
                value = complex(_complex_power(np.complex128(base), np.complex128(start)))
            else:
                value = float(libm.pow(base, checked_scalar(start, dtypes.float64)))
        out[...] = checked_scalar(value, dtype)
    elif steps > 1:
        first = checked_scalar(start, dtype)
        last = checked_scalar(end, dtype)
        out[...] = _logspace_values(first, last, steps, base, dtype)


def _logspace_values(first: np.ndarray, last: np.ndarray, steps: int, base: float, dtype):
    """torch's exponents: `first` and `last` in `dtype`, the step and powers in float64."""
    index = np.arange(steps, dtype=np.float64)
    half = np.arange(steps) < steps // 2
    if dtype.is_complex:           # all in the complex dtype itself, as torch's loop is
        parts = dtype.to_real()._np
        step = (last - first) / (steps - 1)
        exponent = np.where(half, first + step * index.astype(parts),
                            last - step * (steps - 1 - index).astype(parts))
        return _complex_power(np.asarray(base, dtype._np), exponent)
    span = float(last - first) if dtype.is_floating_point else float(int(last) - int(first))
    step = span / (steps - 1)
    exponent = np.where(half, float(first) + step * index,
                        float(last) - step * (steps - 1 - index))
    with np.errstate(invalid="ignore", over="ignore"):
        return cast_array(libm.pow(base, exponent), dtype)


def _complex_power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """C++'s complex ``pow``: ``exp(exponent * log(base))``, and 0 for a zero base.

    NumPy's own power multiplies repeatedly for integral exponents, which rounds
    differently.
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if base == 0:
            return np.zeros_like(exponent * base)
        return np.exp(exponent * np.log(base))


def _space_of_tensors(name: str, start, end, device) -> tuple:
    """The bounds as numbers, and the device: the Tensor overloads take 0-dim tensors.

    A bound without data (a meta tensor) has no value: its place is taken by 0 of its
    kind and the result is made where the bound is (unless a device is given), as
    torch's meta kernel would make it; that kernel words the 0-dim check more briefly.
    """
    named = [(which, value) for which, value in (("start", start), ("end", end))
             if hasattr(value, "_size")]
    if any(len(value._size) != 0 for _, value in named):
        if not all(holds_data(value) for _, value in named):
            raise RuntimeError("linspace only supports 0-dimensional start and end tensors")
        got = " and ".join(f"{which} with {len(value._size)} dimension(s)"
                           for which, value in named)
        raise RuntimeError(f"{name} only supports 0-dimensional start and end tensors, but "
                           f"got {got}.")
    bounds = []
    for value in (start, end):
        if not hasattr(value, "_size"):
            bounds.append(value)
        elif holds_data(value):
            bounds.append(value.item())
        else:
            bounds.append(0j if value._dtype.is_complex else 0)
            device = device or value._device
    return bounds[0], bounds[1], device


def _declare_tensor_overloads() -> None:
    """linspace / logspace with 0-dim tensor bounds: read their values, then as above."""
    for first, second in (("Tensor", "Tensor"), ("Tensor", "Scalar"), ("Scalar", "Tensor")):
        suffix = f"{first}_{second}"
        lin = (f"linspace.{suffix}({first} start, {second} end, int steps, *, {TENSOR_OPTIONS}) "
               "-> Tensor")
        log = (f"logspace.{suffix}({first} start, {second} end, int steps, float base=10.0, "
               f"*, {TENSOR_OPTIONS}) -> Tensor")
        composite(lin)(_linspace_from_tensors)
        composite(log)(_logspace_from_tensors)


def _linspace_from_tensors(start, end, steps, dtype=None, layout=None, device=None,
                           pin_memory=None):
    start, end, device = _space_of_tensors("linspace", start, end, device)
    return linspace.call(start, end, steps, dtype, layout, device, pin_memory)


def _logspace_from_tensors(start, end, steps, base=10.0, dtype=None, layout=None, device=None,
                           pin_memory=None):
    start, end, device = _space_of_tensors("logspace", start, end, device)
    return logspace.call(start, end, steps, base, dtype, layout, device, pin_memory)


_declare_tensor_overloads()
