"""Sliding-window pooling: max_pool{2,3}d_with_indices and avg_pool{2,3}d with their
backward operators, and the composites over them (max_pool1d/2d/3d,
max_pool1d_with_indices, avg_pool1d).

The kernels visit one kernel offset at a time (Note [Pooling by kernel offsets] in
`pooling_windows.py`), so the work is a few whole-array NumPy calls per offset, never a
loop over output positions. Max pooling reports, per output, the flat index of the
chosen element over the input's spatial dims (``h * W + w`` in 2d), which its backward
scatters the gradient to; a NaN always wins (the last NaN of a window), as in torch.
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ... import functions as at
from ...derivatives import derivative_helper
from ....c10.dispatch_key import AUTOGRAD, local_keys
from ...registry import TensorMeta, composite, op
from ..pointwise.unary import refuse
from .pooling_max import max_forward, scatter_to_indices
from .pooling_windows import (check_output, check_positive, expand, in_blocks, offsets,
                              output_size, padded, planes, result_strides, window_slice)

_BOOL = frozenset({np.dtype(np.bool_)})
_BOOL_AND_HALVES = _BOOL | {dtypes.float16._np, dtypes.bfloat16._np}
_WORDS = {2: ("3D or 4D", "3D", "4D"), 3: ("4D or 5D", "4D", "5D")}


# ----------------------------------------------------------------------------------
# Shapes and checks
# ----------------------------------------------------------------------------------
def _check_non_batch(name: str, k: int, size: tuple) -> None:
    """Every dim but the batch dim non-empty (torch's two wordings, 2d and 3d)."""
    inner = size[1:] if len(size) == k + 2 else size
    if all(inner):
        return
    if k == 2:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(size)}")
    dim = next(i for i, n in enumerate(inner) if n == 0) + len(size) - len(inner) - 1
    raise RuntimeError(f"{name}: Expected input's non-batch dimensions to have positive "
                       f"length, but input has a shape of {list(size)} and non-batch "
                       f"dimension {dim} has length zero!")


def _check_rank(k: int, self) -> None:
    if self.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"non-empty {_WORDS[k][0]} (batch mode) tensor expected for input")


def _check_half_kernel(k: int, kernel, padding) -> None:
    if all(n // 2 >= p for n, p in zip(kernel, padding)):
        return
    if k == 2:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                           f"got padW = {padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, "
                           f"kH = {kernel[0]}")
    raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got "
                       f"kT: {kernel[0]} kW: {kernel[2]} kH: {kernel[1]} padT: {padding[0]} "
                       f"padW: {padding[2]} padH: {padding[1]}")


def pooled_shape(name: str, k: int, self, kernel, stride, padding, dilation, ceil_mode,
                 check_kernel_fits: bool = False) -> tuple:
    """The result's sizes after torch's checks (in torch's order)."""
    size = self._size
    spatial = size[-k:]
    out = tuple(output_size(n, kk, p, s, d, ceil_mode)
                for n, kk, p, s, d in zip(spatial, kernel, padding, stride, dilation))
    check_positive(k, kernel, stride, dilation)
    _check_non_batch(name, k, size)
    if check_kernel_fits and any(n < kk for n, kk in zip(spatial, kernel)):
        axes = ("T", "H", "W")
        raise RuntimeError("input image (" + " ".join(f"{a}: {n}" for a, n in zip(axes, spatial))
                           + ") smaller than kernel size (" + " ".join(
                               f"k{a}: {n}" for a, n in zip(axes, kernel)) + ")")
    _check_half_kernel(k, kernel, padding)
    check_output(size[-k - 1:], (size[-k - 1],) + out)
    return size[:-k] + out


def _max_arguments(k: int, kernel_size, stride, padding, dilation) -> tuple:
    name = f"max_pool{k}d"
    kernel = expand(name, kernel_size, k, "kernel_size")
    stride = expand(name, stride, k, "stride", may_be_empty=True) or kernel
    return (kernel, stride, expand(name, padding, k, "padding"),
            expand(name, dilation, k, "dilation"))


# ----------------------------------------------------------------------------------
# Kernels
# ----------------------------------------------------------------------------------
def _window_divisors(spatial, out_spatial, kernel, stride, padding, count_include_pad,
                     divisor_override) -> np.ndarray | int:
    """What each window's sum is divided by: the override, or the window's size (cut at
    the padding's end) or its count of input elements."""
    if divisor_override is not None:
        return divisor_override
    divisor = np.ones((), np.int64)
    for n, size, kk, s, p in zip(out_spatial, spatial, kernel, stride, padding):
        start = np.arange(n) * s - p
        end = np.minimum(start + kk, size + p)
        length = end - start if count_include_pad else (
            np.minimum(end, size) - np.maximum(start, 0))
        divisor = np.multiply.outer(divisor, length)
    return divisor


def _divide(total: np.ndarray, divisor, out: np.ndarray) -> None:
    if out.dtype.kind in "iu":       # integers: C's division, truncating towards zero
        quotient = np.abs(total) // np.abs(divisor) * np.sign(total) * np.sign(divisor)
        np.copyto(out, quotient, casting="unsafe")
        return
    np.copyto(out, total / divisor, casting="unsafe")


def _compute_dtype(dtype: np.dtype) -> np.dtype:
    if dtype.kind in "iub":
        return np.dtype(np.int64)
    return np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)


def _avg_forward(self, kernel, stride, padding, ceil_mode, count_include_pad,
                 divisor_override, out) -> None:
    """Each window's sum over its divisor, block by block (Note [Pooling in blocks of
    planes])."""
    k = len(kernel)
    out_spatial = out.shape[-k:]
    ones = (1,) * k
    divisor = _window_divisors(self.shape[-k:], out_spatial, kernel, stride, padding,
                               count_include_pad, divisor_override)
    inputs, results = planes([self, out], k)

    def block(start: int, stop: int) -> None:
        source = padded(inputs[start:stop], out_spatial, kernel, stride, padding, ones, 0,
                        _compute_dtype(self.dtype))
        total = np.zeros(results[start:stop].shape, source.dtype)
        for offset in offsets(kernel):
            total += source[window_slice(offset, out_spatial, stride, ones)]
        _divide(total, divisor, results[start:stop])
    in_blocks(inputs.shape[0], math.prod(inputs.shape[1:]), block)


def _avg_backward(grad, shape, kernel, stride, padding, count_include_pad, divisor_override,
                  out) -> None:
    """Each window's share of its gradient, added back onto the elements it averaged,
    block by block (Note [Pooling in blocks of planes]). As torch's kernel: the share is
    the gradient over the divisor in the gradient's (compute) dtype, and an element
    adds its shares in the windows' row-major order, the kernel's last offset naming
    its first window."""
    k = len(kernel)
    out_spatial = grad.shape[-k:]
    ones = (1,) * k
    divisor = _window_divisors(shape[-k:], out_spatial, kernel, stride, padding,
                               count_include_pad, divisor_override)
    inside = (Ellipsis,) + tuple(slice(p, p + n) for p, n in zip(padding, shape[-k:]))
    grads, results = planes([grad, out], k)
    compute = _compute_dtype(grad.dtype)
    if compute.kind == "f":          # torch divides in the gradient's dtype
        divisor = np.asarray(divisor).astype(compute)
    # float16 / bfloat16 add in their own dtype, each sum rounded, as torch's loop adds
    kept = grad.dtype if grad.dtype.itemsize == 2 and compute.kind == "f" else compute
    last_first = list(offsets(kernel))[::-1]

    def block(start: int, stop: int) -> None:
        share = (grads[start:stop].astype(compute) / divisor).astype(kept, copy=False)
        zeros = np.zeros(results[start:stop].shape, kept)
        total = padded(zeros, out_spatial, kernel, stride, padding, ones, 0)
        for offset in last_first:      # each element's shares in the windows' order
            total[window_slice(offset, out_spatial, stride, ones)] += share
        np.copyto(results[start:stop], total[inside], casting="unsafe")
    in_blocks(results.shape[0], math.prod(results.shape[1:]), block)


# ----------------------------------------------------------------------------------
# Declarations
# ----------------------------------------------------------------------------------
@derivative_helper
def max_pool_double_backward(grad, indices, k: int):
    """The gradient of max pooling's backward with respect to its incoming gradient:
    `grad` read back at the chosen positions."""
    flat = grad.flatten(-k) if grad.dim() > k else grad.reshape(-1)
    chosen = at.gather(flat, -1, indices.flatten(-k))
    return chosen.view(indices.shape)


def _declare_max(k: int) -> tuple:
    """max_pool{k}d_with_indices and its backward operator."""
    name = f"max_pool{k}d_with_indices"
    window = f"int[{k}] kernel_size, int[{k}] stride, int[{k}] padding, int[{k}] dilation"

    def backward_meta(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
                      indices):
        return TensorMeta(self._size, grad_output._dtype)

    def backward_kernel(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
                        indices, *, out):
        scatter_to_indices(grad_output, indices, k, out)
    backward_kernel.__name__ = f"{name}_backward"
    backward_kernel.__doc__ = (f"The gradient of `{name}`'s input: each output's gradient "
                               f"added at its index.")
    backward = op(f"{name}_backward(Tensor grad_output, Tensor self, {window}, "
                  f"bool ceil_mode, Tensor indices) -> Tensor", meta=backward_meta, out=True,
                  out_overload="grad_input", out_names=("grad_input",), function=False,
                  grad={"grad_output": f"max_pool_double_backward(grad, indices, {k})",
                        "self": "zeros_like(self)"})(backward_kernel)

    def meta(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
        kernel, stride, padding, dilation = _max_arguments(k, kernel_size, stride, padding,
                                                           dilation)
        _check_rank(k, self)
        shape = pooled_shape(f"{name}_out_cpu_template()", k, self, kernel, stride, padding,
                             dilation, ceil_mode)
        strides = result_strides(self, shape)
        return TensorMeta(shape, self._dtype, strides), TensorMeta(shape, dtypes.int64, strides)

    def kernel(self, kernel_size, stride, padding, dilation, ceil_mode, *, out):
        refuse(self, f"max_pool{k}d", _BOOL)
        max_forward(self, *_max_arguments(k, kernel_size, stride, padding, dilation), *out)
    kernel.__name__ = name
    kernel.__doc__ = (f"Max pooling over the last {k} dims: the largest element of each "
                      f"window and its flat index over those dims (Note [Pooling by kernel "
                      f"offsets]).")
    forward = op(f"{name}(Tensor self, int[{k}] kernel_size, int[{k}] stride=[], "
                 f"int[{k}] padding=0, int[{k}] dilation=1, bool ceil_mode=False) "
                 f"-> (Tensor, Tensor)", meta=meta, python_module="nn",
                 grad={"self": f"{name}_backward(grad, self, kernel_size, stride, padding, "
                               f"dilation, ceil_mode, result1)",
                       "output_differentiability": (True, False)})(kernel)
    return forward, backward


max_pool2d_with_indices, max_pool2d_with_indices_backward = _declare_max(2)
max_pool3d_with_indices, max_pool3d_with_indices_backward = _declare_max(3)


def _avg_arguments(k: int, kernel_size, stride, padding, divisor_override) -> tuple:
    name = f"avg_pool{k}d"
    kernel = expand(name, kernel_size, k, "kernel_size")
    stride = expand(name, stride, k, "stride", may_be_empty=True) or kernel
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    return kernel, stride, expand(name, padding, k, "padding")


def _avg_shape(k: int, self, kernel_size, stride, padding, ceil_mode, divisor_override):
    kernel, stride, padding = _avg_arguments(k, kernel_size, stride, padding, divisor_override)
    if k == 2 and self.dim() < 3:      # torch reads the channel dim before any check
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(self.dim(), 1)}, {max(self.dim(), 1) - 1}], but got -3)")
    _check_rank(k, self)
    return pooled_shape(f"avg_pool{k}d()", k, self, kernel, stride, padding, (1,) * k,
                        ceil_mode, check_kernel_fits=k == 3)


def _declare_avg(k: int) -> tuple:
    """avg_pool{k}d and its backward operator."""
    name = f"avg_pool{k}d"
    window = (f"int[{k}] kernel_size, int[{k}] stride, int[{k}] padding, bool ceil_mode, "
              f"bool count_include_pad, int? divisor_override")

    def backward_meta(grad_output, self, *window_args):
        return TensorMeta(self._size, grad_output._dtype)

    def backward_kernel(grad_output, self, kernel_size, stride, padding, ceil_mode,
                        count_include_pad, divisor_override, *, out):
        kernel, stride, padding = _avg_arguments(k, kernel_size, stride, padding,
                                                 divisor_override)
        _avg_backward(grad_output, self.shape, kernel, stride, padding, count_include_pad,
                      divisor_override, out)
    backward_kernel.__name__ = f"{name}_backward"
    backward_kernel.__doc__ = (f"The gradient of `{name}`'s input: each window's gradient "
                               f"shared out over the elements it averaged.")
    backward = op(f"{name}_backward(Tensor grad_output, Tensor self, {window}) -> Tensor",
                  meta=backward_meta, out=True, out_overload="grad_input",
                  out_names=("grad_input",), function=False,
                  grad={"grad_output": f"{name}(grad, kernel_size, stride, padding, ceil_mode, "
                                       f"count_include_pad, divisor_override)",
                        "self": "zeros_like(self)"})(backward_kernel)

    def meta(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
             divisor_override=None):
        shape = _avg_shape(k, self, kernel_size, stride, padding, ceil_mode, divisor_override)
        # torch's 3d kernel writes contiguous results whatever the input's layout
        return TensorMeta(shape, self._dtype, result_strides(self, shape) if k == 2 else None)

    def kernel(self, kernel_size, stride, padding, ceil_mode, count_include_pad,
               divisor_override, *, out):
        if k == 2:
            refuse(self, name, _BOOL)
        else:                        # torch's 3d kernel has no float16/bfloat16 loop
            refuse(self, "avg_pool3d_out_frame", _BOOL_AND_HALVES)
        kernel, stride, padding = _avg_arguments(k, kernel_size, stride, padding,
                                                 divisor_override)
        _avg_forward(self, kernel, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, out)
    kernel.__name__ = name
    kernel.__doc__ = (f"Average pooling over the last {k} dims: each window's mean (its "
                      f"sum over `divisor_override` when given; padding counted when "
                      f"`count_include_pad`).")
    forward = op(f"{name}(Tensor self, int[{k}] kernel_size, int[{k}] stride=[], "
                 f"int[{k}] padding=0, bool ceil_mode=False, bool count_include_pad=True, "
                 f"int? divisor_override=None) -> Tensor", meta=meta, python_module="nn",
                 grad={"self": f"{name}_backward(grad, self, kernel_size, stride, padding, "
                               f"ceil_mode, count_include_pad, divisor_override)"})(kernel)
    return forward, backward


avg_pool2d, avg_pool2d_backward = _declare_avg(2)
avg_pool3d, avg_pool3d_backward = _declare_avg(3)


# ----------------------------------------------------------------------------------
# Composites: the 1d forms (a 2d pooling over a size-1 dim) and the value-only forms
# ----------------------------------------------------------------------------------
def _check_1d(name: str, self) -> None:
    """A (batched) input of 2 or 3 dims, the channel and length dims not empty."""
    if self.dim() not in (2, 3) or not all(self._size[-2:]):
        raise RuntimeError(f"{name}: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(self._size)}")


@composite("max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], "
           "int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> (Tensor, Tensor)")
def max_pool1d_with_indices(self, kernel_size, stride=(), padding=(0,), dilation=(1,),
                            ceil_mode=False):
    """Max pooling over the last dim, with each maximum's index along it.

    Example::

        >>> torch.max_pool1d_with_indices(torch.tensor([[1., 3., 2., 0.]]), [2])
        (tensor([[3., 2.]]), tensor([[1, 2]]))
    """
    if self.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {self.dim()}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for "
                           f"max_pool1d)")
    stride = list(stride) or list(kernel_size)
    values, indices = max_pool2d_with_indices(
        self.unsqueeze(-2), [1] + list(kernel_size), [1] + stride, [0] + list(padding),
        [1] + list(dilation), ceil_mode)
    return values.squeeze(-2), indices.squeeze(-2)


def _check_max_pool1d(self, kernel_size, stride, padding, dilation, ceil_mode) -> None:
    """torch's max_pool1d checks, in its words."""
    checks = (("kernel_size", kernel_size[0], "must be greater than zero", 1),
              ("stride", stride[0], "must be greater than zero", 1),
              ("padding", padding[0], "must be non-negative", 0),
              ("dilation", dilation[0], "must be greater than zero", 1))
    for what, value, words, least in checks:
        if value < least:
            raise RuntimeError(f"max_pool1d() {what} {words}, but got {value}")
        if what == "padding" and value > kernel_size[0] // 2:
            raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, "
                               f"but got padding={value} and kernel_size={kernel_size[0]}")
    length = output_size(self._size[-1], kernel_size[0], padding[0], stride[0], dilation[0],
                         ceil_mode)
    if length < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {length}")


@composite("max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], "
           "int[1] dilation=[1], bool ceil_mode=False) -> Tensor")
def max_pool1d(self, kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    """The maxima of `max_pool1d_with_indices` (a tensor of its own, as torch's
    dedicated kernel returns, unless autograd records the pooling).

    Example::

        >>> torch.max_pool1d(torch.tensor([[1., 3., 2., 0.]]), [2])
        tensor([[3., 2.]])
    """
    _check_1d("max_pool1d", self)
    _check_max_pool1d(self, kernel_size, list(stride) or list(kernel_size), padding, dilation,
                      ceil_mode)
    values = max_pool1d_with_indices(self, kernel_size, stride, padding, dilation,
                                     ceil_mode)[0]
    recorded = self.requires_grad and not local_keys.excluded & AUTOGRAD
    return values if recorded else values.clone()


@composite("max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
           "int[2] dilation=1, bool ceil_mode=False) -> Tensor")
def max_pool2d(self, kernel_size, stride=(), padding=(0, 0), dilation=(1, 1), ceil_mode=False):
    """The maxima of `max_pool2d_with_indices` (torch.nn.functional.max_pool2d).

    Example::

        >>> torch.max_pool2d(torch.arange(16.).view(1, 4, 4), 2)
        tensor([[[ 5.,  7.],
                 [13., 15.]]])
    """
    return max_pool2d_with_indices(self, kernel_size, stride, padding, dilation,
                                      ceil_mode)[0]


@composite("max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
           "int[3] dilation=1, bool ceil_mode=False) -> Tensor")
def max_pool3d(self, kernel_size, stride=(), padding=(0, 0, 0), dilation=(1, 1, 1),
               ceil_mode=False):
    """The maxima of `max_pool3d_with_indices`.

    Example::

        >>> torch.max_pool3d(torch.arange(8.).view(1, 2, 2, 2), 2)
        tensor([[[[7.]]]])
    """
    return max_pool3d_with_indices(self, kernel_size, stride, padding, dilation,
                                      ceil_mode)[0]


@composite("avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], "
           "bool ceil_mode=False, bool count_include_pad=True) -> Tensor")
def avg_pool1d(self, kernel_size, stride=(), padding=(0,), ceil_mode=False,
               count_include_pad=True):
    """Average pooling over the last dim.

    Example::

        >>> torch.avg_pool1d(torch.tensor([[1., 3., 2., 0.]]), [2])
        tensor([[2., 1.]])
    """
    if self.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {self.dim()}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for "
                           f"avg_pool1d)")
    stride = list(stride) or list(kernel_size)
    return avg_pool2d(self.unsqueeze(-2), [1] + list(kernel_size), [1] + stride,
                         [0] + list(padding), ceil_mode, count_include_pad).squeeze(-2)
