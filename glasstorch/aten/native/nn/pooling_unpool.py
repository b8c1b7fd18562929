"""max_unpool2d and max_unpool3d: max pooling's partial inverse. Each input value is
written at the flat spatial index max pooling reported for it, in a zero tensor of
`output_size`; the gradient reads the incoming gradient back at those indices."""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...registry import TensorMeta, op
from ..pointwise.unary import refuse
from .pooling import max_pool_double_backward  # noqa: F401  (the formulas' helper)

_NOT_FLOATING = frozenset(np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16,
                                                np.int32, np.int64))
_NAMES = {2: "two elements (height, width)", 3: "three elements (depth, height, width)"}


def _unpool_shape(k: int, self, indices, output_size, stride=None) -> tuple:
    """torch's checks of max_unpool{k}d, then the result's sizes."""
    if len(output_size) != k:
        raise RuntimeError(f"There should be exactly {_NAMES[k]} in output_size, but got "
                           f"{len(output_size)} elements.")
    if stride is not None:
        if len(stride) != k:
            raise RuntimeError(f"There should be exactly {_NAMES[k]} in stride, but got: "
                               f"{len(stride)} elements.")
        if min(stride) <= 0:
            raise RuntimeError(f"strides should be greater than zero, but got stride: "
                               f"{list(stride)}")
    if self.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"Input to max_unpooling{k}d should be a {k + 1}d or {k + 2}d "
                           f"Tensor, but got a tensor with {self.dim()} dimensions.")
    if indices._dtype is not dtypes.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: "
                           f"{scalar_type_name(indices._dtype)}")
    if indices._size != self._size:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(self._size)}) but got indices tensor with shape: "
                           f"{list(indices._size)}")
    for dim in range(1, self.dim()):
        if self._size[dim] == 0:
            raise RuntimeError(f"max_unpooling{k}d_forward_out_cpu(): Expected input to have "
                               f"non-zero size for non-batch dimensions, but got "
                               f"{list(self._size)} with dimension {dim} being empty.")
    return self._size[:-k] + tuple(output_size)


def _unpool(self: np.ndarray, indices: np.ndarray, k: int, out: np.ndarray) -> None:
    spatial = math.prod(out.shape[-k:])
    rows = math.prod(out.shape[:-k])
    flat = indices.reshape(rows, -1)
    if flat.size and (flat.min() < 0 or flat.max() >= spatial):
        bad = flat.max() if flat.max() >= spatial else flat.min()
        sizes = "x".join(str(n) for n in out.shape[-k:])
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size "
                           f"{sizes})")
    result = np.zeros((rows, spatial), out.dtype)
    result[np.arange(rows)[:, None], flat] = self.reshape(rows, -1)
    np.copyto(out, result.reshape(out.shape))


def _unpool_kernel(k: int):
    def kernel(self, indices, output_size, *window, out):
        refuse(self, f"max_unpool{k}d", _NOT_FLOATING)
        _unpool(self, indices, k, out)
    kernel.__name__ = f"max_unpool{k}d"
    kernel.__doc__ = (f"Write each value of `self` at its flat index over the last {k} "
                      f"dims of a zero tensor of `output_size` (max_pool{k}d's indices).")
    return kernel


max_unpool2d = op(
    "max_unpool2d(Tensor self, Tensor indices, SymInt[2] output_size) -> Tensor",
    meta=lambda self, indices, output_size: TensorMeta(
        _unpool_shape(2, self, indices, output_size), self._dtype),
    python_module="nn",
    grad={"self": "max_pool_double_backward(grad, indices, 2)",
          "indices": "non_differentiable",
          # repeated indices: the last value written wins, and so does its tangent
          "result": "max_unpool2d(self_t, indices, output_size)"})(_unpool_kernel(2))

max_unpool3d = op(
    "max_unpool3d(Tensor self, Tensor indices, SymInt[3] output_size, int[3] stride, "
    "int[3] padding) -> Tensor",
    meta=lambda self, indices, output_size, stride, padding: TensorMeta(
        _unpool_shape(3, self, indices, output_size, stride), self._dtype),
    python_module="nn",
    grad={"self": "max_pool_double_backward(grad, indices, 3)",
          "indices": "non_differentiable",
          "result": "max_unpool3d(self_t, indices, output_size, stride, padding)"})(
        _unpool_kernel(3))
