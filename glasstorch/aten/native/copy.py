"""Copying and filling: copy_, clone, contiguous, fill_, zero_, _to_copy, item.

`copy_` is the one primitive that moves data between tensors of any dtype, layout
or device; `clone`, `contiguous` and `to` are built on it, as in ATen.
"""
from __future__ import annotations

import warnings

import numpy as np

from ...c10.layout import contiguous_format, preserve_format
from ...c10.tensor_impl import contiguous_strides, is_contiguous_strides
from ..meta.shape import broadcast_shapes
from ..registry import TensorMeta, composite, op, view
from .factory import memory_format_strides


def _copy_meta(self, src, non_blocking=False):
    if src._device.type == "meta" and self._device.type != "meta":
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    shape = broadcast_shapes(self._size, src._size) if src._size != self._size else self._size
    if shape != self._size:
        raise RuntimeError(f"output with shape {list(self._size)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    return TensorMeta(self._size, self._dtype)


@op("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
    meta=_copy_meta, method=True, function=False)
def copy_(self, src, non_blocking, *, out):
    """Copy the elements of `src` into `self`, broadcasting and converting dtype.

    Example::

        >>> x = torch.zeros(2, 3)
        >>> x.copy_(torch.tensor([1, 2, 3]))
        tensor([[1., 2., 3.],
                [1., 2., 3.]])
    """
    if src.dtype.kind == "c" and out.dtype.kind != "c":
        warnings.warn("Casting complex values to real discards the imaginary part",
                      UserWarning, stacklevel=5)
        src = src.real
    with np.errstate(invalid="ignore", over="ignore"):
        np.copyto(out, src, casting="unsafe")


def _clone_meta(self, memory_format=None):
    return TensorMeta(self._size, self._dtype, _layout_like(self, memory_format))


def _layout_like(self, memory_format) -> tuple | None:
    """Strides for a copy of `self`: kept when dense (preserve_format), else as asked."""
    if memory_format is None or memory_format is preserve_format:
        if _is_dense_non_overlapping(self):
            return self._stride
        return _strides_following(self)
    return memory_format_strides(self._size, memory_format)


def _is_dense_non_overlapping(t) -> bool:
    """The elements fill their span of memory exactly once, in some order of dims."""
    pairs = sorted((st, s) for s, st in zip(t._size, t._stride) if s != 1)
    expected = 1
    for st, s in pairs:
        if s == 0:
            return True
        if st != expected:
            return False
        expected *= s
    return True


def _strides_following(t) -> tuple:
    """Contiguous strides whose order of dims follows `t`'s strides (torch's preserve rule)."""
    ndim = len(t._size)
    order = sorted(range(ndim), key=lambda d: (t._stride[d], d), reverse=True)
    if all(order[i] < order[i + 1] for i in range(ndim - 1)):
        return contiguous_strides(t._size)
    stride = [0] * ndim
    step = 1
    for d in reversed(order):
        stride[d] = step
        step *= max(t._size[d], 1)
    return tuple(stride)


@op("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", meta=_clone_meta,
    method=True, out=True)
def clone(self, memory_format, *, out):
    """A copy of `self` with its own storage (strides follow `memory_format`).

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
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    if self.is_contiguous(memory_format=memory_format):
        return self
    return clone(self, memory_format)


def _fill_meta(self, value):
    if hasattr(value, "_size") and len(value._size) != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{len(value._size)} dimensions.")
    return TensorMeta(self._size, self._dtype)


@op("fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", meta=_fill_meta,
    method=True)
def fill_(self, value, *, out):
    """Fill `self` with `value`, converted to `self`'s dtype.

    Example::

        >>> torch.empty(2).fill_(3)
        tensor([3., 3.])
    """
    _fill_array(out, value)


@op("fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", meta=_fill_meta,
    method=True)
def fill_tensor_(self, value, *, out):
    """Fill `self` with the single value of a 0-dim tensor."""
    _fill_array(out, value[()])


def _fill_array(out: np.ndarray, value) -> None:
    if out.dtype.kind not in "cV" and isinstance(value, complex):
        raise RuntimeError(f"value cannot be converted to type {out.dtype} without overflow")
    if out.dtype.kind in "iu" and isinstance(value, (int, np.integer)) and not isinstance(
            value, (bool, np.bool_)):
        info = np.iinfo(out.dtype)
        if not info.min <= value <= info.max:
            raise RuntimeError(f"value cannot be converted to type {out.dtype}_t without "
                               f"overflow")
    with np.errstate(invalid="ignore", over="ignore"):
        out[...] = value


def _zero_meta(self):
    return TensorMeta(self._size, self._dtype)


@op("zero_(Tensor(a!) self) -> Tensor(a!)", meta=_zero_meta, method=True)
def zero_(self, *, out):
    """Fill `self` with zeros, in place."""
    out[...] = 0


@view("detach(Tensor(a) self) -> Tensor(a)", is_view=False)
def detach(self):
    """A tensor sharing storage with `self`, cut off from autograd (never requires grad)."""
    return self._size, self._stride, self._offset


def _scalar_meta(self):
    if self.numel() != 1:
        raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
    if self._device.type == "meta":
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")
    return None


@op("_local_scalar_dense(Tensor self) -> Scalar", meta=_scalar_meta, function=False)
def local_scalar_dense(self):
    """The single element of `self` as a Python number."""
    value = self.reshape(-1)[0]
    return value.item() if self.dtype.kind in "biufc" else float(value)


@composite("_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
           "Device? device=None, bool? pin_memory=None, bool non_blocking=False, "
           "MemoryFormat? memory_format=None) -> Tensor", function=False)
def to_copy(self, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False,
            memory_format=None):
    """A copy of `self` converted to the given dtype / device / memory format."""
    from .factory import check_options
    from ..registry import empty_strided_on
    check_options(layout, pin_memory)
    dtype = dtype or self._dtype
    target = (device or self._device).type
    stride = _layout_like(self, memory_format)
    result = empty_strided_on(self._size, stride, dtype, target)
    if target == "cpu":
        copy_(result, self, non_blocking)
    return result
