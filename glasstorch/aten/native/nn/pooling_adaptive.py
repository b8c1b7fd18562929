"""Adaptive pooling: the windows follow from the output size. _adaptive_avg_pool{2,3}d,
adaptive_max_pool{2,3}d with their backward operators, and the composites
adaptive_avg_pool{1,2,3}d and adaptive_max_pool1d.

Note [Adaptive windows]
    Output position ``o`` of ``m`` along a dim of ``n`` input elements pools the
    elements ``floor(o * n / m)`` up to (not including) ``ceil((o + 1) * n / m)``: the
    windows tile the input, overlapping by one where `m` does not divide `n`. A window is
    a box, the product of one interval per dim, so both poolings go one dim at a time,
    each a loop over the positions of the longest interval (a few whole-array steps): the
    mean over a box is the mean of the per-dim means (a NaN stays in its own windows),
    and the maximum over a box is the maximum of the per-dim maxima, whose chosen
    positions are carried along to make the flat index. Averaging's backward contracts
    each dim with a small (n, m) matrix of ``1 / length`` entries (BLAS). Scanning each
    interval in order and letting a larger value or a NaN win picks the element torch's
    row-major scan picks. float16 / bfloat16 averages follow torch's loop instead, to the
    bit: each window's elements added in row-major order (in float32 for 2-d windows, in
    the input's dtype, each sum rounded, for 3-d ones), then divided by each dim's length
    in turn.
"""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from ....c10 import dtype as dtypes
from ...registry import TensorMeta, composite, op
from ..pointwise.unary import refuse
from .pooling import max_pool_double_backward  # noqa: F401  (the formulas' helper)
from .pooling_max import scatter_to_indices
from .pooling_windows import result_strides

_REDUCED = frozenset((dtypes.float16._np, dtypes.bfloat16._np))
_NOT_FLOATING = frozenset(np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16,
                                                np.int32, np.int64))


def windows(n: int, m: int) -> tuple:
    """The (start, end) arrays of the `m` windows over `n` elements (Note [Adaptive windows])."""
    o = np.arange(m)
    return o * n // m, -(-(o + 1) * n // m)


def _averaging_matrix(n: int, m: int, dtype) -> np.ndarray:
    start, end = windows(n, m)
    j = np.arange(n)
    inside = (j[None, :] >= start[:, None]) & (j[None, :] < end[:, None])
    return (inside / (end - start)[:, None]).astype(dtype)


def _compute(dtype: np.dtype) -> np.dtype:
    return np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)


def _contract(array: np.ndarray, matrices: list) -> np.ndarray:
    """`array` with each of its last dims contracted with its matrix's second axis."""
    k = len(matrices)
    result = array
    for axis, matrix in zip(range(array.ndim - k, array.ndim), matrices):
        result = np.moveaxis(np.tensordot(result, matrix, axes=([axis], [1])), -1, axis)
    return result


def _mean_along(values: np.ndarray, axis: int, m: int) -> np.ndarray:
    """The mean of each window along `axis`."""
    n = values.shape[axis]
    start, end = windows(n, m)
    shape = [1] * values.ndim
    shape[axis] = m
    total = np.take(values, start, axis=axis)
    for i in range(1, int((end - start).max())):
        view = np.take(values, np.minimum(start + i, n - 1), axis=axis)
        np.add(total, view, out=total, where=(start + i < end).reshape(shape))
    return total / (end - start).reshape(shape).astype(total.dtype)


def _max_along(values: np.ndarray, axis: int, m: int) -> tuple:
    """The maximum of each window along `axis`, and the position it was found at."""
    n = values.shape[axis]
    start, end = windows(n, m)
    shape = [1] * values.ndim
    shape[axis] = m
    best = np.take(values, start, axis=axis)
    chosen = np.broadcast_to(start.reshape(shape), best.shape).copy()
    for i in range(1, int((end - start).max())):
        position = np.minimum(start + i, n - 1)
        view = np.take(values, position, axis=axis)
        update = (view > best) | np.isnan(view)
        update &= (start + i < end).reshape(shape)
        np.copyto(best, view, where=update)
        np.copyto(chosen, position.reshape(shape), where=update)
    return best, chosen


def _adaptive_max(self: np.ndarray, k: int, values: np.ndarray, indices: np.ndarray) -> None:
    """Max pooling one dim at a time, carrying each dim's chosen positions along."""
    current = self.astype(np.float32) if self.dtype.itemsize == 2 else self
    carried = []                     # chosen positions of the dims already reduced, last first
    for axis in reversed(range(self.ndim - k, self.ndim)):
        current, chosen = _max_along(current, axis, values.shape[axis])
        carried = [np.take_along_axis(c, chosen, axis=axis) for c in carried] + [chosen]
    np.copyto(values, current, casting="unsafe")
    spatial = self.shape[-k:]
    flat = np.zeros(values.shape, np.int64)
    for dim, chosen in zip(reversed(range(k)), carried):
        flat += chosen * math.prod(spatial[dim + 1:])
    np.copyto(indices, flat)


# ----------------------------------------------------------------------------------
# Checks and declarations
# ----------------------------------------------------------------------------------
def _adaptive_shape(name: str, k: int, self, output_size, size_words: str) -> tuple:
    """torch's checks: `k` output sizes, an input of k + 1 or k + 2 dims whose pooled
    dims (and, but in 2d averaging, channel dim) are not empty; returns the result's sizes."""
    if len(output_size) != k:
        raise RuntimeError(size_words)
    size = self._size
    if len(size) not in (k + 1, k + 2):
        colon = "" if "avg" in name else ":"
        raise RuntimeError(f"{name}(): Expected {k + 1}D or {k + 2}D tensor, but got{colon} "
                           f"{list(size)}")
    first = len(size) - k if name == "adaptive_avg_pool2d" else len(size) - k - 1
    for dim in range(max(first, 1), len(size)):
        if size[dim] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(size)} with dimension "
                               f"{dim} being empty")
    return size[:-k] + tuple(output_size)


def _kernel_name(kind: str, k: int) -> str:
    return f"adaptive_{kind}_pool{k}d" + ("_cpu" if k == 3 else "")


def _window_sums(values: np.ndarray, sizes, accumulate: np.dtype) -> np.ndarray:
    """torch's float16 / bfloat16 loop: each window's mean as its elements added in
    row-major order in `accumulate` (each sum rounded to it), then divided by each dim's
    length in turn (each quotient rounded to it)."""
    k = len(sizes)
    spans = [windows(n, m) for n, m in zip(values.shape[-k:], sizes)]
    lengths = [end - start for start, end in spans]
    total = np.zeros(values.shape[:-k] + tuple(sizes), accumulate)
    for offset in itertools.product(*(range(int(length.max())) for length in lengths)):
        index = np.ix_(*(np.minimum(start + o, n - 1)
                         for (start, _), o, n in zip(spans, offset, values.shape[-k:])))
        inside = functools.reduce(np.logical_and, (
            (o < length).reshape([-1 if i == d else 1 for i in range(k)])
            for d, (o, length) in enumerate(zip(offset, lengths))))
        added = (total.astype(np.float32) + values[(Ellipsis,) + index]).astype(accumulate)
        total = np.where(inside, added, total)
    for axis, length in zip(range(total.ndim - k, total.ndim), lengths):
        shape = [1] * total.ndim
        shape[axis] = -1
        total = (total.astype(np.float32) / length.reshape(shape).astype(np.float32)).astype(
            accumulate)
    return total


def _declare_avg(k: int) -> tuple:
    """_adaptive_avg_pool{k}d and its backward operator."""
    name = f"adaptive_avg_pool{k}d"

    def backward_kernel(grad_output, self, *, out):
        compute = _compute(grad_output.dtype)
        matrices = [_averaging_matrix(n, m, compute).T
                    for n, m in zip(self.shape[-k:], grad_output.shape[-k:])]
        np.copyto(out, _contract(grad_output.astype(compute, copy=False), matrices),
                  casting="unsafe")
    backward_kernel.__name__ = f"_{name}_backward"
    backward_kernel.__doc__ = (f"The gradient of `_{name}`'s input: each window's gradient "
                               f"shared out over its elements.")
    backward = op(f"_{name}_backward(Tensor grad_output, Tensor self) -> Tensor",
                  meta=lambda grad_output, self: TensorMeta(self._size, grad_output._dtype),
                  out=True, function=False,
                  grad={"grad_output": f"_{name}(grad, grad_output.shape[-{k}:])",
                        "self": "zeros_like(self)"})(backward_kernel)

    def meta(self, output_size):
        shape = _adaptive_shape(name, k, self, output_size,
                                f"{name}: output_size must be {k}")
        return TensorMeta(shape, self._dtype, result_strides(self, shape) if k == 2 else None)

    def kernel(self, output_size, *, out):
        refuse(self, _kernel_name("avg", k), _NOT_FLOATING)
        if self.dtype in _REDUCED:
            # float16 / bfloat16: torch sums in float32 in 2-d, in the input's dtype in 3-d
            accumulate = self.dtype if k == 3 else np.dtype(np.float32)
            np.copyto(out, _window_sums(self.astype(np.float32), out.shape[-k:], accumulate),
                      casting="unsafe")
            return
        result = self.astype(_compute(self.dtype), copy=False)
        for axis in range(self.ndim - k, self.ndim):
            result = _mean_along(result, axis, out.shape[axis])
        np.copyto(out, result, casting="unsafe")
    kernel.__name__ = f"_{name}"
    kernel.__doc__ = (f"Average pooling of the last {k} dims to `output_size` "
                      f"(Note [Adaptive windows]).")
    forward = op(f"_{name}(Tensor self, SymInt[{k}] output_size) -> Tensor", meta=meta,
                 grad={"self": f"_{name}_backward(grad, self)"})(kernel)
    return forward, backward


_adaptive_avg_pool2d, _adaptive_avg_pool2d_backward = _declare_avg(2)
_adaptive_avg_pool3d, _adaptive_avg_pool3d_backward = _declare_avg(3)


def _declare_max(k: int) -> tuple:
    """adaptive_max_pool{k}d and its backward operator."""
    name = f"adaptive_max_pool{k}d"

    def backward_kernel(grad_output, self, indices, *, out):
        scatter_to_indices(grad_output, indices, k, out)
    backward_kernel.__name__ = f"{name}_backward"
    backward_kernel.__doc__ = f"The gradient of `{name}`'s input: each output's gradient " \
                              f"added at its index."
    backward = op(f"{name}_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor",
                  meta=lambda grad_output, self, indices: TensorMeta(self._size,
                                                                     grad_output._dtype),
                  out=True, out_overload="grad_input", out_names=("grad_input",),
                  function=False,
                  grad={"grad_output": f"max_pool_double_backward(grad, indices, {k})",
                        "self": "zeros_like(self)"})(backward_kernel)

    def meta(self, output_size):
        shape = _adaptive_shape(name, k, self, output_size,
                                f"{name}(): internal error: output_size.size() must be {k}")
        strides = result_strides(self, shape) if k == 2 else None
        return TensorMeta(shape, self._dtype, strides), TensorMeta(shape, dtypes.int64, strides)

    def kernel(self, output_size, *, out):
        refuse(self, _kernel_name("max", k), _NOT_FLOATING)
        _adaptive_max(self, k, *out)
    kernel.__name__ = name
    kernel.__doc__ = (f"Max pooling of the last {k} dims to `output_size`, with each "
                      f"maximum's flat index over those dims (Note [Adaptive windows]).")
    forward = op(f"{name}(Tensor self, int[{k}] output_size) -> (Tensor, Tensor)", meta=meta,
                 python_module="nn",
                 grad={"self": f"{name}_backward(grad, self, result1)",
                       "output_differentiability": (True, False)})(kernel)
    return forward, backward


adaptive_max_pool2d, adaptive_max_pool2d_backward = _declare_max(2)
adaptive_max_pool3d, adaptive_max_pool3d_backward = _declare_max(3)


# ----------------------------------------------------------------------------------
# Composites
# ----------------------------------------------------------------------------------
def _check_1d(name: str, self, output_size) -> None:
    if self.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {self.dim()}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for {name})")
    if len(output_size) != 1:
        raise RuntimeError(f"{name}() argument 'output_size' should contain one int (got "
                           f"{len(output_size)})")


def _check_avg_sizes(k: int, output_size) -> None:
    """torch's averaging composites refuse negative output sizes (its message spaces the
    3d sizes unevenly)."""
    if any(n < 0 for n in output_size):
        shown = (f"{output_size[0]}, {output_size[1]}" if k == 2 else
                 f"{output_size[0]}, {output_size[1]},{output_size[2]}")
        raise RuntimeError(f"adaptive_avg_pool{k}d: elements of output_size must be greater "
                           f"than or equal to 0 but received {{{shown}}}")


def _global_or_adaptive(k: int, self, output_size, adaptive):
    """A 1-sized output is a mean over the pooled dims (as torch records it)."""
    if all(n == 1 for n in output_size) and len(output_size) == k:
        return self.mean(list(range(-k, 0)), keepdim=True)
    return adaptive(self, output_size)


@composite("adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor",
           python_module="nn")
def adaptive_avg_pool2d(self, output_size):
    """Average pooling of the last 2 dims to `output_size` (Note [Adaptive windows])."""
    _check_avg_sizes(2, output_size)
    return _global_or_adaptive(2, self, output_size, _adaptive_avg_pool2d)


@composite("adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor",
           python_module="nn")
def adaptive_avg_pool3d(self, output_size):
    """Average pooling of the last 3 dims to `output_size` (Note [Adaptive windows])."""
    _check_avg_sizes(3, output_size)
    return _global_or_adaptive(3, self, output_size, _adaptive_avg_pool3d)


@composite("adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor")
def adaptive_avg_pool1d(self, output_size):
    """Average pooling of the last dim to `output_size`.

    Example::

        >>> torch.adaptive_avg_pool1d(torch.tensor([[1., 3., 2., 0.]]), [2])
        tensor([[2., 1.]])
    """
    _check_1d("adaptive_avg_pool1d", self, output_size)
    return adaptive_avg_pool2d(self.unsqueeze(-2), [1, output_size[0]]).squeeze(-2)


@composite("adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)")
def adaptive_max_pool1d(self, output_size):
    """Max pooling of the last dim to `output_size`, with each maximum's index.

    Example::

        >>> torch.adaptive_max_pool1d(torch.tensor([[1., 3., 2., 0.]]), [2])
        (tensor([[3., 2.]]), tensor([[1, 2]]))
    """
    _check_1d("adaptive_max_pool1d", self, output_size)
    values, indices = adaptive_max_pool2d(self.unsqueeze(-2), [1, output_size[0]])
    return values.squeeze(-2), indices.squeeze(-2)
