"""Copying and filling: copy_, clone, contiguous, fill_, zero_, detach, item.

`copy_` is the one primitive that moves data between tensors of any dtype or
device; `clone`, `contiguous` and `to` (`conversion.py`) are built on it, as in
ATen. This file also holds the two conversions every kernel that writes a result of
another dtype needs: `cast_array` (tensor elements, torch's unchecked CPU casts) and
`checked_scalar` (one Python number, refused when it does not fit), and the memory
layouts of new tensors (`strides_like`, `memory_format_strides`).

Note [torch's CPU casts]
    Casting out-of-range values is undefined in C++, so torch's results are whatever
    x86 instructions give, and NumPy's differ for some pairs. torch converts a
    floating value to int8 / int16 / uint8 / uint16 through int32, to uint32 in AVX2
    lanes (`_to_uint32_in_lanes`), and to float16 / bfloat16 / float8 through float32
    (so float64 -> float16 rounds twice); float8_e4m3fn saturates at +-448.
    `cast_array` takes the same routes, so `-1.0 -> uint8` is 255, `1000.0 -> int8`
    is -24 and NaN -> int32 is INT32_MIN, as in torch. A complex source loses its
    imaginary part, except when cast to bool.
"""
from __future__ import annotations

import warnings

import ml_dtypes
import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import (COMPLEX32_PAIR, complex_to_pairs, from_numpy_dtype,
                           pairs_to_complex64)
from ....c10.layout import channels_last, channels_last_3d, contiguous_format, preserve_format
from ....c10.tensor_impl import contiguous_strides, wrap_array
from ...backends import register_meta
from ...dispatcher import ops
from ...meta.shape import (broadcast_shapes, check_no_internal_overlap,
                          check_no_partial_overlap, holds_data, is_non_overlapping_and_dense)
from ...quiet import mute, unmute
from ...registry import TensorMeta, composite, fast_path, op, view

_NARROW_FLOATS = (dtypes.float16, dtypes.bfloat16) + dtypes.FLOAT8_DTYPES
_VIA_INT32 = (dtypes.int8, dtypes.int16, dtypes.uint8, dtypes.uint16)
_COMPLEX_WARNING = "Casting complex values to real discards the imaginary part"


# ----------------------------------------------------------------------------------
# Casting arrays and scalars
# ----------------------------------------------------------------------------------
def cast_array(src: np.ndarray, dtype) -> np.ndarray:
    """`src` converted to the torch dtype `dtype` as torch's CPU copy converts.

    See Note [torch's CPU casts]. Returns `src` itself when no conversion is needed.
    """
    if src.dtype == COMPLEX32_PAIR:             # Note [complex32 as float16 pairs]
        src = pairs_to_complex64(src)
    if dtype is dtypes.complex32:
        return complex_to_pairs(cast_array(src, dtypes.complex64))
    plan = _CAST_PLANS.get((src.dtype, dtype))
    if plan is None:
        plan = _CAST_PLANS[src.dtype, dtype] = _cast_plan(from_numpy_dtype(src.dtype), dtype)
    real, steps, quiet = plan
    if real:
        src = src.real
    if quiet:                           # out-of-range values: no NumPy warnings, as torch
        token = mute()
        try:
            return _apply_steps(src, steps)
        finally:
            unmute(token)
    return _apply_steps(src, steps)


def _apply_steps(src: np.ndarray, steps: tuple) -> np.ndarray:
    for step in steps:
        src = step(src) if callable(step) else src.astype(step)
    return src


def _to_uint32_in_lanes(lanes: int):
    """float -> uint32 as torch's AVX2 copy does it (a uint32 array comes out).

    Whole registers of `lanes` elements convert below 2**31 directly and above it
    from ``x - 2**31`` with the top bit set back; the elements after the last whole
    register convert one by one through int64. The two agree for values in range.
    """
    def convert(values: np.ndarray) -> np.ndarray:
        flat = np.ascontiguousarray(values).reshape(-1)
        low = ~(flat >= 2.0 ** 31)                 # NaN converts directly
        result = np.where(low, flat, flat - 2.0 ** 31).astype(np.int32).view(np.uint32)
        result[~low] ^= np.uint32(2 ** 31)
        tail = flat.size % lanes
        if tail:
            result[-tail:] = flat[-tail:].astype(np.int64).astype(np.uint32)
        return result.reshape(values.shape)
    return convert


# torch saturates float8_e4m3fn (which has no infinity) at +-448 instead of making NaN,
# and reads float8_e8m0fnu (a bare exponent) from |x|, zero giving its smallest value.
_BEFORE_NARROW_CAST = {
    dtypes.float8_e4m3fn: lambda a: np.clip(a, -448.0, 448.0),
    dtypes.float8_e8m0fnu: lambda a: np.maximum(np.abs(a), np.float32(2.0 ** -127)),
}


_CAST_PLANS: dict = {}      # (NumPy dtype, torch dtype) -> plan, filled on first use


def _cast_plan(source, dtype) -> tuple:
    """How `cast_array` converts `source` to `dtype`: (take the real part?, the steps in
    order (NumPy dtypes to cast to, or functions), silence cast warnings?)."""
    if source is dtype:
        return False, (), False
    real = source.is_complex and not dtype.is_complex and dtype is not dtypes.bool
    if real:
        source = source.to_real()
    steps = []
    half = source is dtypes.float16         # torch converts float16 one element at a time
    if (dtype in _NARROW_FLOATS or source in _NARROW_FLOATS) and \
            dtypes.float32 not in (source, dtype):
        steps.append(np.dtype(np.float32))
        source = dtypes.float32
    if source.is_floating_point and dtype in _VIA_INT32:
        steps.append(np.dtype(np.int32))
    elif source.is_floating_point and dtype is dtypes.uint32:
        steps.append(np.dtype(np.int64) if half else
                     _to_uint32_in_lanes(8 if source.itemsize <= 4 else 4))
    if dtype in _BEFORE_NARROW_CAST:
        steps.append(_BEFORE_NARROW_CAST[dtype])
    steps.append(dtype._np)
    # only floating sources can overflow or be NaN; widening them cannot
    quiet = (source.is_floating_point or source.is_complex) and \
        not np.can_cast(source._np, dtype._np, "safe")
    return real, tuple(steps), quiet


def copy_array(out: np.ndarray, src: np.ndarray) -> None:
    """Write `src` into `out` (broadcasting), converting as `cast_array` does."""
    if src.dtype != out.dtype:
        src = cast_array(src, from_numpy_dtype(out.dtype))
    np.copyto(out, src)


# The C++ type names torch prints in "value cannot be converted to type ... without overflow".
_CPP_NAMES = {
    dtypes.uint8: "uint8_t", dtypes.int8: "int8_t", dtypes.int16: "int16_t",
    dtypes.int32: "int", dtypes.int64: "int64_t", dtypes.uint16: "uint16_t",
    dtypes.uint32: "uint32_t", dtypes.uint64: "uint64_t", dtypes.float16: "c10::Half",
    dtypes.bfloat16: "c10::BFloat16", dtypes.float32: "float", dtypes.float64: "double",
    dtypes.complex64: "c10::complex<float>", dtypes.complex128: "c10::complex<double>",
    dtypes.bool: "bool",
}


def cpp_type_name(dtype) -> str:
    """The C++ name of a dtype's element type (``int64_t``, ``c10::Half``, ...)."""
    return _CPP_NAMES.get(dtype) or "c10::" + dtype._name.capitalize()


def _limits_of(dtype) -> tuple:
    """The lowest and highest finite values of a dtype (of its real part if complex)."""
    real = dtype.to_real()
    if real.is_floating_point:
        info = ml_dtypes.finfo(real._np) if real in _NARROW_FLOATS else np.finfo(real._np)
        return float(info.min) if real.is_signed else float(info.tiny), float(info.max)
    info = np.iinfo(real._np)
    return int(info.min), int(info.max)


# Each storable dtype's finite range, looked up by every checked conversion.
_LIMITS = {d: _limits_of(d) for d in dtypes.EVERY_DTYPE if d is not dtypes.bool}


def _overflows(value, dtype) -> bool:
    """c10's `overflows<To>(value)` for one real value (bool never reaches here)."""
    low, high = _LIMITS[dtype]
    if isinstance(value, float):              # compared as C++ does: in double
        if value != value:
            return not dtype.to_real().is_floating_point
        if value in (float("inf"), float("-inf")) and dtype.to_real().is_floating_point:
            return False
        return value < float(low) or value > float(high)
    if not dtype.is_signed and not dtype.is_floating_point and value < 0:
        return -value > high                # two's complement wrap-around is allowed
    return value < low or value > high


def checked_scalar(value, dtype) -> np.ndarray:
    """A Python number converted to `dtype` as a 0-dim array, as `Scalar.to<T>()` checks it.

    Raises:
        RuntimeError: ``value cannot be converted to type ... without overflow`` when
            the value does not fit (a complex value with an imaginary part never fits
            a real dtype; bool accepts everything).
        OverflowError: for integers outside the int64 / uint64 range.
    """
    if type(value) is int and dtype is dtypes.int64 and -2**63 <= value < 2**63:
        return np.asarray(value, np.int64)          # the common case, nothing to check
    if dtype is dtypes.float32 or dtype is dtypes.float64:   # the other common cases:
        low, high = _LIMITS[dtype]                            # a float in range (not NaN
        if type(value) is float and low <= value <= high \
                or type(value) is int and -2**53 <= value <= 2**53:    # or inf), an int
            return np.asarray(value, dtype._np)               # a double holds exactly
    if isinstance(value, int) and not -2**63 <= value < 2**64:
        raise OverflowError("int too big to convert")
    if dtype is dtypes.bool:
        return np.asarray(bool(value))
    parts = (value.real, value.imag) if isinstance(value, complex) else (value,)
    bad = isinstance(value, complex) and not dtype.is_complex and value.imag != 0
    if bad or any(_overflows(p, dtype) for p in parts if not isinstance(p, bool)):
        raise RuntimeError(f"value cannot be converted to type {cpp_type_name(dtype)} "
                           f"without overflow")
    if isinstance(value, complex) and not dtype.is_complex:
        value = value.real
    if isinstance(value, int) and not isinstance(value, bool):
        source = np.asarray(value, np.uint64 if value >= 2**63 else np.int64)
    else:
        source = np.asarray(value)
    return cast_array(source, dtype)


# ----------------------------------------------------------------------------------
# Memory layouts of new tensors: factories, clone, the *_like factories and _to_copy
# ----------------------------------------------------------------------------------
def memory_format_strides(size: tuple, memory_format) -> tuple | None:
    """Strides laying out `size` in `memory_format` (None: row-major).

    Channels-last puts dim 1 innermost, then the spatial dims from last to first,
    then the batch dim; like torch, it does not skip size-0/1 dims when multiplying.

    Raises:
        RuntimeError: for channels_last on a tensor that is not 4-D (5-D for 3d), or
            ``torch.preserve_format``, which has no layout of its own.
    """
    if memory_format is preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    if memory_format is not channels_last and memory_format is not channels_last_3d:
        return None
    rank = 4 if memory_format is channels_last else 5
    if len(size) != rank:
        name = "channels_last" if rank == 4 else "channels_last_3d"
        raise RuntimeError(f"required rank {rank} tensor to use {name} format")
    order = (1,) + tuple(range(rank - 1, 1, -1)) + (0,)       # innermost first
    stride = [0] * rank
    step = 1
    for d in order:
        stride[d] = step
        step *= size[d]
    return tuple(stride)


def infer_dense_strides(size: tuple, stride: tuple) -> tuple:
    """Dense strides whose order of dims follows `stride` (torch's preserve_format rule).

    Dims are stably sorted from innermost to outermost by stride (equal strides: the
    smaller size goes inside); zero strides are ambiguous and keep their place.
    """
    ndim = len(size)
    perm = list(range(ndim - 1, -1, -1))
    for i in range(1, ndim):
        moving = i
        for earlier in range(i - 1, -1, -1):
            order = _stride_order(size, stride, perm[earlier], perm[moving])
            if order > 0:
                perm[earlier], perm[moving] = perm[moving], perm[earlier]
                moving = earlier
            elif order < 0:
                break
    result = [0] * ndim
    step = 1
    for d in perm:
        result[d] = step
        step *= size[d] if size[d] > 1 else 1
    return tuple(result)


def _stride_order(size: tuple, stride: tuple, a: int, b: int) -> int:
    """-1 if dim `a` belongs inside dim `b`, 1 if outside, 0 if it cannot be told."""
    if stride[a] == 0 or stride[b] == 0:
        return 0
    if stride[a] != stride[b]:
        return -1 if stride[a] < stride[b] else 1
    return 1 if size[a] > size[b] else 0


def strides_like(self, memory_format) -> tuple:
    """Strides for a new tensor shaped like `self` in `memory_format` (None: preserve)."""
    if memory_format is None or memory_format is preserve_format:
        if is_non_overlapping_and_dense(self._size, self._stride):
            return self._stride
        return infer_dense_strides(self._size, self._stride)
    return memory_format_strides(self._size, memory_format) or contiguous_strides(self._size)


def suggest_memory_format(t):
    """The memory format `t`'s strides look like: channels_last(_3d) or contiguous_format.

    Ambiguous layouts (a size-0 dim, a stride-0 channel dim, size-1 dims that could
    sit anywhere) count as contiguous, as in torch.
    """
    rank = len(t._size)
    if rank not in (4, 5):
        return contiguous_format
    order = (1,) + tuple(range(rank - 1, 1, -1)) + (0,)       # channels-last, innermost first
    size, stride = t._size, t._stride
    if stride[1] == 0:
        return contiguous_format
    low = 0
    for d in order:
        if size[d] == 0 or stride[d] < low or (d == 0 and low == stride[1]):
            return contiguous_format
        low = stride[d] * size[d] if size[d] > 1 else stride[d]
    return channels_last if rank == 4 else channels_last_3d


# ----------------------------------------------------------------------------------
# copy_
# ----------------------------------------------------------------------------------
def _copy_meta(self, src, non_blocking=False):
    _check_copy(self, src)
    if src._dtype.is_complex and not self._dtype.is_complex:
        warnings.warn(_COMPLEX_WARNING, UserWarning, stacklevel=4)
    return TensorMeta(self._size, self._dtype)


def _check_copy(self, src) -> None:
    check_no_internal_overlap(self)
    if src._size != self._size:
        shape = broadcast_shapes(self._size, src._size)
        if shape != self._size:
            raise RuntimeError(f"output with shape {list(self._size)} doesn't match the "
                               f"broadcast shape {list(shape)}")
    check_no_partial_overlap(self, src)


@op("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
    meta=_copy_meta, method=True, function=False,
    grad={"self": "zeros_like(grad)", "src": "grad"})
def copy_(self, src, non_blocking, *, out):
    """Copy the elements of `src` into `self`, broadcasting and converting dtype.

    A complex `src` copied into a real tensor loses its imaginary part (with a
    warning). Copying from a meta tensor into a real one is an error: it has no data.

    Args:
        src: the tensor to copy from; it must broadcast to `self`'s shape.
        non_blocking: accepted for compatibility; copies here are synchronous.

    Example::

        >>> x = torch.zeros(2, 3)
        >>> x.copy_(torch.tensor([1, 2, 3]))
        tensor([[1., 2., 3.],
                [1., 2., 3.]])
    """
    copy_array(out, src)


@register_meta(copy_)
def _copy_meta_key(self, src, non_blocking=False):
    """torch's copy_ returns on meta before its kernel's complex warning; and a tensor
    with data (copying on the Meta key: its source is a meta tensor) cannot be filled."""
    if holds_data(self):
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    _check_copy(self, src)
    return TensorMeta(self._size, self._dtype)


# ----------------------------------------------------------------------------------
# clone / contiguous
# ----------------------------------------------------------------------------------
def _clone_meta(self, memory_format=None):
    return TensorMeta(self._size, self._dtype, strides_like(self, memory_format))


@fast_path("a copy laid out row-major", silent=True)    # a copy: nothing to mute
def _clone_fast(self, memory_format):
    """The common calls whose result is row-major: a row-major tensor kept so, or any
    tensor asked for ``contiguous_format`` (`contiguous()` of a transposed one): NumPy's
    C-order copy, wrapped (no meta rule, no strides to work out). None for any other."""
    if memory_format is not contiguous_format and (
            memory_format not in (None, preserve_format)
            or self._stride != contiguous_strides(self._size)):
        return None
    return wrap_array(self._np.copy(), self._dtype)


@op("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", meta=_clone_meta,
    method=True, out=True, grad={"self": "grad"}, fast=_clone_fast)
def clone(self, memory_format, *, out):
    """A copy of `self` with its own storage.

    Args:
        memory_format: the result's layout; by default (``torch.preserve_format``)
            the strides of `self` are kept when it is dense, else its order of dims.

    Example::

        >>> x = torch.ones(2); y = x.clone(); y.data_ptr() != x.data_ptr()
        True
    """
    np.copyto(out, self)


@composite("contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) "
           "-> Tensor(a)", method=True, function=False)
def contiguous(self, memory_format=contiguous_format):
    """`self` if already contiguous in `memory_format`, else a contiguous copy.

    Example::

        >>> torch.ones(2, 3).t().contiguous().stride()
        (2, 1)
    """
    if memory_format is preserve_format:
        if self.is_contiguous():
            return self
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    if self.is_contiguous(memory_format=memory_format):
        return self
    return clone.call(self, memory_format)


# ----------------------------------------------------------------------------------
# fill_ / zero_
# ----------------------------------------------------------------------------------
def _fill_meta(self, value):
    """The result of a fill: like `self`. A Scalar value must fit the dtype (the kernel
    checks it: torch checks nothing on meta); a Tensor value must be 0-dim."""
    if hasattr(value, "_size"):
        if len(value._size) != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {len(value._size)} dimensions.")
        if value._dtype.is_complex and not self._dtype.is_complex:
            warnings.warn(_COMPLEX_WARNING, UserWarning, stacklevel=4)
    return TensorMeta(self._size, self._dtype, strides_like(self, None))


def _fill_tensor_inplace_meta(self, value):
    """Filling in place from a tensor is a copy: it refuses self-overlapping `self`."""
    described = _fill_meta(self, value)
    check_no_internal_overlap(self)
    return described


@op("fill.Tensor(Tensor self, Tensor value) -> Tensor", meta=_fill_meta,
    grad={"self": "zeros_like(grad)", "value": "grad.sum()"})
def fill_tensor(self, value, *, out):
    """A tensor like `input` filled with the value of a 0-dim tensor (converted like `copy_`)."""
    copy_array(out, value)


@op("fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)",
    meta=_fill_tensor_inplace_meta, method=True,
    grad={"self": "zeros_like(grad)", "value": "grad.sum()"})
def fill_tensor_(self, value, *, out):
    """Fill `self` with the value of a 0-dim tensor (converted like `copy_`)."""
    copy_array(out, value)


@op("fill.Scalar(Tensor self, Scalar value) -> Tensor", meta=_fill_meta, inplace=True,
    grad={"self": "zeros_like(grad)"})
def fill(self, value, *, out):
    """A tensor like `input` filled with `value`; ``x.fill_(value)`` fills `x` itself.

    Raises:
        RuntimeError: if `value` does not fit the dtype (``300`` into uint8, a
            complex number with an imaginary part into a real dtype).

    Example::

        >>> torch.empty(2).fill_(3)
        tensor([3., 3.])
    """
    out[...] = checked_scalar(value, from_numpy_dtype(out.dtype))


fill_ = ops.aten.fill_.Scalar


def _zero_meta(self):
    return TensorMeta(self._size, self._dtype)


@op("zero_(Tensor(a!) self) -> Tensor(a!)", meta=_zero_meta, method=True,
    grad={"self": "zeros_like(grad)"})
def zero_(self, *, out):
    """Fill `self` with zeros, in place.

    Example::

        >>> torch.ones(2).zero_()
        tensor([0., 0.])
    """
    out[...] = 0


@view("detach(Tensor(a) self) -> Tensor(a)", is_view=False)
def detach(self):
    """A tensor sharing storage with `self`, cut off from autograd (never requires grad).

    Example::

        >>> torch.ones(2, requires_grad=True).detach().requires_grad
        False
    """
    return self._size, self._stride, self._offset


# ----------------------------------------------------------------------------------
# item
# ----------------------------------------------------------------------------------
def _scalar_meta(self):
    if self.numel() != 1:
        raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")


@op("_local_scalar_dense(Tensor self) -> Scalar", meta=_scalar_meta, function=False)
def local_scalar_dense(self):
    """The single element of `self` as a Python bool, int, float or complex."""
    value = self.reshape(-1)[0]
    if self.dtype == COMPLEX32_PAIR:
        return complex(pairs_to_complex64(value))
    if self.dtype.kind in "biufc":
        return value.item()
    return float(value)          # bfloat16 / float8 scalars of ml_dtypes


@register_meta(local_scalar_dense)
def _scalar_meta_key(self):
    _scalar_meta(self)
    raise RuntimeError("Tensor.item() cannot be called on meta tensors")
