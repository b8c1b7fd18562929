"""Factories: operators that make new tensors from sizes and options, not from inputs.

They have no tensor arguments, so the `device` argument (or the default device)
chooses the backend. The meta rule settles shape and dtype; the kernel fills the
allocated result. The `*_like` and `new_*` forms are composites over these, taking
their defaults from a tensor. The range factories (`arange`, `linspace`, `logspace`)
live in `ranges.py`.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import COMPLEX32_PAIR, complex_to_pairs
from ....c10.layout import strided
from ....c10.promotion import get_default_dtype, scalar_dtype
from ....c10.tensor_impl import wrap_array
from ...backends import register_meta
from ...context import fill_uninitialized
from ...registry import TensorMeta, composite, op
from ...structured import fast_path
from .copy import checked_scalar, fill_, memory_format_strides, strides_like, zero_

TENSOR_OPTIONS = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"


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


def factory_meta(size, dtype=None, layout=None, device=None, pin_memory=None,
                 memory_format=None) -> TensorMeta:
    """Result of a sized factory: the sizes given, the dtype given or the default."""
    dtype = dtype or get_default_dtype()
    check_options(layout, pin_memory, dtype)
    size = check_sizes(size)
    return TensorMeta(size, dtype, memory_format_strides(size, memory_format))


def _made_by(make, case: str):
    """The fast path of a sized factory: for the default layout and memory format in
    pageable memory, non-negative sizes and a dtype NumPy stores as such (complex32 is
    stored as float16 pairs), the array `make(size, np_dtype)` wrapped; else None, and
    the general path checks and refuses."""
    @fast_path(case, silent=True)
    def fast(size, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        if layout is not None or pin_memory or memory_format is not None or \
                (size and min(size) < 0):
            return None
        dtype = dtype or get_default_dtype()
        if dtype is dtypes.complex32:
            return None
        return wrap_array(make(tuple(size), dtype._np), dtype)
    fast.__name__ = f"{make.__name__}_fast"
    return fast


def _empty_array(size: tuple, np_dtype) -> np.ndarray:
    out = np.empty(size, np_dtype)
    fill_uninitialized(out)
    return out


def _ones_array(size: tuple, np_dtype) -> np.ndarray:
    out = np.empty(size, np_dtype)      # NumPy's own `ones` is a Python function
    out.fill(1)
    return out


# ----------------------------------------------------------------------------------
# empty / empty_strided / zeros / ones / full / scalar_tensor
# ----------------------------------------------------------------------------------
@op(f"empty.memory_format(SymInt[] size, *, {TENSOR_OPTIONS}, MemoryFormat? memory_format=None) "
    "-> Tensor", meta=factory_meta, out=True, out_overload="out",
    fast=_made_by(_empty_array, "default options: NumPy's empty"))
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
    fill_uninitialized(out)


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


@op(f"empty_strided(SymInt[] size, SymInt[] stride, *, {TENSOR_OPTIONS}) -> Tensor",
    meta=_strided_meta, out=True)
def empty_strided(size, stride, dtype, layout, device, pin_memory, *, out):
    """An uninitialised tensor with explicit strides (in elements).

    Example::

        >>> torch.empty_strided((2, 3), (1, 2)).stride()
        (1, 2)
    """
    fill_uninitialized(out)


def _physical_order(size, physical_layout) -> None:
    """Refuse a `physical_layout` that is not a permutation of `size`'s dims."""
    if len(size) != len(physical_layout):
        raise RuntimeError("Number of dimensions in size does not match the length of the "
                           f"physical_layout; i.e. len(size) = {len(size)} is not equal to "
                           f"len(physical_layout) = {len(physical_layout)}")
    seen = set()
    for index, dim in enumerate(physical_layout):
        if not 0 <= dim < len(size):
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and "
                               f"{len(size) - 1}, but got {dim} at index {index}).  NB: "
                               "negative dims not currently supported; file an issue if you "
                               "want it.")
        if dim in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(dim)


@composite(f"empty_permuted(SymInt[] size, int[] physical_layout, *, {TENSOR_OPTIONS}) -> Tensor")
def empty_permuted(size, physical_layout, dtype=None, layout=None, device=None,
                   pin_memory=None):
    """An uninitialised dense tensor of `size` whose dims lie in memory in the order
    `physical_layout` gives, outermost first (``(0, 2, 3, 1)`` is channels-last).

    Example::

        >>> torch.empty_permuted((2, 3, 5, 7), (0, 2, 3, 1)).stride()
        (105, 1, 21, 3)
    """
    _physical_order(size, physical_layout)
    check_sizes([size[dim] for dim in physical_layout])
    stride, step = [0] * len(size), 1
    for dim in reversed(physical_layout):
        stride[dim], step = step, step * max(size[dim], 1)
    return empty_strided.call(size, stride, dtype, layout, device, pin_memory)


def _zeros_meta(size, dtype=None, layout=None, device=None, pin_memory=None) -> TensorMeta:
    # torch's CPU zeros words its size check apart from every other factory (its Meta
    # key, registered below, words it as they do)
    if any(s < 0 for s in size):
        raise RuntimeError("zeros: Dimension size must be non-negative.")
    return factory_meta(size, dtype, layout, device, pin_memory)


@op(f"zeros(SymInt[] size, *, {TENSOR_OPTIONS}) -> Tensor", meta=_zeros_meta, out=True,
    fast=_made_by(np.zeros, "default options: NumPy's zeros"))
def zeros(size, dtype, layout, device, pin_memory, *, out):
    """A tensor filled with 0.

    Example::

        >>> torch.zeros(2, 3)
        tensor([[0., 0., 0.],
                [0., 0., 0.]])
    """
    out.fill(0)


register_meta(zeros, factory_meta)


@op(f"ones(SymInt[] size, *, {TENSOR_OPTIONS}) -> Tensor", meta=factory_meta, out=True,
    fast=_made_by(_ones_array, "default options: filled with 1"))
def ones(size, dtype, layout, device, pin_memory, *, out):
    """A tensor filled with 1.

    Example::

        >>> torch.ones(3, dtype=torch.int64)
        tensor([1, 1, 1])
    """
    if out.dtype == COMPLEX32_PAIR:     # NumPy would fill both halves of the pairs
        out[...] = complex_to_pairs(np.complex64(1))
    else:
        out.fill(1)


def _full_meta(size, fill_value, dtype=None, layout=None, device=None, pin_memory=None):
    dtype = dtype or scalar_dtype(fill_value)
    check_options(layout, pin_memory, dtype)
    checked_scalar(fill_value, dtype)
    return TensorMeta(check_sizes(size), dtype)


@op(f"full(SymInt[] size, Scalar fill_value, *, {TENSOR_OPTIONS}) -> Tensor", meta=_full_meta,
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


@op(f"scalar_tensor(Scalar s, *, {TENSOR_OPTIONS}) -> Tensor", meta=_scalar_tensor_meta)
def scalar_tensor(s, dtype, layout, device, pin_memory, *, out):
    """A 0-dim tensor holding `s`, of the default dtype unless `dtype` is given.

    Example::

        >>> torch.scalar_tensor(3)
        tensor(3.)
    """
    out[...] = checked_scalar(s, dtypes.from_numpy_dtype(out.dtype))


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


@op(f"eye(SymInt n, *, {TENSOR_OPTIONS}) -> Tensor", out=True,
    meta=lambda n, *options: _eye_meta(n, None, *options))
def eye(n, dtype, layout, device, pin_memory, *, out):
    """The n-by-n identity matrix; see `eye.m`."""
    _fill_eye(out)


@op(f"eye.m(SymInt n, SymInt m, *, {TENSOR_OPTIONS}) -> Tensor", meta=_eye_meta, out=True,
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
_LIKE = f"{TENSOR_OPTIONS}, MemoryFormat? memory_format=None"


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
@composite(f"new_empty(Tensor self, SymInt[] size, *, {TENSOR_OPTIONS}) -> Tensor",
           method=True, function=False)
def new_empty(self, size, dtype=None, layout=None, device=None, pin_memory=None):
    """An uninitialised tensor of `size`, with `self`'s dtype and device unless given.

    Example::

        >>> torch.ones(2, dtype=torch.int8).new_empty(3).dtype
        torch.int8
    """
    return empty.call(size, dtype or self._dtype, layout, device or self._device, pin_memory,
                      None)


@composite(f"new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, {TENSOR_OPTIONS}) "
           "-> Tensor", method=True, function=False)
def new_empty_strided(self, size, stride, dtype=None, layout=None, device=None,
                      pin_memory=None):
    """An uninitialised tensor of `size` and `stride`, like `self` in dtype and device."""
    return empty_strided.call(size, stride, dtype or self._dtype, layout,
                              device or self._device, pin_memory)


@composite(f"new_zeros(Tensor self, SymInt[] size, *, {TENSOR_OPTIONS}) -> Tensor",
           method=True, function=False)
def new_zeros(self, size, dtype=None, layout=None, device=None, pin_memory=None):
    """Zeros of `size`, with `self`'s dtype and device unless given.

    Example::

        >>> torch.ones(1, dtype=torch.float64).new_zeros(2, 2)
        tensor([[0., 0.],
                [0., 0.]], dtype=torch.float64)
    """
    result = empty.call(size, dtype or self._dtype, layout, device or self._device, pin_memory,
                        None)
    return zero_.call(result)


@composite(f"new_ones(Tensor self, SymInt[] size, *, {TENSOR_OPTIONS}) -> Tensor",
           method=True, function=False)
def new_ones(self, size, dtype=None, layout=None, device=None, pin_memory=None):
    """Ones of `size`, with `self`'s dtype and device unless given."""
    return ones.call(size, dtype or self._dtype, layout, device or self._device, pin_memory)


@composite(f"new_full(Tensor self, SymInt[] size, Scalar fill_value, *, {TENSOR_OPTIONS}) -> Tensor",
           method=True, function=False)
def new_full(self, size, fill_value, dtype=None, layout=None, device=None, pin_memory=None):
    """`fill_value` everywhere in a tensor of `size`, with `self`'s dtype unless given.

    Example::

        >>> torch.ones(1, dtype=torch.int64).new_full((2,), 3.5)
        tensor([3, 3])
    """
    return full.call(size, fill_value, dtype or self._dtype, layout, device or self._device,
                     pin_memory)
