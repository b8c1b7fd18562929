"""Fractional max pooling: fractional_max_pool{2,3}d and their backward operators.

Note [Fractional windows]
    Each plane (one batch element and channel) draws a sample ``u`` in [0, 1) per pooled
    dim (`random_samples`, ``(N, C, k)``; the functional form draws it with torch.rand).
    Along a dim of ``n`` elements pooled to ``m`` windows of ``pool`` elements, with
    ``alpha = (n - pool) / (m - 1)`` computed in the input's dtype, window ``i`` starts at
    ``int((i + u) * alpha) - int(u * alpha)``, and the last one at ``n - pool``. The
    maximum over each window (a box) is taken one dim at a time, as for adaptive max
    pooling (Note [Adaptive windows]), with starts that differ from plane to plane. In
    2d the samples are ordered (width, height); in 3d (time, height, width).
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ...registry import TensorMeta, op
from ..pointwise.unary import refuse
from .pooling import max_pool_double_backward  # noqa: F401  (the formulas' helper)
from .pooling_max import scatter_to_indices

_NOT_FLOATING = frozenset(np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16,
                                                np.int32, np.int64))
_AXES = {2: ("height", "width"), 3: ("time", "height", "width")}


def window_starts(samples: np.ndarray, n: int, m: int, pool: int) -> np.ndarray:
    """Each plane's window starts along one dim: ``(planes, m)`` (Note [Fractional windows])."""
    starts = np.full((samples.shape[0], m), n - pool, np.int64)
    if m > 1:
        alpha = samples.dtype.type(n - pool) / samples.dtype.type(m - 1)
        i = np.arange(m - 1).astype(samples.dtype)
        u = samples[:, None]
        starts[:, :-1] = ((i + u) * alpha).astype(np.int64) - (u * alpha).astype(np.int64)
    return starts


def _max_along(values: np.ndarray, axis: int, starts: np.ndarray, pool: int) -> tuple:
    """Per plane (axis 0), the maximum of each window along `axis`, and where it was."""
    shape = [1] * values.ndim
    shape[0], shape[axis] = starts.shape
    position = starts.reshape(shape)
    best = np.take_along_axis(values, position, axis=axis)
    chosen = np.broadcast_to(position, best.shape).copy()
    for i in range(1, pool):
        view = np.take_along_axis(values, position + i, axis=axis)
        update = (view > best) | np.isnan(view)
        np.copyto(best, view, where=update)
        np.copyto(chosen, np.broadcast_to(position + i, best.shape), where=update)
    return best, chosen


def _fractional_max(self, kernel, samples, values, indices) -> None:
    k = len(kernel)
    spatial = self.shape[-k:]
    planes = math.prod(self.shape[:-k])
    current = self.reshape((planes,) + spatial)
    current = current.astype(np.float32) if current.dtype.itemsize == 2 else current
    batch = planes // self.shape[-k - 1]
    samples = samples[:batch].reshape(planes, k)     # its dtype's arithmetic places windows
    order = (1, 0) if k == 2 else (0, 1, 2)    # which sample each pooled dim reads
    out_spatial = values.shape[-k:]
    carried = []
    for dim in reversed(range(k)):
        starts = window_starts(samples[:, order[dim]], spatial[dim], out_spatial[dim],
                               kernel[dim])
        current, chosen = _max_along(current, dim + 1, starts, kernel[dim])
        carried = [np.take_along_axis(c, chosen, axis=dim + 1) for c in carried] + [chosen]
    np.copyto(values, current.reshape(values.shape), casting="unsafe")
    flat = np.zeros(current.shape, np.int64)
    for dim, chosen in zip(reversed(range(k)), carried):
        flat += chosen * math.prod(spatial[dim + 1:])
    np.copyto(indices, flat.reshape(indices.shape))


def _fractional_shape(k: int, self, kernel_size, output_size, random_samples) -> tuple:
    """torch's checks of fractional_max_pool{k}d, then the result's sizes."""
    name = f"fractional_max_pool{k}d" + ("()" if k == 2 else "_out()")
    for what, value in (("kernel_size", kernel_size), ("output_size", output_size)):
        if len(value) != k:
            raise RuntimeError(f"fractional_max_pool{k}d: {what} must either be a single Int "
                               f"or tuple of Ints")
    size = self._size
    if len(size) not in (k + 1, k + 2):
        raise RuntimeError(f"{name}: Expected {k + 1}D or {k + 2}D tensor, but got: "
                           f"{list(size)}")
    for dim in range(1, len(size)):
        if size[dim] == 0:
            raise RuntimeError(f"{name}: Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{list(size)} with dimension {dim} being "
                               f"empty.")
    if random_samples._dtype is not self._dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    batch = size[0] if len(size) == k + 2 else 1
    if random_samples.dim() != 3 or random_samples._size[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if random_samples._size[2] != k:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {k}; got "
                           f"{random_samples._size[2]}.")
    for axis, n, m, pool in zip(_AXES[k], size[-k:], output_size, kernel_size):
        # torch's 3d check is strict: the last window may not end at the input's end
        if m + pool - 1 > n or (k == 3 and m + pool - 1 == n):
            raise RuntimeError(f"{name}: pool {axis} {pool} too large relative to input "
                               f"{axis} {n}")
    return size[:-k] + tuple(output_size)


def _declare(k: int) -> tuple:
    """fractional_max_pool{k}d and its backward operator."""
    name = f"fractional_max_pool{k}d"

    def backward_kernel(grad_output, self, kernel_size, output_size, indices, *, out):
        scatter_to_indices(grad_output, indices, k, out)
    backward_kernel.__name__ = f"{name}_backward"
    backward_kernel.__doc__ = f"The gradient of `{name}`'s input: each output's gradient " \
                              f"added at its index."
    backward = op(f"{name}_backward(Tensor grad_output, Tensor self, int[{k}] kernel_size, "
                  f"int[{k}] output_size, Tensor indices) -> Tensor",
                  meta=lambda grad_output, self, *rest: TensorMeta(self._size,
                                                                   grad_output._dtype),
                  out=True, out_overload="grad_input", out_names=("grad_input",),
                  function=False,
                  grad={"grad_output": f"max_pool_double_backward(grad, indices, {k})",
                        "self": "zeros_like(self)"})(backward_kernel)

    def meta(self, kernel_size, output_size, random_samples):
        shape = _fractional_shape(k, self, kernel_size, output_size, random_samples)
        return TensorMeta(shape, self._dtype), TensorMeta(shape, dtypes.int64)

    def kernel(self, kernel_size, output_size, random_samples, *, out):
        refuse(self, f"{name}_out_frame", _NOT_FLOATING)
        _fractional_max(self, tuple(kernel_size), random_samples, *out)
    kernel.__name__ = name
    kernel.__doc__ = (f"Max pooling of the last {k} dims over windows placed by "
                      f"`random_samples` (Note [Fractional windows]), with each maximum's "
                      f"flat index.")
    forward = op(f"{name}(Tensor self, int[{k}] kernel_size, int[{k}] output_size, "
                 f"Tensor random_samples) -> (Tensor, Tensor)", meta=meta,
                 python_module="nn", out=True, out_overload="output",
                 out_names=("output", "indices"),
                 grad={"self": f"{name}_backward(grad, self, kernel_size, output_size, "
                               f"result1)",
                       "random_samples": "refuses_requires_grad",
                       "output_differentiability": (True, False)})(kernel)
    return forward, backward


fractional_max_pool2d, fractional_max_pool2d_backward = _declare(2)
fractional_max_pool3d, fractional_max_pool3d_backward = _declare(3)
