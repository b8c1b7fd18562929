"""Factories: operators that make new tensors from sizes and options, not from inputs.

They have no tensor arguments, so the `device` argument (or the default device)
chooses the backend. The meta rule settles shape and dtype; the kernel fills the
allocated result. The `*_like` and `new_*` forms are composites over these, taking
their defaults from a tensor.

Note [Range values as torch computes them]
    torch's CPU range kernels compute each element from `start`, `step` and the
    element's index in an accumulation type (double for float32 / float64 arange,
    float for the 16-bit floats, int64 for integers), and the compiler fuses
    ``start + step * index`` into one fused multiply-add. `_fma` reproduces that single
    rounding, so `arange(0., 1, .1)` and `linspace(a, b, n)` give torch's exact bits.
    `linspace` counts the second half of its elements back from `end`, so that both
    endpoints are exact.
"""
from __future__ import annotations

import math

import numpy as np

from ...c10 import dtype as dtypes
from ...c10.dtype import scalar_type_name
from ...c10.layout import strided
from ...c10.promotion import default_complex_dtype, get_default_dtype, scalar_dtype
from ..registry import TensorMeta, composite, op
from .copy import (cast_array, checked_scalar, cpp_type_name, fill_, memory_format_strides,
                   strides_like, zero_)

_OPTIONS = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"


# ----------------------------------------------------------------------------------
# Checks shared by every factory
# ----------------------------------------------------------------------------------
def check_sizes(size) -> tuple:
    """Refuse negative sizes, as torch does before allocating."""
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    return tuple(size)


def check_options(layout, pin_memory, dtype=None) -> None:
    """glasstorch makes strided tensors only, in pageable memory, of storable dtypes."""
    if layout is not None and layout is not strided:
        raise NotImplementedError(f"glasstorch does not support layout {layout} yet")
    if pin_memory:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no "
                           "pinned memory allocator is available on this system.")
    if dtype is not None and dtype._np is None:
        raise RuntimeError(f"glasstorch cannot store {dtype} tensors (NumPy has no such type)")


def factory_meta(size, dtype=None, layout=None, device=None, pin_memory=None,
                 memory_format=None) -> TensorMeta:
    """Result of a sized factory: the sizes given, the dtype given or the default."""
    dtype = dtype or get_default_dtype()
    check_options(layout, pin_memory, dtype)
    size = check_sizes(size)
    return TensorMeta(size, dtype, memory_format_strides(size, memory_format))


# ----------------------------------------------------------------------------------
# empty / empty_strided / zeros / ones / full / scalar_tensor
# ----------------------------------------------------------------------------------
@op(f"empty.memory_format(SymInt[] size, *, {_OPTIONS}, MemoryFormat? memory_format=None) "
    "-> Tensor", meta=factory_meta, out=True, out_overload="out")
def empty(size, dtype, layout, device, pin_memory, memory_format, *, out):
    """A tensor of the given size whose elements are not initialised.

    Args:
        size: the sizes, as varargs or one sequence.
        dtype: the element type (default: `torch.get_default_dtype()`).
        device: where to allocate (default: the default device).
        memory_format: the layout of the strides (row-major unless `channels_last`).
        requires_grad: whether autograd records operations on the result.

    Example::

        >>> torch.empty(2, 3).shape
        torch.Size([2, 3])
    """


def _strided_meta(size, stride, dtype=None, layout=None, device=None, pin_memory=None):
    dtype = dtype or get_default_dtype()
    check_options(layout, pin_memory, dtype)
    if len(stride) != len(size):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality "
                           f"of strides ({len(stride)})")
    size = check_sizes(size)
    if any(st < 0 for st in stride):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    return TensorMeta(size, dtype, tuple(stride))


@op(f"empty_strided(SymInt[] size, SymInt[] stride, *, {_OPTIONS}) -> Tensor",
    meta=_strided_meta, out=True)
def empty_strided(size, stride, dtype, layout, device, pin_memory, *, out):
    """An uninitialised tensor with explicit strides (in elements).

    Example::

        >>> torch.empty_strided((2, 3), (1, 2)).stride()
        (1, 2)
    """


def _zeros_meta(size, dtype=None, layout=None, device=None, pin_memory=None) -> TensorMeta:
    # torch's CPU zeros words its size check apart from every other factory
    if any(s < 0 for s in size) and (device is None or device.type == "cpu"):
        from ...c10.device import get_default_device
        if (device or get_default_device()).type == "cpu":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
    return factory_meta(size, dtype, layout, device, pin_memory)


@op(f"zeros(SymInt[] size, *, {_OPTIONS}) -> Tensor", meta=_zeros_meta, out=True)
def zeros(size, dtype, layout, device, pin_memory, *, out):
    """A tensor filled with 0.

    Example::

        >>> torch.zeros(2, 3)
        tensor([[0., 0., 0.],
                [0., 0., 0.]])
    """
    out.fill(0)


@op(f"ones(SymInt[] size, *, {_OPTIONS}) -> Tensor", meta=factory_meta, out=True)
def ones(size, dtype, layout, device, pin_memory, *, out):
    """A tensor filled with 1.

    Example::

        >>> torch.ones(3, dtype=torch.int64)
        tensor([1, 1, 1])
    """
    out.fill(1)


def _full_meta(size, fill_value, dtype=None, layout=None, device=None, pin_memory=None):
    dtype = dtype or scalar_dtype(fill_value)
    check_options(layout, pin_memory, dtype)
    checked_scalar(fill_value, dtype)
    return TensorMeta(check_sizes(size), dtype)


@op(f"full(SymInt[] size, Scalar fill_value, *, {_OPTIONS}) -> Tensor", meta=_full_meta,
    out=True)
def full(size, fill_value, dtype, layout, device, pin_memory, *, out):
    """A tensor filled with `fill_value`.

    Args:
        size: the sizes, as one sequence.
        fill_value: the value; without `dtype` it picks the dtype (bool -> bool,
            int -> int64, float -> the default dtype, complex -> its complex twin).

    Raises:
        RuntimeError: if `fill_value` does not fit `dtype`.

    Example::

        >>> torch.full((2,), 7)
        tensor([7, 7])
    """
    out[...] = checked_scalar(fill_value, dtypes.from_numpy_dtype(out.dtype))


def _scalar_tensor_meta(s, dtype=None, layout=None, device=None, pin_memory=None):
    dtype = dtype or get_default_dtype()
    check_options(layout, pin_memory, dtype)
    checked_scalar(s, dtype)
    return TensorMeta((), dtype)


@op(f"scalar_tensor(Scalar s, *, {_OPTIONS}) -> Tensor", meta=_scalar_tensor_meta, out=True)
def scalar_tensor(s, dtype, layout, device, pin_memory, *, out):
    """A 0-dim tensor holding `s`, of the default dtype unless `dtype` is given.

    Example::

        >>> torch.scalar_tensor(3)
        tensor(3.)
    """
    out[...] = checked_scalar(s, dtypes.from_numpy_dtype(out.dtype))


# ----------------------------------------------------------------------------------
# arange
# ----------------------------------------------------------------------------------
# Dtypes torch's CPU range kernels are not compiled for (arange refuses complex too).
_NO_RANGE = (dtypes.bool, dtypes.uint16, dtypes.uint32, dtypes.uint64) + dtypes.FLOAT8_DTYPES


def _check_range_dtype(dtype, name: str) -> None:
    if dtype in _NO_RANGE or (dtype.is_complex and name == "arange"):
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
    ``ceil((end - start) / step)`` in float64, as torch does.
    """
    start, end, step = (float(v) if isinstance(v, float) else v for v in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {_number_text(start)} -> {_number_text(end)}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype.is_floating_point:
        count = math.ceil((end - start) / step)
    else:
        start, end, step = (int(checked_scalar(v, dtypes.int64)) for v in (start, end, step))
        if dtype is not dtypes.int64:
            count = math.ceil((float(end) - float(start)) / float(step))
        elif step == 0:
            raise ValueError("step must be nonzero")
        else:
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


def _arange_fill(start, end, step, out: np.ndarray) -> None:
    dtype = dtypes.from_numpy_dtype(out.dtype)
    first, step, count = _arange_bounds(start, end, step, dtype)
    index = np.arange(count, dtype=np.float64 if dtype.is_floating_point else np.int64)
    if not dtype.is_floating_point:
        values = index * step + first
    elif dtype in (dtypes.float16, dtypes.bfloat16):       # accumulated in float32
        values = _fma32(np.float32(step), index, np.float32(first))
    else:
        values = _fma(np.float64(step), index, np.float64(first))
    out[...] = cast_array(values, dtype)


@op(f"arange(Scalar end, *, {_OPTIONS}) -> Tensor", out=True,
    meta=lambda end, *options: _arange_meta(0, end, 1, *options))
def arange(end, dtype, layout, device, pin_memory, *, out):
    """Values from 0 up to (not including) `end`, one apart; see `arange.start_step`."""
    _arange_fill(0, end, 1, out)


@op(f"arange.start(Scalar start, Scalar end, *, {_OPTIONS}) -> Tensor",
    meta=lambda start, end, *options: _arange_meta(start, end, 1, *options))
def arange_start(start, end, dtype, layout, device, pin_memory, *, out):
    """Values from `start` up to (not including) `end`, one apart."""
    _arange_fill(start, end, 1, out)


@op(f"arange.start_step(Scalar start, Scalar end, Scalar step=1, *, {_OPTIONS}) -> Tensor",
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


@op(f"linspace(Scalar start, Scalar end, int steps, *, {_OPTIONS}) -> Tensor",
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


@op(f"logspace(Scalar start, Scalar end, int steps, float base=10.0, *, {_OPTIONS}) "
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
                value = complex(np.power(np.complex128(base), np.complex128(start)))
            else:
                value = float(np.power(np.float64(base), checked_scalar(start, dtypes.float64)))
        out[...] = checked_scalar(value, dtype)
    elif steps > 1:
        first = checked_scalar(start, dtype)
        last = checked_scalar(end, dtype)
        out[...] = _logspace_values(first, last, steps, base, dtype)


def _logspace_values(first: np.ndarray, last: np.ndarray, steps: int, base: float, dtype):
    """torch's exponents: `first` and `last` in `dtype`, the step and powers in float64."""
    index = np.arange(steps, dtype=np.float64)
    half = np.arange(steps) < steps // 2
    if dtype.is_complex:
        step = (last - first) / (steps - 1)
        exponent = np.where(half, first + step * index, last - step * (steps - 1 - index))
        return np.power(np.asarray(base, dtype._np), exponent.astype(dtype._np))
    span = float(last - first) if dtype.is_floating_point else float(int(last) - int(first))
    step = span / (steps - 1)
    exponent = np.where(half, _fma(step, index, float(first)),
                        _fma(-step, steps - 1 - index, float(last)))
    with np.errstate(invalid="ignore", over="ignore"):
        return cast_array(np.power(np.float64(base), exponent), dtype)


def _space_of_tensors(name: str, start, end):
    """The Tensor overloads of linspace / logspace accept 0-dim tensors only."""
    for which, value in (("start", start), ("end", end)):
        if hasattr(value, "_size") and len(value._size) != 0:
            raise RuntimeError(f"{name} only supports 0-dimensional start and end tensors, but "
                               f"got {which} with {len(value._size)} dimension(s).")
    return (start.item() if hasattr(start, "_size") else start,
            end.item() if hasattr(end, "_size") else end)


def _declare_tensor_overloads() -> None:
    """linspace / logspace with 0-dim tensor bounds: read their values, then as above."""
    for first, second in (("Tensor", "Tensor"), ("Tensor", "Scalar"), ("Scalar", "Tensor")):
        suffix = f"{first}_{second}"
        lin = (f"linspace.{suffix}({first} start, {second} end, int steps, *, {_OPTIONS}) "
               "-> Tensor")
        log = (f"logspace.{suffix}({first} start, {second} end, int steps, float base=10.0, "
               f"*, {_OPTIONS}) -> Tensor")
        composite(lin)(_linspace_from_tensors)
        composite(log)(_logspace_from_tensors)


def _linspace_from_tensors(start, end, steps, dtype=None, layout=None, device=None,
                           pin_memory=None):
    start, end = _space_of_tensors("linspace", start, end)
    return linspace.call(start, end, steps, dtype, layout, device, pin_memory)


def _logspace_from_tensors(start, end, steps, base=10.0, dtype=None, layout=None, device=None,
                           pin_memory=None):
    start, end = _space_of_tensors("logspace", start, end)
    return logspace.call(start, end, steps, base, dtype, layout, device, pin_memory)


_declare_tensor_overloads()


# ----------------------------------------------------------------------------------
# eye
# ----------------------------------------------------------------------------------
def _eye_meta(n, m=None, dtype=None, layout=None, device=None, pin_memory=None):
    dtype = dtype or get_default_dtype()
    check_options(layout, pin_memory, dtype)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return TensorMeta((n, n if m is None else m), dtype)


@op(f"eye(SymInt n, *, {_OPTIONS}) -> Tensor", out=True,
    meta=lambda n, *options: _eye_meta(n, None, *options))
def eye(n, dtype, layout, device, pin_memory, *, out):
    """The n-by-n identity matrix; see `eye.m`."""
    _fill_eye(out)


@op(f"eye.m(SymInt n, SymInt m, *, {_OPTIONS}) -> Tensor", meta=_eye_meta, out=True,
    out_overload="m_out")
def eye_m(n, m, dtype, layout, device, pin_memory, *, out):
    """A 2-D tensor with ones on the diagonal and zeros elsewhere.

    Args:
        n: the number of rows.
        m: the number of columns (default: `n`).

    Example::

        >>> torch.eye(2, 3)
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    _fill_eye(out)


def _fill_eye(out: np.ndarray) -> None:
    out.fill(0)
    np.fill_diagonal(out, 1)


# ----------------------------------------------------------------------------------
# *_like: shaped like a tensor, with its dtype and device unless told otherwise
# ----------------------------------------------------------------------------------
_LIKE = f"{_OPTIONS}, MemoryFormat? memory_format=None"


@composite(f"empty_like(Tensor self, *, {_LIKE}) -> Tensor")
def empty_like(self, dtype=None, layout=None, device=None, pin_memory=None,
               memory_format=None):
    """An uninitialised tensor with the shape of `input` (and its dtype and device).

    Args:
        input: the tensor to take the shape, dtype and device from.
        dtype, device: override those of `input`.
        memory_format: default ``torch.preserve_format``: the strides of `input` when
            it is dense, else dense strides in the same order of dims.

    Example::

        >>> torch.empty_like(torch.ones(2, 3).t()).stride()
        (1, 3)
    """
    return empty_strided.call(self._size, strides_like(self, memory_format),
                         dtype or self._dtype, layout, device or self._device, pin_memory)


@composite(f"zeros_like(Tensor self, *, {_LIKE}) -> Tensor")
def zeros_like(self, dtype=None, layout=None, device=None, pin_memory=None,
               memory_format=None):
    """Zeros with the shape of `input` (and its dtype, device and layout).

    Example::

        >>> torch.zeros_like(torch.ones(2, dtype=torch.int32))
        tensor([0, 0], dtype=torch.int32)
    """
    result = empty_like.call(self, dtype, layout, device, pin_memory, memory_format)
    return zero_.call(result)


@composite(f"ones_like(Tensor self, *, {_LIKE}) -> Tensor")
def ones_like(self, dtype=None, layout=None, device=None, pin_memory=None,
              memory_format=None):
    """Ones with the shape of `input` (and its dtype, device and layout).

    Example::

        >>> torch.ones_like(torch.zeros(2))
        tensor([1., 1.])
    """
    result = empty_like.call(self, dtype, layout, device, pin_memory, memory_format)
    return fill_.call(result, 1)


@composite(f"full_like(Tensor self, Scalar fill_value, *, {_LIKE}) -> Tensor")
def full_like(self, fill_value, dtype=None, layout=None, device=None, pin_memory=None,
              memory_format=None):
    """`fill_value` everywhere, with the shape of `input` and its dtype unless given.

    Example::

        >>> torch.full_like(torch.zeros(2, dtype=torch.int64), 7.5)
        tensor([7, 7])
    """
    result = empty_like.call(self, dtype, layout, device, pin_memory, memory_format)
    return fill_.call(result, fill_value)


# ----------------------------------------------------------------------------------
# Tensor.new_*: sized factories taking dtype and device from `self`
# ----------------------------------------------------------------------------------
@composite(f"new_empty(Tensor self, SymInt[] size, *, {_OPTIONS}) -> Tensor",
           method=True, function=False)
def new_empty(self, size, dtype=None, layout=None, device=None, pin_memory=None):
    """An uninitialised tensor of `size`, with `self`'s dtype and device unless given.

    Example::

        >>> torch.ones(2, dtype=torch.int8).new_empty(3).dtype
        torch.int8
    """
    return empty.call(size, dtype or self._dtype, layout, device or self._device, pin_memory,
                      None)


@composite(f"new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, {_OPTIONS}) "
           "-> Tensor", method=True, function=False)
def new_empty_strided(self, size, stride, dtype=None, layout=None, device=None,
                      pin_memory=None):
    """An uninitialised tensor of `size` and `stride`, like `self` in dtype and device."""
    return empty_strided.call(size, stride, dtype or self._dtype, layout,
                              device or self._device, pin_memory)


@composite(f"new_zeros(Tensor self, SymInt[] size, *, {_OPTIONS}) -> Tensor",
           method=True, function=False)
def new_zeros(self, size, dtype=None, layout=None, device=None, pin_memory=None):
    """Zeros of `size`, with `self`'s dtype and device unless given.

    Example::

        >>> torch.ones(1, dtype=torch.float64).new_zeros(2, 2)
        tensor([[0., 0.],
                [0., 0.]], dtype=torch.float64)
    """
    return zeros.call(size, dtype or self._dtype, layout, device or self._device, pin_memory)


@composite(f"new_ones(Tensor self, SymInt[] size, *, {_OPTIONS}) -> Tensor",
           method=True, function=False)
def new_ones(self, size, dtype=None, layout=None, device=None, pin_memory=None):
    """Ones of `size`, with `self`'s dtype and device unless given."""
    return ones.call(size, dtype or self._dtype, layout, device or self._device, pin_memory)


@composite(f"new_full(Tensor self, SymInt[] size, Scalar fill_value, *, {_OPTIONS}) -> Tensor",
           method=True, function=False)
def new_full(self, size, fill_value, dtype=None, layout=None, device=None, pin_memory=None):
    """`fill_value` everywhere in a tensor of `size`, with `self`'s dtype unless given.

    Example::

        >>> torch.ones(1, dtype=torch.int64).new_full((2,), 3.5)
        tensor([3, 3])
    """
    return full.call(size, fill_value, dtype or self._dtype, layout, device or self._device,
                pin_memory)
